"""`layering check --format text|json|github|sarif`: the real CLI on small packages.

JSON is validated against the shipped schema (layering/schema/report-v2.json) with jsonschema;
SARIF against sarif-pydantic's SARIF 2.1.0 object model, read strictly (no unknown property).
"""

from __future__ import annotations

import importlib.resources
import json
import os
import pty
import re
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

import jsonschema
import pytest
from frontdoors_support import BROKEN, CONTRACTS, run_cli, write_project
from pydantic import BaseModel

from layering.reporting.github import command, escape_data, escape_property

# --- JSON ----------------------------------------------------------------------------------


def _schema() -> dict:
    text = (importlib.resources.files("layering") / "schema" / "report-v2.json").read_text(
        encoding="utf-8"
    )
    schema = json.loads(text)
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def _valid_json(stdout: str) -> dict:
    document = json.loads(stdout)
    jsonschema.Draft202012Validator(_schema()).validate(document)
    return document


def test_json_broken(broken: Path) -> None:
    run = run_cli(broken, "--format", "json")
    assert run.returncode == 1, run.stderr
    document = _valid_json(run.stdout)
    assert document["schema_version"] == 2
    assert document["exit_code"] == 1
    assert document["config_path"] == str(broken / "contracts.toml")
    assert document["summary"] == {
        "contracts": 3,
        "kept": 0,
        "broken": 2,
        "expected_broken": 1,
        "unexpectedly_kept": 0,
        "error": 0,
        "warn": 0,
        "violations": 4,
    }
    by_id = {c["id"]: c for c in document["contracts"]}
    assert [c["id"] for c in document["contracts"]] == ["no-sub", "leaf", "known"]
    assert by_id["no-sub"]["verdict"] == "broken" and by_id["no-sub"]["type"] == "forbidden"
    assert by_id["no-sub"]["source"] == {"path": str(broken / "contracts.toml"), "line": 5}
    direct, through_b = by_id["no-sub"]["violations"]
    assert (
        direct["code"],
        direct["path"],
        direct["line"],
        direct["names"],
        direct["qualifiers"],
    ) == ("LY001", "src/app/a.py", 5, [], ["function-level"])
    assert (
        through_b["code"],
        through_b["path"],
        through_b["line"],
        through_b["importer"],
        through_b["imported"],
    ) == ("LY002", "src/app/b.py", 2, "app.b", "app.sub.x")
    assert [(h["path"], h["line"], h["importer"], h["imported"]) for h in through_b["chain"]] == [
        ("src/app/a.py", 1, "app.a", "app.b"),
        ("src/app/b.py", 2, "app.b", "app.sub.x"),
    ]
    assert by_id["no-sub"]["chain_groups"] == [
        {"source": "app.a", "target": "app.sub", "chains": 2, "cut": 2, "listed": []}
    ]
    cut = {(entry["importer"], entry["imported"]): entry for entry in by_id["no-sub"]["cut"]}
    assert sorted(cut) == [("app.a", "app.sub.x"), ("app.b", "app.sub.x")]
    assert (
        cut["app.b", "app.sub.x"]["path"],
        cut["app.b", "app.sub.x"]["lines"],
        cut["app.b", "app.sub.x"]["chains"],
    ) == ("src/app/b.py", [2], 1)
    assert cut["app.a", "app.sub.x"]["qualifiers"] == ["function-level"]
    assert by_id["known"]["verdict"] == "expected_broken" and by_id["known"]["passes"] is True


def test_json_lists_stale_entries_for_prune(broken: Path) -> None:
    contracts = broken / "contracts.toml"
    contracts.write_text(
        contracts.read_text().replace(
            'forbidden_modules = ["app.sub"]',
            'forbidden_modules = ["app.sub"]\nallow = ["app.a -> app.sub.x", "app.a -> '
            'app.sub.nothing"]',
            1,
        )
    )
    run = run_cli(broken, "--format", "json")
    document = _valid_json(run.stdout)
    by_id = {c["id"]: c for c in document["contracts"]}
    assert by_id["no-sub"]["stale"] == [
        {"option": "allow", "index": 1, "text": "app.a -> app.sub.nothing", "name": None}
    ]
    assert by_id["leaf"]["stale"] == []


