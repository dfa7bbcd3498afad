"""`python -m layering` runs none of the project's code, though `-m` puts the working directory
first on `sys.path`: a project file there named like a standard-library module is not imported
in its place, and the project's packages are still found (through the source roots)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

# Modules layering imports after the interpreter has started (typing: the package's own
# `__init__`, which runs before `__main__`; argparse: the CLI; the others: a check).
SHADOWED = (
    "typing",
    "argparse",
    "json",
    "enum",
    "dataclasses",
    "tomllib",
    "hashlib",
    "subprocess",
)

CONTRACT = """
[[contracts]]
id = "a-not-b"
name = "a does not import b"
type = "forbidden"
source_modules = ["app.a"]
forbidden_modules = ["app.b"]
"""


@pytest.mark.parametrize(
    "roots", ["", 'source_roots = ["."]\n'], ids=["default source roots", "source_roots = ['.']"]
)
def test_files_named_like_the_standard_library_in_the_working_directory_are_not_run(
    tmp_path: Path, roots: str
) -> None:
    marker = tmp_path / "ran"
    project = tmp_path / "project"
    (project / "app").mkdir(parents=True)
    (project / "app" / "__init__.py").write_text("")
    (project / "app" / "a.py").write_text("import json\nfrom app import b\n")
    (project / "app" / "b.py").write_text("")
    (project / "contracts.toml").write_text(
        'root_packages = ["app"]\ncache_dir = false\n' + roots + CONTRACT
    )
    for name in SHADOWED:
        (project / f"{name}.py").write_text(
            f"open({str(marker)!r}, 'a').write({name!r} + '\\n')\nraise RuntimeError('the "
            f"project\\'s {name}.py ran inside layering')\n"
        )
    environment = {
        k: v
        for k, v in os.environ.items()
        if k not in ("NO_COLOR", "PYTHONPATH", "PYTHONSAFEPATH")
    }
    run = subprocess.run(
        [sys.executable, "-m", "layering", "check"],
        cwd=project,
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
    )
    assert not marker.exists(), f"ran: {marker.read_text().split()}\n{run.stderr}"
    assert run.returncode == 1, run.stdout + run.stderr
    assert "app/a.py:2: LY001 app.a imports app.b" in run.stdout
    assert run.stdout.rstrip().endswith("Contracts: 0 kept, 1 broken.")
