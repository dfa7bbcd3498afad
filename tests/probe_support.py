"""Helpers of the probe tests: other Python interpreters, and virtual environments made in a test.

A module of its own (not conftest) so that the adapter, engine and front-door tests can all say
`from probe_support import ...`.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import textwrap
from functools import cache
from pathlib import Path

OTHER_VERSIONS = ("3.10", "3.12", "3.13")


def _real_executable(command: str) -> str | None:
    """The interpreter `command` starts (through a pyenv shim, say), if it runs at all."""
    try:
        answer = subprocess.run(
            [command, "-c", "import sys; print(sys.executable)"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    path = answer.stdout.strip()
    return path if answer.returncode == 0 and os.path.isfile(path) else None


@cache
def other_pythons() -> dict[str, str]:
    """Version -> executable of the Pythons 3.10, 3.12 and 3.13 found here (on PATH or under
    pyenv)."""
    pyenv_root = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    found = {}
    for version in OTHER_VERSIONS:
        name = f"python{version}"
        candidates = [shutil.which(name)] + sorted(
            glob.glob(os.path.join(pyenv_root, "versions", f"{version}.*", "bin", name))
        )
        for candidate in filter(None, candidates):
            executable = _real_executable(candidate)
            if executable:
                found[version] = executable
                break
    return found


def site_packages(python: str | Path) -> Path:
    ask = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    return Path(
        subprocess.run(
            [str(python), "-c", ask], capture_output=True, text=True, check=True, timeout=60
        ).stdout.strip()
    )


def write_files(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return root


def make_venv(
    root: Path,
    packages: dict[str, str] | None = None,
    python: str = sys.executable,
    paths: tuple[Path, ...] = (),
) -> Path:
    """A virtual environment at `root` (no pip, no network) that also sees `packages` and `paths`.

    `packages` (file name -> text) are written to `<root>-packages` and put on the
    environment's path with a `.pth` file, as an installed package is; so is each of `paths`.
    Returns the environment's interpreter.
    """
    subprocess.run(
        [python, "-m", "venv", "--without-pip", str(root)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    interpreter = root / "bin" / "python"
    entries = [str(p) for p in paths]
    if packages:
        entries.append(str(write_files(Path(f"{root}-packages"), packages)))
    if entries:
        (site_packages(interpreter) / "probe_test_packages.pth").write_text(
            "\n".join(entries) + "\n", encoding="utf-8"
        )
    return interpreter