def test_json_kept(kept: Path) -> None:
    run = run_cli(kept, "--format", "json")
    assert run.returncode == 0, run.stderr
    document = _valid_json(run.stdout)
    assert document["exit_code"] == 0
    assert [c["verdict"] for c in document["contracts"]] == ["kept", "kept", "expected_broken"]
    assert document["contracts"][0]["violations"] == [] and document["contracts"][0]["items"] == []


def test_json_config_error(misconfigured: Path) -> None:
    run = run_cli(misconfigured, "--format", "json")
    assert run.returncode == 2
    document = _valid_json(run.stdout)
    assert document["exit_code"] == 2 and "contracts" not in document
    (error,) = document["errors"]
    assert error["path"] == str(misconfigured / "contracts.toml")
    assert error["line"] == 11
    assert "forbiden" in error["message"] and "Did you mean 'forbidden_names'?" in error["message"]
    assert "contracts.toml:11" in run.stderr  # the job log shows it too


def test_json_is_deterministic(broken: Path) -> None:
    first = run_cli(broken, "--format", "json").stdout
    assert run_cli(broken, "--format", "json").stdout == first


def test_json_schema_rejects_a_wrong_document(broken: Path) -> None:
    document = json.loads(run_cli(broken, "--format", "json").stdout)
    document["contracts"][0]["verdict"] = "fine"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(_schema()).validate(document)


# --- GitHub --------------------------------------------------------------------------------


def test_github_escaping() -> None:
    assert escape_data("100% done\r\nnext") == "100%25 done%0D%0Anext"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    assert (
        command("error", "m: a, b", file="x,y.py", line=3, title="t:1")
        == "::error file=x%2Cy.py,line=3,title=t%3A1::m: a, b"
    )


def test_github_broken(broken: Path) -> None:
    run = run_cli(broken, "--format", "github")
    assert run.returncode == 1, run.stderr
    lines = run.stdout.splitlines()
    errors = [line for line in lines if line.startswith("::error ")]
    assert errors[0].startswith(
        "::error file=src/app/a.py,line=5,title=LY001 a does not import sub::app.a imports "
        "app.sub.x [function-level]%0A"
    )
    assert errors[1].startswith(
        "::error file=src/app/b.py,line=2,title=LY002 a does not import sub::app.b imports "
        "app.sub.x%0Aone of the 2 imports to remove"
    )
    assert "%0Asrc/app/a.py:1: app.a -> app.b%0Asrc/app/b.py:2: app.b -> app.sub.x%0A" in errors[1]
    # `:`, `,` and `%` in a property are escaped; in the message only `%` and line breaks.
    assert errors[2].startswith(
        "::error file=src/app/b.py,line=2,title=LY003 b is a leaf%3A no sub%2C 100%25 sure::"
    )
    assert "contract: b is a leaf: no sub, 100%25 sure [leaf]" in errors[2]
    assert len(errors) == 3  # the expected-broken contract is a notice, not an error
    (notice,) = [line for line in lines if line.startswith("::notice ")]
    assert notice.startswith(
        "::notice file=contracts.toml,line=19,title=a does not import b is broken as expected::"
    )
    assert lines[-1] == "Contracts: 0 kept, 2 broken, 1 broken as expected."


def test_github_kept(kept: Path) -> None:
    run = run_cli(kept, "--format", "github")
    assert run.returncode == 0, run.stderr
    assert not [line for line in run.stdout.splitlines() if line.startswith("::error")]
    assert run.stdout.splitlines()[-1] == "Contracts: 2 kept, 0 broken, 1 broken as expected."


def test_github_paths_are_relative_to_the_checkout(broken: Path) -> None:
    run = run_cli(broken.parent, "--format", "github", "--config", "broken/contracts.toml")
    assert "::error file=broken/src/app/a.py,line=5," in run.stdout


def test_github_config_error(misconfigured: Path) -> None:
    run = run_cli(misconfigured, "--format", "github")
    assert run.returncode == 2
    (line,) = run.stdout.splitlines()
    assert line.startswith(
        "::error file=contracts.toml,line=11,title=layering%3A configuration error::contract 'a "
        "does not import sub': unrecognized option 'forbiden'"
    )
    assert "%0Ahint: " in line


