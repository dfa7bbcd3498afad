"""Which of a package's files git ignores (`respect_gitignore = true`), asked of git itself:
`.gitignore` files at every level, `.git/info/exclude` and the user's excludes file, as
`git status` applies them. A tracked file is never ignored, as for git."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping

GIT_TIMEOUT = 60.0


class NotInGit(Exception):
    """No answer from git for this directory: why, in words for a warning."""


def ignored_modules(base_dir: str, files: Mapping[str, str]) -> frozenset[str]:
    """The modules of `files` (module -> path) whose file git ignores, asked in `base_dir`."""
    if not files:
        return frozenset()
    paths = {os.path.abspath(path): module for module, path in files.items()}
    try:
        answer = subprocess.run(
            ["git", "-C", base_dir, "check-ignore", "-z", "--stdin"],
            input=b"".join(path.encode("utf-8", "surrogateescape") + b"\0" for path in paths),
            capture_output=True,
            timeout=GIT_TIMEOUT,
            env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"},
        )
    except FileNotFoundError:
        raise NotInGit("git is not installed here") from None
    except subprocess.TimeoutExpired:
        raise NotInGit(f"git did not answer within {GIT_TIMEOUT:g} s") from None
    if answer.returncode not in (0, 1):  # 1: none of them is ignored
        said = answer.stderr.decode("utf-8", "replace").strip().splitlines()
        raise NotInGit(said[0] if said else f"git check-ignore exited with {answer.returncode}")
    named = answer.stdout.decode("utf-8", "surrogateescape").split("\0")
    return frozenset(paths[os.path.abspath(path)] for path in named if path)
