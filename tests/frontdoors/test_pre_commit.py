"""The pre-commit hooks, run by the real `pre-commit` on throwaway git repositories.

The hook repository is a committed copy of this working tree's package files (pyproject.toml,
README.md, .pre-commit-hooks.yaml, layering/), found from this file's path: `try-repo` on the
work tree itself would leave out files not yet committed. The isolated hook's environment is built
with pip (from PyPI), about 10-40 s, once per set of additional dependencies: the tests share
one pre-commit store; the `language: system` hook builds none.

Probe contracts need the project's dependencies where the probes run. The tests give the
project a dependency, `tinydep`, that only the project's environment has, and check the set-ups
the README shows: `layering-system` (language: system, the project's venv on PATH), and the
isolated `layering` hook with `--python` or with `additional_dependencies`.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from frontdoors_support import BROKEN, CONTRACTS, KEPT, REPO, write_project
from probe_support import make_venv, site_packages, write_files

pytestmark = pytest.mark.slow

GIT_ENV = {
    "GIT_AUTHOR_NAME": "layering tests",
    "GIT_AUTHOR_EMAIL": "tests@layering.invalid",
    "GIT_COMMITTER_NAME": "layering tests",
    "GIT_COMMITTER_EMAIL": "tests@layering.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}

TINYDEP = {
    "tinydep/__init__.py": "from tinydep import engine\n",
    "tinydep/engine.py": "x = 1\nimport tinydep.heavy\n",
    "tinydep/heavy.py": "",
    "pyproject.toml": """
        [build-system]
        requires = ["setuptools>=61"]
        build-backend = "setuptools.build_meta"

        [project]
        name = "tinydep"
        version = "0.1"

        [tool.setuptools]
        packages = ["tinydep"]
        """,
}

PROBED = {
    "src/app/__init__.py": "",
    "src/app/uses_tinydep.py": "x = 1\nimport tinydep\n",
}

PROBE_CONTRACTS = """
root_packages = ["app"]
source_roots = ["src"]
cache_dir = false

[[contracts]]
id = "no-heavy"
name = "app never loads tinydep.heavy"
type = "probe"
modules = ["app.uses_tinydep"]
forbidden = ["tinydep.heavy"]
"""

FINDING = (
    "src/app/uses_tinydep.py:2: LY020 importing app.uses_tinydep loads tinydep.heavy\n"
    "    src/app/uses_tinydep.py:2: app.uses_tinydep -> tinydep\n"
)


def _git(cwd: Path, *args: str) -> str:
    run = subprocess.run(
        ["git", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **GIT_ENV},
        timeout=60,
    )
    return run.stdout.strip()


@pytest.fixture(scope="session")
def shared(tmp_path_factory) -> Path:
    """A directory the session's test processes share (pytest-xdist's workers each have a
    temporary directory of their own, below one of the session's)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = tmp_path_factory.getbasetemp().parent / "pre-commit-shared"
    else:
        root = tmp_path_factory.getbasetemp() / "pre-commit-shared"
    root.mkdir(exist_ok=True)
    return root