# --- SARIF ---------------------------------------------------------------------------------

# SARIF 2.1.0 properties that sarif-pydantic does not model; everything else must be modelled.
_UNMODELLED = {
    "columnKind",
    "exitCode",
    "toolConfigurationNotifications",
    "toolExecutionNotifications",
    "suppressions",
}


def _unknown_properties(node: object, where: str = "log") -> list[str]:
    found = []
    if isinstance(node, BaseModel):
        found.extend(
            f"{where}.{key}" for key in (node.model_extra or {}) if key not in _UNMODELLED
        )
        for name in type(node).model_fields:
            if name != "properties":  # property bags hold anything
                found.extend(_unknown_properties(getattr(node, name), f"{where}.{name}"))
    elif isinstance(node, (list, tuple)):
        for number, value in enumerate(node):
            found.extend(_unknown_properties(value, f"{where}[{number}]"))
    elif isinstance(node, dict):
        for key, value in node.items():
            found.extend(_unknown_properties(value, f"{where}[{key}]"))
    return found


def _valid_sarif(stdout: str) -> dict:
    import sarif_pydantic

    document = json.loads(stdout)
    log = sarif_pydantic.Sarif.model_validate(document)
    assert _unknown_properties(log) == []
    for invocation in document["runs"][0].get("invocations", []):
        for notification in invocation.get("toolConfigurationNotifications", []):
            assert (
                _unknown_properties(sarif_pydantic.sarif.Notification.model_validate(notification))
                == []
            )
    for result in document["runs"][0]["results"]:
        for suppression in result.get("suppressions", []):
            assert (
                _unknown_properties(sarif_pydantic.sarif.Suppression.model_validate(suppression))
                == []
            )
            assert suppression["kind"] in ("inSource", "external")
    assert document["version"] == "2.1.0" and "sarif-schema-2.1.0.json" in document["$schema"]
    assert len(document["runs"]) == 1
    driver = document["runs"][0]["tool"]["driver"]
    assert (
        driver["name"] == "layering"
        and driver["version"]
        and driver["informationUri"].startswith("https://")
    )
    rule_ids = [rule["id"] for rule in driver["rules"]]
    assert len(rule_ids) == len(set(rule_ids))
    for result in document["runs"][0]["results"]:
        assert rule_ids[result["ruleIndex"]] == result["ruleId"]
        assert result["level"] == "error"
        for location in result["locations"] + result.get("relatedLocations", []):
            artifact = location["physicalLocation"]["artifactLocation"]
            assert artifact["uriBaseId"] == "%SRCROOT%" and not artifact["uri"].startswith("/")
            assert location["physicalLocation"]["region"]["startLine"] >= 1
    return document


