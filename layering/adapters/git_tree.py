"""A git revision's tree, read from git into a directory of its own (`check --since REF`).

Only `git rev-parse` and `git archive` are run: they read the repository and write nothing to
it, so the user's checkout, index and stashes are never touched.
"""

from __future__ import annotations

import os
import subprocess
import tarfile


class GitProblem(Exception):
    """Why a revision's tree cannot be had: said in one line."""


def _git(directory: str, *arguments: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(
            ["git", *arguments],
            cwd=directory,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            check=False,
        )
    except FileNotFoundError:
        raise GitProblem("git is not installed (no 'git' on PATH)") from None
    except OSError as error:
        raise GitProblem(f"cannot run git ({error.strerror or error})") from None


def _said(completed: subprocess.CompletedProcess[bytes]) -> str:
    """git's own message, its first line."""
    text = completed.stderr.decode(errors="replace").strip()
    return text.splitlines()[0] if text else f"git exited {completed.returncode}"


def toplevel(directory: str) -> str:
    """The top directory of the git work tree that holds `directory`."""
    completed = _git(directory, "rev-parse", "--show-toplevel")
    if completed.returncode != 0:
        said = _said(completed)
        if "not a git repository" in said:
            raise GitProblem(f"{directory} is not in a git repository")
        raise GitProblem(f"cannot find the git repository of {directory} ({said})")
    return os.path.realpath(completed.stdout.decode().strip())


def commit_of(top: str, ref: str) -> str:
    """The commit `ref` names in the repository at `top` (a branch, a tag, a hash, HEAD~2)."""
    if ref.startswith("-"):
        raise GitProblem(f"{ref!r} is not a revision")
    completed = _git(
        top, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"
    )
    if completed.returncode != 0:
        raise GitProblem(f"{ref!r} names no commit of the git repository {top}")
    return completed.stdout.decode().strip()


def export(top: str, commit: str, into: str) -> None:
    """Write the tree of `commit` into the (empty) directory `into`, as `git archive` gives it."""
    try:
        process = subprocess.Popen(
            ["git", "archive", "--format=tar", commit],
            cwd=top,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    except FileNotFoundError:
        raise GitProblem("git is not installed (no 'git' on PATH)") from None
    assert process.stdout is not None and process.stderr is not None
    try:
        with tarfile.open(fileobj=process.stdout, mode="r|") as archive:
            if hasattr(tarfile, "data_filter"):
                archive.extractall(into, filter="data")
            else:  # pragma: no cover - Pythons before the filters (git writes plain members)
                archive.extractall(into)
    except (tarfile.TarError, OSError) as error:
        process.kill()
        process.wait()
        detail = process.stderr.read().decode(errors="replace").strip()
        raise GitProblem(
            f"cannot read the tree of {commit[:12]} ({detail.splitlines()[0] if detail else error})"
        ) from None
    finally:
        process.stdout.close()
    error_text = process.stderr.read().decode(errors="replace").strip()
    process.stderr.close()
    if process.wait() != 0:
        raise GitProblem(
            f"cannot read the tree of {commit[:12]} ({error_text.splitlines()[0] if error_text else 'git archive failed'})"
        )
