"""Shared pieces of the reliability tests (a module of its own: `conftest` is a name every test
directory has): a small package, contract snippets, a check
that a run ended the way a person can act on (a located message, an exit code, no traceback),
and runs of the CLI for which file permissions bind, also when the tests run as root."""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/a.py": "from app import b\n",
    "src/app/b.py": "import json\n",
    "src/app/c.py": "import app.a\n",
}

HEADER = """\
root_packages = ["app"]
source_roots = ["src"]
"""

BASE_ENV = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "PYTHONPATH")}
"""The environment of a CLI run, as a user's shell would give it (no NO_COLOR, no PYTHONPATH)."""


def forbidden(
    source: str, target: str, *, indirect: bool = False, id: str = "f", extra: str = ""
) -> str:
    """A forbidden contract: direct imports only when `indirect` is true (no graph needed)."""
    return f"""
[[contracts]]
id = "{id}"
type = "forbidden"
source_modules = ["{source}"]
forbidden_modules = ["{target}"]
allow_indirect_imports = {"true" if indirect else "false"}
{extra}"""


class Outcome:
    """A finished `layering check`: its exit code and output, checked for tracebacks on
    creation."""

    def __init__(self, result, codes: tuple[int, ...] = (0, 1, 2)) -> None:
        self.code = result.returncode
        self.out = result.stdout
        self.err = result.stderr
        for text in (self.out, self.err):
            assert "Traceback" not in text, text
            assert "Segmentation fault" not in text, text
        assert self.code in codes, (self.code, self.out, self.err)

    @property
    def both(self) -> str:
        return self.out + self.err

    def __repr__(self) -> str:  # shown by pytest when an assertion fails
        return f"Outcome(code={self.code}, out={self.out!r}, err={self.err!r})"


# --------------------------------------------------------------------------- permissions that bind

NOBODY = 65534
"""The user id of `nobody` (and the group id of `nogroup`) on Linux distributions."""

CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH = 1, 2
PR_CAPBSET_DROP = 24


class UnprivilegedProject:
    """A project directory, and `layering check` run there by a user whose file permissions bind:
    the user running the tests when that is not root; else `nobody` (the directory is theirs);
    else root without the capabilities that bypass file permissions, where `nobody` cannot run
    this interpreter (one installed in root's home)."""

    def __init__(self, root: Path, options: dict) -> None:
        self.root = root
        self.options = options

    def write(self, files: dict[str, str]) -> None:
        for name, text in files.items():
            path = self.root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        _give(self.root, self.options)

    def check(self, *args: str) -> Outcome:
        return Outcome(
            subprocess.run(
                [sys.executable, "-m", "layering", "check", *args],
                cwd=self.root,
                env=BASE_ENV,
                capture_output=True,
                text=True,
                timeout=120,
                **self.options,
            )
        )


@contextlib.contextmanager
def unprivileged_project() -> Iterator[UnprivilegedProject]:
    """An UnprivilegedProject in a new directory that every user can reach (pytest's tmp_path
    lies below directories only its owner may enter), removed afterwards whatever its modes;
    the test is skipped, saying why, where no such run can be made."""
    options = _unprivileged_options()
    if isinstance(options, str):
        pytest.skip(options)
    root = Path(tempfile.mkdtemp(prefix="layering-unprivileged-"))
    try:
        root.chmod(0o755)
        _give(root, options)
        yield UnprivilegedProject(root, options)
    finally:
        _remove(root)


def _remove(root: Path) -> None:
    """Remove `root` and all below it, whatever their modes."""
    for path in [root, *root.rglob("*")]:
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o700)
    shutil.rmtree(root)


def _give(root: Path, options: dict) -> None:
    """Make the files below `root` belong to the user the runs are made as, as a checkout would."""
    if "user" in options:
        for path in [root, *root.rglob("*")]:
            os.chown(path, options["user"], options["group"], follow_symlinks=False)


@functools.cache
def _unprivileged_options() -> dict | str:
    """The subprocess options of a run for which file permissions bind, each way tried for real
    (a file of mode 000 cannot be read, a directory without write permission cannot be written,
    and layering imports); or why there is none, to skip with."""
    if os.geteuid() != 0:
        ways = {"as this user": {}}
    else:
        ways = {"as nobody": {"user": NOBODY, "group": NOBODY, "extra_groups": []}}
        if sys.platform.startswith("linux"):
            prctl = ctypes.CDLL(
                None, use_errno=True
            ).prctl  # looked up here, not in the forked child
            capabilities = functools.partial(_drop_file_capabilities, prctl)
            ways["as root without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH"] = {
                "preexec_fn": capabilities
            }
    failures = []
    for name, options in ways.items():
        failure = _fails_to_bind(options)
        if failure is None:
            return options
        failures.append(f"{name}: {failure}")
    return "no run here for which file permissions bind (" + "; ".join(failures) + ")"


def _fails_to_bind(options: dict) -> str | None:
    """Why a run with `options` is not one for which permissions bind, or None when it is."""
    try_it = (
        "import sys\n"
        "import layering\n"
        "for attempt in (lambda: open(sys.argv[1]), lambda: open(sys.argv[2] + '/new', 'w')):\n"
        "    try:\n"
        "        attempt()\n"
        "    except PermissionError:\n"
        "        continue\n"
        "    sys.exit('permissions do not bind')\n"
    )
    top = Path(tempfile.mkdtemp(prefix="layering-permissions-"))
    try:
        top.chmod(0o755)
        unreadable, unwritable = top / "unreadable.py", top / "read-only"
        unreadable.write_text("")
        unwritable.mkdir()
        _give(top, options)
        unreadable.chmod(0)
        unwritable.chmod(0o555)
        try:
            ran = subprocess.run(
                [sys.executable, "-c", try_it, str(unreadable), str(unwritable)],
                cwd=top,
                capture_output=True,
                text=True,
                timeout=60,
                **options,
            )
        except OSError as error:
            return f"cannot run {sys.executable} ({error.strerror})"
        if ran.returncode != 0:
            said = (ran.stderr.strip().splitlines() or ["no output"])[-1]
            return f"{sys.executable} exited with {ran.returncode}: {said}"
        return None
    finally:
        _remove(top)


def _drop_file_capabilities(prctl) -> None:
    """In the child, before it runs the interpreter: take CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH
    out of its bounding set, so that root, once it runs the interpreter, has neither
    (`prctl(2)`)."""
    for capability in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
        if prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            error = ctypes.get_errno()
            raise OSError(error, os.strerror(error))