@pytest.fixture(scope="session")
def hooks(shared: Path) -> Path:
    """The hook repository, one for the session (pre-commit keys a hook's environment by the
    repository's path too), made by the first test process that asks for it."""
    root = shared / "hooks"
    with open(shared / "hooks.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # until this process has made it or seen it made
        if (root / ".git" / "made").exists():
            return root
        shutil.rmtree(root, ignore_errors=True)  # left half made by a process that failed
        root.mkdir()
        for name in ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml"):
            shutil.copy2(REPO / name, root / name)
        shutil.copytree(
            REPO / "layering",
            root / "layering",
            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
        )
        _git(root, "init", "-q")
        _git(root, "add", "-A")
        _git(root, "commit", "-q", "-m", "hook repository")
        (root / ".git" / "made").touch()
    return root


@pytest.fixture(scope="session")
def pre_commit_home(shared: Path) -> Path:
    """One pre-commit store for the session's tests, whichever test process runs them:
    pre-commit keys a hook's environment by repository, revision and additional dependencies,
    so the tests that run the same isolated hook build its environment once (with pip, 10-15 s)
    and the others build their own (pre-commit locks the store while it builds one)."""
    home = shared / "home"
    home.mkdir(exist_ok=True)
    return home


def _project(root: Path, files: dict[str, str], contracts: str, config: str = "") -> Path:
    project = write_project(root, files, contracts)
    if config:
        (project / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    return project


def _hook_config(hooks: Path, options: str = "", hook: str = "layering") -> str:
    """A .pre-commit-config.yaml that runs HOOK of the hook repository at its commit. The tests
    run hooks through one (`pre-commit run`) rather than `try-repo`, whose store lives only
    as long as the command, so that they share the isolated hook's environment."""
    return (
        f"repos:\n  - repo: {hooks}\n    rev: {_git(hooks, 'rev-parse', 'HEAD')}\n    hooks:\n    "
        f"  - id: {hook}\n{options}"
    )


def _pre_commit(
    project: Path,
    home: Path,
    *args: str,
    path_first: Path | None = None,
    files: tuple[str, ...] = (),
) -> subprocess.CompletedProcess:
    environment = {
        **os.environ,
        **GIT_ENV,
        "PRE_COMMIT_HOME": str(home),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    environment.pop("NO_COLOR", None)
    if path_first is not None:
        environment["PATH"] = f"{path_first}{os.pathsep}{environment.get('PATH', os.defpath)}"
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pre_commit",
            *args,
            *(("--files", *files) if files else ("--all-files",)),
            "--color",
            "never",
        ],
        cwd=project,
        capture_output=True,
        text=True,
        env=environment,
        timeout=600,
    )


def test_pre_commit_try_repo(tmp_path: Path, hooks: Path, pre_commit_home: Path) -> None:
    # try-repo builds the hook's environment in a store of its own (10-15 s): one run of it,
    # on a broken project; the kept one runs through the shared store
    project = _project(tmp_path / "project", BROKEN, CONTRACTS)
    run = _pre_commit(project, pre_commit_home, "try-repo", str(hooks), "layering")
    output = run.stdout + run.stderr
    assert run.returncode == 1, output
    assert "layering (import-layering contracts)" in output and "Failed" in output
    assert "src/app/b.py:2: LY003 app.b imports app.sub.x" in output


def test_the_isolated_hook_passes_a_kept_project(
    tmp_path: Path, hooks: Path, pre_commit_home: Path
) -> None:
    project = _project(tmp_path / "project", KEPT, CONTRACTS, _hook_config(hooks))
    run = _pre_commit(project, pre_commit_home, "run")
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert "layering (import-layering contracts)" in output and "Passed" in output


def test_the_isolated_hook_says_where_a_probe_dependency_is_missing(
    tmp_path: Path, hooks: Path, pre_commit_home: Path
) -> None:
    project = _project(tmp_path / "project", PROBED, PROBE_CONTRACTS, _hook_config(hooks))
    run = _pre_commit(project, pre_commit_home, "run")
    output = run.stdout + run.stderr
    assert run.returncode == 1 and "- exit code: 2" in output, (
        output
    )  # pre-commit exits 1 for any failed hook
    assert (
        "LY021 importing app.uses_tinydep failed: 'tinydep' is not installed in the interpreter "
        "probes run in (" in output
    )
    assert (
        "): install it there, point python = (or --python) at the project's environment, or add "
        "it to stub" in output
    )


def test_system_hook_runs_probes_in_the_project_venv_on_path(
    tmp_path: Path, hooks: Path, pre_commit_home: Path
) -> None:
    venv_python = make_venv(
        tmp_path / "venv",
        {k: v for k, v in TINYDEP.items() if k.startswith("tinydep/")},
        paths=(REPO, site_packages(sys.executable)),
    )
    launcher = venv_python.parent / "layering"  # what `pip install layering` puts in the venv
    launcher.write_text(
        f"#!{venv_python}\nfrom layering.cli import run\nrun()\n", encoding="utf-8"
    )
    launcher.chmod(0o755)
    project = _project(tmp_path / "project", PROBED, PROBE_CONTRACTS)
    run = _pre_commit(
        project,
        pre_commit_home,
        "try-repo",
        str(hooks),
        "layering-system",
        path_first=venv_python.parent,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 1, output
    assert (
        "layering (import-layering contracts, project environment)" in output
        and "Failed" in output
    )
    assert FINDING in output


IMPORTLINTER_ONLY = """
[importlinter]
root_package = app

[importlinter:contract:no-sub]
name = a does not import sub
type = forbidden
source_modules = app.a
forbidden_modules = app.sub
"""


@pytest.mark.parametrize("hook", ["layering", "layering-system"])
@pytest.mark.parametrize("config_name", [".importlinter", "setup.cfg"])
def test_both_hooks_run_when_only_the_import_linter_configuration_changes(
    tmp_path: Path, hooks: Path, pre_commit_home: Path, hook: str, config_name: str
) -> None:
    project = write_project(
        tmp_path / "project",
        {"app/__init__.py": "", "app/a.py": "from app import sub\n", "app/sub.py": ""},
        IMPORTLINTER_ONLY,
        name=config_name,
    )
    (project / ".pre-commit-config.yaml").write_text(_hook_config(hooks, hook=hook))
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    run = _pre_commit(
        project,
        pre_commit_home,
        "run",
        path_first=Path(sys.executable).parent,
        files=(config_name,),
    )
    output = run.stdout + run.stderr
    assert run.returncode == 1 and "Failed" in output, output
    assert "app/a.py:1: LY001 app.a imports app.sub" in output


def test_isolated_hook_with_python_runs_probes_in_the_project_venv(
    tmp_path: Path, hooks: Path, pre_commit_home: Path
) -> None:
    make_venv(
        tmp_path / "project" / ".venv",
        {k: v for k, v in TINYDEP.items() if k.startswith("tinydep/")},
    )
    config = _hook_config(hooks, "        args: [--python, .venv/bin/python]\n")
    project = _project(tmp_path / "project", PROBED, PROBE_CONTRACTS, config)
    run = _pre_commit(project, pre_commit_home, "run")
    output = run.stdout + run.stderr
    assert run.returncode == 1, output
    assert "  python: .venv/bin/python\n" in output
    assert FINDING in output


def test_isolated_hook_with_additional_dependencies_runs_probes_in_its_own_environment(
    tmp_path: Path, hooks: Path, pre_commit_home: Path
) -> None:
    dependency = write_files(tmp_path / "tinydep", TINYDEP)
    config = _hook_config(hooks, f"        additional_dependencies: ['{dependency}']\n")
    project = _project(tmp_path / "project", PROBED, PROBE_CONTRACTS, config)
    run = _pre_commit(project, pre_commit_home, "run")
    output = run.stdout + run.stderr
    assert run.returncode == 1, output
    assert FINDING in output
