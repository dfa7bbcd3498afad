"""The pre-commit hook, run by the real `pre-commit try-repo` on a throwaway git repository.

The hook repository is a committed copy of this working tree's package files (pyproject.toml,
README.md, .pre-commit-hooks.yaml, layering/), found from this file's path: `try-repo` on the
work tree itself would leave out files not yet committed. pre-commit builds the hook's
environment with pip (from PyPI), about 15-40 s a run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from frontdoors_support import BROKEN, KEPT, REPO, write_project

pytestmark = pytest.mark.slow

GIT_ENV = {
    "GIT_AUTHOR_NAME": "layering tests",
    "GIT_AUTHOR_EMAIL": "tests@layering.invalid",
    "GIT_COMMITTER_NAME": "layering tests",
    "GIT_COMMITTER_EMAIL": "tests@layering.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env={**os.environ, **GIT_ENV}, timeout=60)


def _hook_repo(root: Path) -> Path:
    for name in ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml"):
        if (REPO / name).exists():
            root.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, root / name)
    shutil.copytree(REPO / "layering", root / "layering", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "hook repository")
    return root


@pytest.mark.parametrize(("files", "exit_code"), [(KEPT, 0), (BROKEN, 1)], ids=["kept", "broken"])
def test_pre_commit_try_repo(tmp_path: Path, files: dict[str, str], exit_code: int) -> None:
    assert (REPO / ".pre-commit-hooks.yaml").exists()
    hooks = _hook_repo(tmp_path / "hooks")
    project = write_project(tmp_path / "project", files)
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    environment = {**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    environment.pop("NO_COLOR", None)
    run = subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(hooks), "layering", "--all-files", "--color", "never"],
        cwd=project,
        capture_output=True,
        text=True,
        env=environment,
        timeout=600,
    )
    output = run.stdout + run.stderr
    assert run.returncode == exit_code, output
    if exit_code:
        assert "layering (import-layering contracts)" in output and "Failed" in output
        assert "src/app/b.py:2: LY003 app.b imports app.sub.x" in output
    else:
        assert "Passed" in output
