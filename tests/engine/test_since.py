"""`layering check --since REF`: REF's tree, read from git, checked too; the findings new since
REF (matched by contract, importer, imported and names, never by line), the fixed ones, the
change of each contract's debt, and `--new-only`.

Each test makes a real git repository in tmp_path, commits, edits, and runs the real CLI.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import layering_process
import pytest
from report_support import write_files

HEADER = 'root_packages = ["app"]\nsource_roots = ["src"]\n'

FORBIDDEN = """
[[contracts]]
id = "domain-no-infra"
name = "The domain does not import infra"
type = "forbidden"
source_modules = ["app.domain"]
forbidden_modules = ["app.infra"]
allow_indirect_imports = true
"""

LAYERS = """
[[contracts]]
id = "layers"
name = "ui above domain above infra"
type = "layers"
layers = ["app.ui", "app.domain", "app.infra"]
"""

PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/infra.py": "X = 1\nY = 2\n",
    "src/app/ui.py": "",
    "src/app/domain/__init__.py": "",
    "src/app/domain/model.py": "from app.infra import X\n",
    "src/app/domain/service.py": "",
}


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def _repo(root: Path, contracts: str = FORBIDDEN, files: dict[str, str] | None = None) -> Path:
    """A git repository of the package and its configuration, committed."""
    write_files(root, {**PACKAGE, **(files or {}), "contracts.toml": HEADER + contracts})
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "first")
    return root


def _run(root: Path, *args: str, path: str | None = None) -> subprocess.CompletedProcess:
    """`python -m layering check ARGS` in `root`, its temporary files in `root/../tmp`; `path`
    sets PATH."""
    tmp = root.parent / "tmp"
    tmp.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TMPDIR")}
    env["TMPDIR"] = str(tmp)
    if path is not None:
        env["PATH"] = path
    run = layering_process.run(["check", *args], cwd=root, env=env, timeout=300)
    assert "Traceback" not in run.stderr, run.stderr
    return run


def _since(stdout: str) -> list[str]:
    """The lines of the since section."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("since "))
    return lines[start:]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    return _repo(root)


def test_a_finding_at_ref_and_today_is_old(project: Path) -> None:
    run = _run(project, "--since", "HEAD")
    assert run.returncode == 1, run.stdout + run.stderr  # broken, as without --since
    since = _since(run.stdout)
    assert since[0].startswith("since HEAD (") and since[0].endswith("): 0 new, 0 fixed")
    assert since[1] == "  HEAD is checked with its own contracts.toml"
    assert len(since) == 2
    new_only = _run(project, "--since", "HEAD", "--new-only")
    assert new_only.returncode == 0, new_only.stdout  # broken, but not by anything new
    assert "LY001 app.domain.model imports app.infra (X)" in new_only.stdout


def test_one_new_import_is_new_and_fails_new_only(project: Path) -> None:
    (project / "src/app/domain/service.py").write_text("import os\n\nfrom app.infra import Y\n")
    run = _run(project, "--since", "HEAD", "--new-only")
    assert run.returncode == 1, run.stdout + run.stderr
    since = _since(run.stdout)
    assert since[0].endswith(": 1 new, 0 fixed")
    assert since[2:] == [
        "  new [domain-no-infra] src/app/domain/service.py:3: LY001 app.domain.service imports "
        "app.infra (Y)"
    ]


def test_another_name_of_an_old_import_is_new(project: Path) -> None:
    (project / "src/app/domain/model.py").write_text(
        "from app.infra import X\nfrom app.infra import Y\n"
    )
    since = _since(_run(project, "--since", "HEAD").stdout)
    assert since[0].endswith(": 1 new, 0 fixed")
    assert since[2].endswith(
        "src/app/domain/model.py:2: LY001 app.domain.model imports app.infra (Y)"
    )


def test_an_old_import_moved_to_another_line_stays_old(project: Path) -> None:
    (project / "src/app/domain/model.py").write_text(
        '"""The model."""\n\nimport os\n\nfrom app.infra import X\n'
    )
    run = _run(project, "--since", "HEAD", "--new-only")
    assert "src/app/domain/model.py:5: LY001" in run.stdout  # today's line in the report
    assert _since(run.stdout)[0].endswith(": 0 new, 0 fixed")
    assert run.returncode == 0, run.stdout


