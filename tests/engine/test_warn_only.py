"""Warn-only contracts (`severity = "warn"`): reported as broken, yet the run passes.

Each test runs the real CLI on a small package: the text report says WARN, JSON carries
`"severity": "warn"` beside the verdict, GitHub annotations are `::warning`, SARIF results
have level `warning`, and a cached run prints what a run without the cache prints.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from report_support import run_layering, write_files

PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/a.py": "from app import b\n",
    "src/app/b.py": "from app import c\n",
    "src/app/c.py": "",
}

HEADER = 'root_packages = ["app"]\nsource_roots = ["src"]\n'

WARN_CHAIN = """
[[contracts]]
id = "a-no-c"
name = "a does not import c"
type = "forbidden"
source_modules = ["app.a"]
forbidden_modules = ["app.c"]
severity = "warn"
"""

WARN_LEAF = """
[[contracts]]
id = "b-leaf"
name = "b is a leaf"
type = "leaf"
modules = ["app.b"]
within = ["app"]
severity = "warn"
"""

ENFORCED = """
[[contracts]]
id = "b-no-c"
name = "b does not import c"
type = "forbidden"
source_modules = ["app.b"]
forbidden_modules = ["app.c"]
"""


def _project(tmp_path, *contracts: str):
    return write_files(tmp_path, {**PACKAGE, "contracts.toml": HEADER + "".join(contracts)})


def test_a_broken_warn_contract_is_reported_and_the_run_passes(tmp_path):
    run = run_layering(_project(tmp_path, WARN_CHAIN, WARN_LEAF), "check", "--no-cache")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "a does not import c [a-no-c] WARN" in run.stdout
    assert "b is a leaf [b-leaf] WARN" in run.stdout
    assert "src/app/b.py:1: LY003 app.b imports app.c" in run.stdout
    assert run.stdout.rstrip().endswith(
        'Contracts: 0 kept, 0 broken, 2 WARN (severity = "warn": the run passes).'
    )


def test_an_enforced_contract_beside_a_warn_one_still_fails_the_run(tmp_path):
    run = run_layering(_project(tmp_path, WARN_CHAIN, ENFORCED), "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "[a-no-c] WARN" in run.stdout
    assert "[b-no-c] BROKEN" in run.stdout
    assert "0 kept, 1 broken, 1 WARN" in run.stdout


def test_json_carries_the_severity_beside_the_verdict(tmp_path):
    root = _project(tmp_path, WARN_CHAIN, ENFORCED.replace("app.c", "app.a"))
    run = run_layering(root, "check", "--no-cache", "--format", "json")
    assert run.returncode == 0, run.stdout + run.stderr
    document = json.loads(run.stdout)
    schema = Path(__file__).parents[2] / "layering" / "schema" / "report-v2.json"
    jsonschema.Draft202012Validator(json.loads(schema.read_text())).validate(document)
    contracts = {c["id"]: c for c in document["contracts"]}
    assert (contracts["a-no-c"]["verdict"], contracts["a-no-c"]["severity"]) == ("broken", "warn")
    assert (contracts["b-no-c"]["verdict"], contracts["b-no-c"]["severity"]) == ("kept", "error")
    assert document["exit_code"] == 0
    assert document["summary"]["warn"] == 1 and document["summary"]["broken"] == 1


def test_github_annotations_are_warnings(tmp_path):
    run = run_layering(_project(tmp_path, WARN_CHAIN), "check", "--no-cache", "--format", "github")
    assert run.returncode == 0, run.stdout + run.stderr
    annotations = [line for line in run.stdout.splitlines() if line.startswith("::")]
    assert annotations and all(line.startswith("::warning ") for line in annotations), run.stdout
    assert any("file=src/app/b.py,line=1" in line for line in annotations), run.stdout


def test_sarif_results_have_level_warning(tmp_path):
    run = run_layering(
        _project(tmp_path, WARN_CHAIN, ENFORCED), "check", "--no-cache", "--format", "sarif"
    )
    assert run.returncode == 1, run.stdout + run.stderr
    results = json.loads(run.stdout)["runs"][0]["results"]
    levels = {(r["properties"]["contract"], r["level"]) for r in results}
    assert levels == {("a-no-c", "warning"), ("b-no-c", "error")}


@pytest.mark.parametrize("format", ["text", "json", "github", "sarif"])
def test_a_cached_run_reports_what_a_run_without_the_cache_reports(tmp_path, format):
    root = _project(tmp_path, WARN_CHAIN, WARN_LEAF, ENFORCED)
    runs = [run_layering(root, "check", "--format", format) for _ in range(2)]
    fresh = run_layering(root, "check", "--format", format, "--no-cache")
    assert (tmp_path / ".layering_cache").is_dir()
    for run in runs:
        assert (run.returncode, run.stdout) == (fresh.returncode, fresh.stdout)
    assert fresh.returncode == 1


def test_a_cached_run_follows_a_severity_edited_since(tmp_path):
    root = _project(tmp_path, WARN_CHAIN)
    assert run_layering(root, "check").returncode == 0
    config = root / "contracts.toml"
    config.write_text(config.read_text().replace('severity = "warn"\n', ""))
    cached, fresh = run_layering(root, "check"), run_layering(root, "check", "--no-cache")
    assert (cached.returncode, cached.stdout) == (fresh.returncode, fresh.stdout)
    assert "[a-no-c] BROKEN" in cached.stdout


@pytest.mark.parametrize("value", ['"warning"', "true"])
def test_an_invalid_severity_is_a_located_error(tmp_path, value):
    root = _project(tmp_path, WARN_CHAIN.replace('"warn"', value))
    run = run_layering(root, "check")
    assert run.returncode == 2, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    line = HEADER.count("\n") + WARN_CHAIN.splitlines().index('severity = "warn"') + 1
    assert f"contracts.toml:{line}:" in run.stdout + run.stderr
    assert 'severity takes "error" or "warn"' in run.stdout + run.stderr


def test_an_import_linter_type_takes_severity_too(tmp_path):
    layers = (
        '\n[[contracts]]\nid = "layers"\ntype = "layers"\nlayers = ["app.c", "app.b"]\nseverity = '
        '"warn"\n'
    )
    run = run_layering(_project(tmp_path, layers), "check", "--no-cache")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "[layers] WARN" in run.stdout
