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


SOURCE_SUFFIXES = (".py", ".pyi")


def export(
    top: str, commit: str, into: str, kept: tuple[str, ...] = (), everything: bool = False
) -> None:
    """Write what a check reads of the tree of `commit` into the (empty) directory `into`: its
    Python sources, the files at the paths `kept`, and the directories the walk for modules
    could take as namespace packages. The rest is not read (django: 909 sources of 7,000 files,
    27 MB), so not asked of git, nor written; but with `everything` (code of the tree is to be
    imported, which may read its package's data files), the whole tree."""
    if everything:
        _archive(top, commit, into, [])
        return
    listing = _git(top, "ls-tree", "-r", "-t", "-z", commit)
    if listing.returncode != 0:
        raise GitProblem(f"cannot read the tree of {commit[:12]} ({_said(listing)})")
    directories, files = [], set()
    for entry in listing.stdout.decode("utf-8", errors="surrogateescape").split("\0"):
        if not entry:
            continue
        header, _, path = entry.partition("\t")
        kind = header.split(" ")[1] if header.count(" ") >= 2 else ""
        if kind == "tree":
            directories.append(path)
        elif kind == "blob":
            files.add(path)
    wanted = {path.replace(os.sep, "/") for path in kept} & files
    specs = [f"*{suffix}" for suffix in SOURCE_SUFFIXES if any(f.endswith(suffix) for f in files)]
    specs += [f":(literal){path}" for path in sorted(wanted)]
    packages = {os.path.dirname(f) for f in files if os.path.basename(f) == "__init__.py"}
    written = {os.path.dirname(f) for f in files if f.endswith(SOURCE_SUFFIXES) or f in wanted}
    if specs:
        _archive(top, commit, into, specs)
    present = {""}
    for directory in written:
        while directory not in present:
            present.add(directory)
            directory = os.path.dirname(directory)
    for directory in sorted(directories, key=lambda d: d.count("/")):  # parents first
        parent = os.path.dirname(directory)
        if directory not in present and parent in present and parent not in packages:
            os.makedirs(os.path.join(into, directory), exist_ok=True)
            present.add(directory)


def _archive(top: str, commit: str, into: str, specs: list[str]) -> None:
    """The files of `commit` that `specs` match, from `git archive`, written into `into`."""
    try:
        process = subprocess.Popen(
            ["git", "archive", "--format=tar", commit, "--", *specs],
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
            _write_members(archive, into)
    except (tarfile.TarError, OSError) as error:
        process.kill()
        process.wait()
        detail = process.stderr.read().decode(errors="replace").strip()
        process.stderr.close()
        raise GitProblem(
            f"cannot read the tree of {commit[:12]} "
            f"({detail.splitlines()[0] if detail else error})"
        ) from None
    except BaseException:  # Ctrl-C, SIGTERM: git goes with the run
        process.kill()
        process.wait()
        process.stderr.close()
        raise
    finally:
        process.stdout.close()
    error_text = process.stderr.read().decode(errors="replace").strip()
    process.stderr.close()
    if process.wait() != 0:
        raise GitProblem(
            f"cannot read the tree of {commit[:12]} "
            f"({error_text.splitlines()[0] if error_text else 'git archive failed'})"
        )


def _write_members(archive: tarfile.TarFile, into: str) -> None:
    """Each file of the archive, and each link the way the "data" filter allows it (within
    `into`); never anything outside `into`."""
    made = {into}
    for member in archive:
        parts = member.name.split("/")
        if member.name.startswith("/") or ".." in parts:
            continue  # git writes no such member
        target = os.path.join(into, *parts)
        if member.isdir():
            continue
        parent = os.path.dirname(target)
        if parent not in made:
            os.makedirs(parent, exist_ok=True)
            made.add(parent)
        if member.isfile():
            source = archive.extractfile(member)
            assert source is not None
            with open(target, "wb") as handle:
                handle.write(source.read())
        elif member.issym() and hasattr(tarfile, "data_filter"):
            try:
                archive.extract(member, into, filter="data")
            except tarfile.FilterError:
                continue  # a link out of the tree: not REF's to read