def test_a_removed_import_is_fixed(project: Path) -> None:
    (project / "src/app/domain/model.py").write_text("")
    run = _run(project, "--since", "HEAD", "--new-only")
    assert run.returncode == 0, run.stdout
    assert _since(run.stdout)[0].endswith(": 0 new, 1 fixed")
    assert "BROKEN" not in run.stdout


def test_a_commit_of_the_history_is_compared_too(project: Path) -> None:
    (project / "src/app/domain/model.py").write_text("")
    _git(project, "commit", "-q", "-am", "fixed")
    (project / "src/app/domain/service.py").write_text("from app.infra import Y\n")
    since = _since(_run(project, "--since", "HEAD~1").stdout)
    assert since[0].startswith("since HEAD~1 (") and since[0].endswith(": 1 new, 1 fixed")
    assert since[2].endswith("app.domain.service imports app.infra (Y)")


def test_an_added_allowance_shows_in_the_debt_line(project: Path) -> None:
    (project / "src/app/domain/service.py").write_text("from app.infra import Y\n")
    config = project / "contracts.toml"
    config.write_text(config.read_text() + 'allow = ["app.domain.service -> app.infra"]\n')
    run = _run(project, "--since", "HEAD", "--new-only")
    assert run.returncode == 0, run.stdout  # the new import is allowed: no new finding
    since = _since(run.stdout)
    assert since[0].endswith(": 0 new, 0 fixed")
    assert since[2:] == ["  debt [domain-no-infra] 1 allowance added (in use: 0 at HEAD, 1 now)"]


def test_removed_allowances_show_in_the_debt_line(tmp_path: Path) -> None:
    allowed = (
        FORBIDDEN
        + 'allow = ["app.domain.model -> app.infra", "app.domain.service -> app.infra"]\n'
    )
    root = tmp_path / "project"
    root.mkdir()
    _repo(root, allowed, {"src/app/domain/service.py": "from app.infra import Y\n"})
    (root / "src/app/domain/model.py").write_text("")
    (root / "src/app/domain/service.py").write_text("")
    (root / "contracts.toml").write_text(HEADER + FORBIDDEN)
    run = _run(root, "--since", "HEAD")
    assert run.returncode == 0, run.stdout
    since = _since(run.stdout)
    assert since[0].endswith(": 0 new, 0 fixed")  # allowed imports are no findings
    assert since[2:] == [
        "  debt [domain-no-infra] 2 allowances removed (in use: 2 at HEAD, 0 now)"
    ]