def test_sarif_broken(broken: Path) -> None:
    run = run_cli(broken, "--format", "sarif")
    assert run.returncode == 1, run.stderr
    document = _valid_sarif(run.stdout)
    results = document["runs"][0]["results"]
    rules = {rule["id"] for rule in document["runs"][0]["tool"]["driver"]["rules"]}
    assert {"LY001", "LY002", "LY003", "LY020", "LY032", "LY040"} <= rules
    summary = [
        (
            r["ruleId"],
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
            "suppressions" in r,
        )
        for r in results
    ]
    assert summary == [
        ("LY001", "src/app/a.py", 5, False),
        ("LY002", "src/app/b.py", 2, False),
        ("LY003", "src/app/b.py", 2, False),
        ("LY001", "src/app/a.py", 1, True),
    ]
    chain = results[1]
    assert [
        loc["physicalLocation"]["artifactLocation"]["uri"] for loc in chain["relatedLocations"]
    ] == ["src/app/a.py", "src/app/b.py"]
    assert len(chain["codeFlows"][0]["threadFlows"][0]["locations"]) == 2
    assert "a does not import sub" in chain["message"]["text"]
    assert "uri" not in document["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]
    assert results[3]["suppressions"][0]["kind"] == "external"
    fingerprints = [r["partialFingerprints"]["layeringFinding/v1"] for r in results]
    assert len(set(fingerprints)) == len(fingerprints)
    assert run_cli(broken, "--format", "sarif").stdout == run.stdout


def test_sarif_kept(kept: Path) -> None:
    run = run_cli(kept, "--format", "sarif")
    assert run.returncode == 0, run.stderr
    document = _valid_sarif(run.stdout)
    assert all("suppressions" in r for r in document["runs"][0]["results"])
    assert document["runs"][0]["invocations"][0]["executionSuccessful"] is True


def test_sarif_config_error(misconfigured: Path) -> None:
    run = run_cli(misconfigured, "--format", "sarif")
    assert run.returncode == 2
    document = _valid_sarif(run.stdout)
    (invocation,) = document["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False
    (notification,) = invocation["toolConfigurationNotifications"]
    assert notification["level"] == "error"
    location = notification["locations"][0]["physicalLocation"]
    assert (
        location["artifactLocation"]["uri"] == "contracts.toml"
        and location["region"]["startLine"] == 11
    )


# A source root named with what a URI and a workflow command must escape: a space, `#`, `%`, `,`.
ODD_ROOT = "my src #1, 100%"

# What RFC 3986 lets a relative-path reference hold: unreserved and sub-delimiter characters,
# `@`, `/` and percent escapes (`:` too, though not in a first segment: encoded throughout).
_RELATIVE_REFERENCE = re.compile(r"(?:[A-Za-z0-9._~!$&'()*+,;=@/-]|%[0-9A-F]{2})+")


def _odd_project(tmp_path: Path) -> Path:
    files = {name.replace("src/", f"{ODD_ROOT}/", 1): text for name, text in BROKEN.items()}
    return write_project(
        tmp_path / "odd",
        files,
        CONTRACTS.replace('source_roots = ["src"]', f'source_roots = ["{ODD_ROOT}"]'),
    )


def test_sarif_uris_are_percent_encoded_and_resolve_to_the_files(tmp_path: Path) -> None:
    root = _odd_project(tmp_path)
    run = run_cli(root, "--format", "sarif")
    assert run.returncode == 1, run.stderr
    document = _valid_sarif(run.stdout)
    base = root.as_uri() + "/"  # no .git above it: the configuration's directory
    uris = {
        location["physicalLocation"]["artifactLocation"]["uri"]
        for result in document["runs"][0]["results"]
        for location in result["locations"] + result.get("relatedLocations", [])
    }
    assert {urllib.parse.unquote(uri) for uri in uris} == {
        f"{ODD_ROOT}/app/a.py",
        f"{ODD_ROOT}/app/b.py",
    }
    for uri in uris:
        assert _RELATIVE_REFERENCE.fullmatch(uri), uri
        resolved = urllib.parse.urlsplit(urllib.parse.urljoin(base, uri))
        assert resolved.scheme == "file" and not resolved.query and not resolved.fragment
        assert Path(urllib.request.url2pathname(resolved.path)).is_file(), uri


def test_github_file_properties_escape_a_path_as_workflow_commands_do(tmp_path: Path) -> None:
    run = run_cli(_odd_project(tmp_path), "--format", "github")
    assert run.returncode == 1, run.stderr
    files = {
        line.split("file=", 1)[1].split(",line=", 1)[0]
        for line in run.stdout.splitlines()
        if line.startswith("::error ")
    }
    assert files == {"my src #1%2C 100%25/app/a.py", "my src #1%2C 100%25/app/b.py"}


# --- text: colour and pipes ----------------------------------------------------------------


def _on_a_terminal(cwd: Path, env: dict[str, str]) -> str:
    """The CLI's output with stdout on a pseudo-terminal."""
    leader, follower = pty.openpty()
    environment = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    environment.update(env)
    process = subprocess.Popen(
        [sys.executable, "-m", "layering", "check"],
        cwd=cwd,
        stdout=follower,
        stderr=subprocess.DEVNULL,
        env=environment,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=60)
    os.close(leader)
    return b"".join(chunks).decode()


def test_text_colour_only_on_a_terminal_without_no_color(broken: Path) -> None:
    assert "\x1b[" not in run_cli(broken).stdout
    assert "\x1b[31mBROKEN\x1b[0m" in _on_a_terminal(broken, {"TERM": "xterm"})
    assert "\x1b[" not in _on_a_terminal(broken, {"TERM": "xterm", "NO_COLOR": "1"})


@pytest.mark.parametrize("format", ["text", "json"])
def test_broken_pipe_exits_quietly(broken: Path, format: str) -> None:
    process = subprocess.Popen(
        f"{sys.executable} -m layering check --format {format} | head -c 1",
        shell=True,
        cwd=broken,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    out, err = process.communicate(timeout=60)
    assert len(out) == 1
    assert b"Traceback" not in err and b"BrokenPipe" not in err


def test_every_format_uses_one_base_when_run_from_a_subdirectory(broken: Path) -> None:
    """Text and JSON paths are relative to the configuration's directory wherever the run
    starts; GitHub annotations and SARIF are relative to the repository root, as GitHub
    resolves them."""
    (broken.parent / ".git").mkdir()
    below = broken / "src" / "app"
    text = run_cli(below).stdout
    assert "  src/app/a.py:5: LY001 " in text
    document = json.loads(run_cli(below, "--format", "json").stdout)
    assert {
        v["path"]
        for c in document["contracts"]
        for v in c["violations"]
        if v["path"].endswith(".py")
    } == {"src/app/a.py", "src/app/b.py"}
    sarif = json.loads(run_cli(below, "--format", "sarif").stdout)["runs"][0]
    assert {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["results"]
    } == {"broken/src/app/a.py", "broken/src/app/b.py"}
    github = run_cli(below, "--format", "github").stdout
    assert "::error file=broken/src/app/a.py,line=5," in github


def test_text_paths_outside_the_configurations_directory_are_relative_to_the_working_directory(
    tmp_path: Path,
) -> None:
    """An import-linter configuration finds its packages from the working directory, which may
    lie outside the configuration's: the text report prints their files as ruff would, relative
    to the working directory, not as absolute paths of the machine."""
    files = {
        "src/app/__init__.py": "",
        "src/app/a.py": "import app.b\n",
        "src/app/b.py": "",
        "config/.importlinter": (
            "[importlinter]\nroot_package = app\n\n[importlinter:contract:no-b]\nname = a without "
            "b\n"
            "type = forbidden\nsource_modules = app.a\nforbidden_modules = app.b\n"
        ),
    }
    root = write_project(tmp_path / "project", files, None)
    run = run_cli(root / "src", "../config/.importlinter", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "  app/a.py:1: LY001 app.a imports app.b\n" in run.stdout
    assert str(tmp_path) not in run.stdout.split("\n", 1)[1]
    outside = run_cli(
        root / "config", ".importlinter", "--no-cache", env={"PYTHONPATH": str(root / "src")}
    )
    assert f"  {root / 'src' / 'app' / 'a.py'}:1: LY001 " in outside.stdout  # not below the cwd


def test_sarif_uris_are_relative_to_the_repository_root_and_name_no_machine_path(
    tmp_path: Path,
) -> None:
    """Code scanning resolves a SARIF URI against the repository it analyses: the URIs are
    relative to the checkout's root, as GitHub annotations are, and the log holds no directory
    of the machine that ran it (no absolute `%SRCROOT%`), also for a file outside the checkout."""
    checkout = tmp_path / "checkout"
    (checkout / ".git").mkdir(parents=True)
    project = write_project(checkout / "services" / "api", BROKEN)
    run = run_cli(project, "--format", "sarif")
    assert run.returncode == 1, run.stderr
    document = _valid_sarif(run.stdout)
    assert str(tmp_path) not in run.stdout and "file://" not in run.stdout
    assert {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in document["runs"][0]["results"]
    } == {"services/api/src/app/a.py", "services/api/src/app/b.py"}
    outside = write_project(
        tmp_path / "outside",
        {name.removeprefix("src/"): text for name, text in BROKEN.items()},
        None,
    )
    (project / "contracts.toml").write_text(
        CONTRACTS.replace('source_roots = ["src"]', f'source_roots = ["{outside}"]'),
        encoding="utf-8",
    )
    run = run_cli(project, "--format", "sarif")
    assert str(tmp_path) not in run.stdout and "file://" not in run.stdout, run.stdout
    assert "../outside/app/a.py" in {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in _valid_sarif(run.stdout)["runs"][0]["results"]
    }
