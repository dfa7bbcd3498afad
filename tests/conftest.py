"""Shared fixtures: small real packages written to tmp_path, and the real CLI in a process of its
own (layering_process)."""

from __future__ import annotations

import os
import subprocess
import textwrap
from pathlib import Path

import layering_process
import pytest


class Project:
    """A directory with source files and a contracts.toml, checked by the real CLI."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def write(self, files: dict[str, str]) -> Project:
        for name, text in files.items():
            path = self.root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return self

    def check(
        self, *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess:
        return self.layering("check", *args, cwd=cwd, env=env)

    def layering(
        self, *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess:
        """`python -m layering ARGS` in the project, as a user would run it (`env` added to
        the environment, which has no NO_COLOR and no PYTHONPATH)."""
        env = {
            **{k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "PYTHONPATH")},
            **(env or {}),
        }
        return layering_process.run(args, cwd=cwd or self.root, env=env, timeout=120)


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path)