def test_an_allowance_gone_stale_since_ref_is_new(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    _repo(root, FORBIDDEN + 'allow = ["app.domain.model -> app.infra"]\n')
    (root / "src/app/domain/model.py").write_text("")
    run = _run(root, "--since", "HEAD", "--new-only")
    assert run.returncode == 1, run.stdout  # a stale allowance fails the run, and is new
    since = _since(run.stdout)
    assert since[0].endswith(": 1 new, 0 fixed")
    assert "LY030" in since[2]
    assert since[3] == "  debt [domain-no-infra] in use: 1 at HEAD, 0 now"


def test_a_ref_without_the_configuration_is_checked_with_todays(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    _repo(root)
    _git(root, "rm", "-q", "--cached", "contracts.toml")
    _git(root, "commit", "-q", "-m", "no configuration yet")
    (root / "src/app/domain/service.py").write_text("from app.infra import Y\n")
    since = _since(_run(root, "--since", "HEAD").stdout)
    assert since[1] == "  HEAD has no configuration at contracts.toml: it is checked with today's"
    assert since[0].endswith(": 1 new, 0 fixed")


def test_layers_findings_of_the_cut_are_matched_warm_and_cold(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    _repo(root, LAYERS, {"src/app/infra.py": "from app import ui\n"})
    (root / "src/app/domain/service.py").write_text("from app import ui\n")
    first = _run(root, "--since", "HEAD")
    assert first.returncode == 1, first.stdout + first.stderr
    since = _since(first.stdout)
    assert since[0].endswith(": 1 new, 0 fixed")
    assert since[2].endswith(
        "src/app/domain/service.py:1: LY011 app.domain.service imports app.ui"
    )
    assert (root / ".layering_cache" / "since").is_dir()
    warm = _run(root, "--since", "HEAD")
    cold = _run(root, "--since", "HEAD", "--no-cache")
    assert warm.stdout == first.stdout == cold.stdout
    assert warm.stderr == first.stderr == cold.stderr == ""


def test_json_has_a_since_object_and_the_exit_code_of_new_only(project: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    (project / "src/app/domain/service.py").write_text("from app.infra import Y\n")
    run = _run(project, "--since", "HEAD", "--new-only", "--format", "json")
    assert run.returncode == 1
    document = json.loads(run.stdout)
    schema = json.loads((Path(__file__).parents[2] / "layering/schema/report-v2.json").read_text())
    jsonschema.validate(document, schema)
    since = document["since"]
    assert since["ref"] == "HEAD" and len(since["commit"]) == 40
    assert [(n["contract"], n["path"], n["line"], n["names"]) for n in since["new"]] == [
        ("domain-no-infra", "src/app/domain/service.py", 1, ["Y"])
    ]
    assert since["fixed"] == 0 and since["debt"] == []
    (project / "src/app/domain/service.py").write_text("")
    old_only = _run(project, "--since", "HEAD", "--new-only", "--format", "json")
    assert old_only.returncode == 0 and json.loads(old_only.stdout)["exit_code"] == 0


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ("--since", "no-such-branch"),
            "argument --since: 'no-such-branch' names no commit of the git repository",
        ),
        (("--since", "--all"), "argument --since: expected one argument"),
        (("--new-only",), "--new-only needs --since REF"),
    ],
)
def test_a_revision_that_names_nothing_is_one_line(project: Path, args, said) -> None:
    run = _run(project, *args)
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.count("\n") == 1 and said in run.stderr, run.stderr


def test_outside_a_git_repository_is_one_line(tmp_path: Path) -> None:
    root = write_files(tmp_path / "plain", {**PACKAGE, "contracts.toml": HEADER + FORBIDDEN})
    run = _run(root, "--since", "HEAD")
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == f"layering: error: argument --since: {root} is not in a git repository\n"


def test_the_checkout_index_and_temporary_files_are_left_as_they_were(project: Path) -> None:
    (project / "src/app/domain/service.py").write_text("from app.infra import Y\n")
    (project / "src/app/ui.py").write_text("from app.infra import X\n")
    _git(project, "add", "src/app/ui.py")  # staged, beside an unstaged edit
    before = (
        _git(project, "status", "--porcelain"),
        _git(project, "diff"),
        _git(project, "diff", "--cached"),
    )
    run = _run(project, "--since", "HEAD")
    assert run.returncode == 1
    after = (
        _git(project, "status", "--porcelain"),
        _git(project, "diff"),
        _git(project, "diff", "--cached"),
    )
    assert after == before
    assert (
        _git(project, "stash", "list") == "" and _git(project, "worktree", "list").count("\n") == 1
    )
    assert list((project.parent / "tmp").iterdir()) == []


@pytest.mark.parametrize("format", ["github", "sarif"])
def test_github_and_sarif_exit_as_new_only_says(project: Path, format: str) -> None:
    old_only = _run(project, "--since", "HEAD", "--new-only", "--format", format)
    assert old_only.returncode == 0, old_only.stdout + old_only.stderr
    assert "app.domain.model imports app.infra" in old_only.stdout  # reported, not failing
    (project / "src/app/domain/service.py").write_text("from app.infra import Y\n")
    assert _run(project, "--since", "HEAD", "--new-only", "--format", format).returncode == 1


def test_namespace_packages_of_ref_are_read_as_they_are(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    plugins = {
        "src/app/domain/plugins/basic.py": "from app.infra import X\n",
        "src/app/domain/plugins/README.txt": "Plugins.\n",
        "src/app/domain/data/names.json": "[]\n",
    }
    _repo(root, FORBIDDEN, plugins)
    (root / "src/app/domain/plugins/extra.py").write_text("from app.infra import Y\n")
    since = _since(_run(root, "--since", "HEAD").stdout)
    assert since[0].endswith(": 1 new, 0 fixed")
    assert since[2].endswith(
        "src/app/domain/plugins/extra.py:1: LY001 app.domain.plugins.extra imports app.infra (Y)"
    )


def test_a_configuration_of_ref_that_cannot_be_used_is_one_line(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    _repo(root, FORBIDDEN + 'no_such_option = "x"\n')
    (root / "contracts.toml").write_text(HEADER + FORBIDDEN)
    run = _run(root, "--since", "HEAD")
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1, run.stderr
    assert run.stderr.startswith(
        "layering: error: argument --since: the tree of HEAD cannot be checked: contracts.toml:11 "
        "there: "
    ), run.stderr


def test_probes_import_refs_code_with_its_data_files(tmp_path: Path) -> None:
    probe = """
[[contracts]]
id = "model-loads-no-infra"
name = "Importing the model loads no infra"
type = "probe"
modules = ["app.domain.model"]
forbidden = ["app.infra"]
"""
    reads_data = (
        "import os\n\n"
        "with open(os.path.join(os.path.dirname(__file__), 'names.txt')) as f:\n"
        "    NAMES = f.read()\n"
    )
    root = tmp_path / "project"
    root.mkdir()
    files = {"src/app/domain/__init__.py": reads_data, "src/app/domain/names.txt": "a\n"}
    _repo(root, probe, files)
    run = _run(root, "--since", "HEAD", "--new-only")
    assert run.returncode == 0, run.stdout + run.stderr  # loaded at REF as today: old
    assert _since(run.stdout)[0].endswith(": 0 new, 0 fixed")
    (root / "src/app/domain/model.py").write_text("")
    fixed = _run(root, "--since", "HEAD")
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert _since(fixed.stdout)[0].endswith(": 0 new, 1 fixed")


def test_a_contract_new_since_ref_has_only_new_findings(project: Path) -> None:
    config = project / "contracts.toml"
    config.write_text(
        config.read_text()
        + FORBIDDEN.replace("domain-no-infra", "ui-no-infra").replace("app.domain", "app.ui")
        + LAYERS
    )
    (project / "src/app/ui.py").write_text("from app.infra import X\n")
    run = _run(project, "--since", "HEAD", "--contract", "ui-no-infra", "--new-only")
    assert run.returncode == 1, run.stdout + run.stderr
    since = _since(run.stdout)
    assert since[0].endswith(": 1 new, 0 fixed")
    assert since[2:] == [
        "  new [ui-no-infra] src/app/ui.py:1: LY001 app.ui imports app.infra (X)"
    ]  # a new contract without allowances has no debt to report
    both = _since(_run(project, "--since", "HEAD").stdout)
    assert both[0].endswith(": 1 new, 0 fixed") and len(both) == 3  # layers: kept, nothing


def test_since_with_verify_cache_is_a_usage_error(project: Path) -> None:
    run = _run(project, "--since", "HEAD", "--verify-cache")
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == "layering: error: --since and --verify-cache: run each on its own\n"


def test_a_probe_interpreter_beside_the_configuration_is_todays_at_ref(tmp_path: Path) -> None:
    probe = """
[[contracts]]
id = "model-loads-no-infra"
name = "Importing the model loads no infra"
type = "probe"
modules = ["app.domain.model"]
forbidden = ["app.infra"]
python = "env/bin/python"
"""
    root = tmp_path / "project"
    root.mkdir()
    _repo(root, probe, {".gitignore": "env/\n"})  # the environment is not committed
    (root / "env/bin").mkdir(parents=True)
    (root / "env/bin/python").symlink_to(sys.executable)
    run = _run(root, "--since", "HEAD", "--new-only")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "python: env/bin/python" in run.stdout
    assert _since(run.stdout)[0].endswith(": 0 new, 0 fixed")


def test_a_source_root_outside_the_repository_is_one_line(tmp_path: Path) -> None:
    root = tmp_path / "project"
    write_files(tmp_path / "outside", {k.replace("src/", ""): v for k, v in PACKAGE.items()})
    write_files(root, {"contracts.toml": HEADER.replace('"src"', '"../outside"') + FORBIDDEN})
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "first")
    run = _run(root, "--since", "HEAD")
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == (
        "layering: error: argument --since: the source root '../outside' of contracts.toml lies "
        "outside the git repository: its files at HEAD cannot be read\n"
    )


def test_a_configuration_in_a_directory_of_the_repository(tmp_path: Path) -> None:
    repo = tmp_path / "project"
    service = repo / "services" / "api"
    service.mkdir(parents=True)
    write_files(service, {**PACKAGE, "contracts.toml": HEADER + FORBIDDEN})
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "first")
    (service / "src/app/domain/service.py").write_text("from app.infra import Y\n")
    run = _run(service, "--since", "HEAD")
    since = _since(run.stdout)
    assert since[1] == "  HEAD is checked with its own services/api/contracts.toml"
    assert since[0].endswith(": 1 new, 0 fixed")
    assert since[2].endswith(
        "src/app/domain/service.py:1: LY001 app.domain.service imports app.infra (Y)"
    )


def test_a_pyproject_without_the_table_at_ref_is_checked_with_todays(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    write_files(root, {**PACKAGE, "pyproject.toml": '[project]\nname = "app"\n'})
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "first")
    table = HEADER + FORBIDDEN.replace("[[contracts]]", "[[tool.layering.contracts]]")
    (root / "pyproject.toml").write_text('[project]\nname = "app"\n\n[tool.layering]\n' + table)
    run = _run(root, "--since", "HEAD")
    assert run.returncode == 1, run.stdout + run.stderr
    since = _since(run.stdout)
    assert since[1] == "  HEAD has no configuration at pyproject.toml: it is checked with today's"
    assert since[0].endswith(": 0 new, 0 fixed")


def test_github_annotates_old_findings_as_warnings_under_new_only(project: Path) -> None:
    (project / "src/app/domain/service.py").write_text("from app.infra import Y\n")
    lines = _run(
        project, "--since", "HEAD", "--new-only", "--format", "github"
    ).stdout.splitlines()
    assert [line.split(" ")[0] for line in lines if line.startswith("::")] == [
        "::warning",  # as old as HEAD: reported, does not fail the run
        "::error",
        "::notice",
    ]
    assert (
        "file=src/app/domain/model.py" in lines[0] and "file=src/app/domain/service.py" in lines[1]
    )
    assert lines[2].startswith("::notice title=layering%3A since HEAD::1 new, 0 fixed; ")
    every = _run(project, "--since", "HEAD", "--format", "github").stdout.splitlines()
    assert [line.split(" ")[0] for line in every if line.startswith("::")] == [
        "::error",  # without --new-only every finding fails the run, as without --since
        "::error",
        "::notice",
    ]


def test_without_git_is_one_line(project: Path, tmp_path: Path) -> None:
    run = _run(project, "--since", "HEAD", path=str(tmp_path / "nothing-here"))
    assert run.returncode == 2 and run.stdout == ""
    assert (
        run.stderr
        == "layering: error: argument --since: git is not installed (no 'git' on PATH)\n"
    )


def test_two_runs_at_once_wait_for_each_other(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    _repo(root, LAYERS, {"src/app/infra.py": "from app import ui\n"})
    (root / "src/app/domain/service.py").write_text("from app import ui\n")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TMPDIR")}
    env["TMPDIR"] = str(tmp)
    command = [sys.executable, "-m", "layering", "check", "--since", "HEAD"]
    runs = [
        subprocess.Popen(
            command, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [1, 1], outputs
    assert outputs[0] == outputs[1]
    assert _since(outputs[0][0])[0].endswith(": 1 new, 0 fixed")
    assert list(tmp.iterdir()) == []
