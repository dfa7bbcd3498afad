"""`layering check --since REF`: REF's tree checked too, and what changed since it.

REF's tree is read from git (`git archive`) into a temporary directory, removed afterwards;
the user's checkout and index are never touched. It is checked with the configuration at the
same path in REF's tree where there is one, else with today's, and its results are kept in a
cache of their own beside today's (`<cache_dir>/since`): the tree is written to the same
place each run (one run at a time, under a lock), so a warm run reuses REF's verdicts.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, NamedTuple

from layering.adapters import git_tree
from layering.domain.errors import ConfigError, UsageError
from layering.domain.results import RunReport
from layering.domain.since import Since, compare, option_entries
from layering.engine.config import PYPROJECT_FILE, Settings, has_layering_section, load_settings

if TYPE_CHECKING:
    from layering.commands.check import ProbeSelection


SINCE_CACHE = "since"
"""The directory, within today's cache directory, of the cache of REF's runs."""


class Target(NamedTuple):
    """The revision to compare with: as given, the commit it names, the repository's top
    directory, and the configuration's path within it."""

    ref: str
    commit: str
    top: str
    config: str


def target(settings: Settings, ref: str) -> Target:
    """What `--since REF` names, found before any checking (a UsageError where it names
    nothing: no git, no repository, no such revision)."""
    try:
        top = git_tree.toplevel(settings.base_dir)
        commit = git_tree.commit_of(top, ref)
    except git_tree.GitProblem as problem:
        raise UsageError("--since", str(problem)) from None
    relative = os.path.relpath(os.path.realpath(settings.path), top)
    if relative.startswith(".."):
        raise UsageError(
            "--since",
            f"the configuration {settings.display_path(settings.path)} is outside the git "
            f"repository {top}",
        )
    return Target(ref, commit, top, relative)


def check_since(
    settings: Settings,
    since: Target,
    today: RunReport,
    contract_ids: Sequence[str],
    probes: ProbeSelection,
    use_cache: bool,
    chains: int = 0,
    python: str | None = None,
    jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Since:
    """What changed between the tree of `since` and today's, whose report is `today`; a
    UsageError (`--since`) where REF's tree cannot be had or checked."""
    from layering.commands.check import check_settings

    ref, commit, top, relative = since
    cache_dir = (
        os.path.join(settings.cache_dir, SINCE_CACHE) if use_cache and settings.cache_dir else None
    )
    with _tree_directory(cache_dir) as (tree, cache_dir):
        try:
            git_tree.export(
                top, commit, tree, kept=(relative,), everything=_imports_code(settings, probes)
            )
        except git_tree.GitProblem as problem:
            raise UsageError("--since", str(problem)) from None
        config, note = _configuration_at(ref, tree, relative, settings)
        try:
            before_settings = dataclasses.replace(load_settings(config), cache_dir=cache_dir)
            _interpreters_of_today(before_settings, settings)
            _source_roots_within(before_settings, tree, ref)
            known = _contract_keys(before_settings)
            ids = [i for i in contract_ids if i in known]
            before = (
                check_settings(
                    before_settings,
                    ids,
                    probes,
                    use_cache=cache_dir is not None,
                    jobs=jobs,
                    progress=progress,
                    chains=chains,
                    python=python,
                ).results
                if ids or not contract_ids
                else ()
            )
        except UsageError:
            raise
        except ConfigError as error:
            first = error.problems[0]
            where = os.path.relpath(first.path, tree) if first.path else relative
            line = f":{first.line}" if first.line else ""
            more = f" (and {len(error.problems) - 1} more)" if len(error.problems) > 1 else ""
            raise UsageError(
                "--since",
                f"the tree of {ref} cannot be checked: {where.replace(os.sep, '/')}{line} there: "
                f"{first.message}{more}",
            ) from None
        return compare(
            ref,
            commit,
            note,
            today.results,
            before,
            _entries(settings),
            _entries(before_settings),
        )


@contextlib.contextmanager
def _tree_directory(cache_dir: str | None) -> Iterator[tuple[str, str | None]]:
    """(the empty directory REF's tree is written to, the cache of REF's run or None), the
    directory removed afterwards, however the run ends. With a cache, the directory is the
    same each run (a cached verdict holds its paths) and a lock in the cache keeps a second run
    out until the first is done; without one (or where files cannot be locked), a new one."""
    lock = _locked(cache_dir) if cache_dir else None
    try:
        if lock is None:
            tree = tempfile.mkdtemp(prefix="layering-since-")
            cache_dir = None
        else:
            from layering.adapters.result_cache import digest_of

            assert cache_dir is not None
            tree = os.path.join(
                tempfile.gettempdir(),
                f"layering-since-{digest_of([os.path.realpath(cache_dir)])[:16]}",
            )
            shutil.rmtree(tree, ignore_errors=True)  # left by a run that was killed
            os.makedirs(tree)
        try:
            yield tree, cache_dir
        finally:
            shutil.rmtree(tree, ignore_errors=True)
    finally:
        if lock is not None:
            lock.close()  # and the lock with it


def _locked(cache_dir: str) -> IO[str] | None:
    """The cache of REF's runs, prepared and locked for this run (the open lock file), or None
    where it cannot be (the run then checks REF without a cache)."""
    from layering.adapters.cache_files import prepare

    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on Windows
        return None
    if prepare(cache_dir) is not None:
        return None
    try:
        handle = open(os.path.join(cache_dir, "lock"), "a")  # noqa: SIM115 - held for the run
    except OSError:
        return None
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
    except OSError:
        handle.close()
        return None
    return handle


def _imports_code(settings: Settings, probes: ProbeSelection) -> bool:
    """Whether the run may import the code of REF's tree (a probe contract, today's or REF's,
    that the selection keeps): its modules may read their package's data files as they are
    imported, so the whole tree is written, not its sources only."""
    from layering.commands.check import ProbeSelection
    from layering.contracts import CONTRACT_TYPES, contract_class

    if probes is ProbeSelection.STATIC:
        return False
    return any(
        spec.options.get("type") in CONTRACT_TYPES
        and contract_class(spec.options["type"]).runs_code
        for spec in settings.contracts
    )


def _configuration_at(ref: str, tree: str, relative: str, settings: Settings) -> tuple[str, str]:
    """The configuration REF's tree is checked with, and the line that says which: the file at
    the same path there, else today's (written there, in its place)."""
    shown = relative.replace(os.sep, "/")
    config = os.path.join(tree, relative)
    if os.path.isfile(config) and (
        os.path.basename(config) != PYPROJECT_FILE or _has_configuration(config, settings)
    ):
        return config, f"{ref} is checked with its own {shown}"
    os.makedirs(os.path.dirname(config), exist_ok=True)
    shutil.copyfile(settings.path, config)
    return config, f"{ref} has no configuration at {shown}: it is checked with today's"


def _has_configuration(pyproject: str, settings: Settings) -> bool:
    """Whether REF's pyproject.toml has the table today's configuration is read from."""
    if not settings.is_importlinter:
        return has_layering_section(pyproject)
    from layering.engine.config import importlinter_configuration_in

    return importlinter_configuration_in(os.path.dirname(pyproject)) == pyproject


def _interpreters_of_today(before: Settings, today: Settings) -> None:
    """A probe contract's `python` relative to the configuration names an environment beside
    it, which git does not keep (`.venv/bin/python`): at REF, the one beside today's."""
    for spec in before.contracts:
        text = spec.options.get("python")
        if (
            not isinstance(text, str)
            or os.path.isabs(text)
            or "/" not in text.replace(os.sep, "/")
        ):
            continue
        if not os.path.lexists(os.path.join(before.base_dir, text)):
            beside_today = os.path.join(today.base_dir, text)
            if os.path.lexists(beside_today):
                spec.options["python"] = os.path.abspath(beside_today)


def _source_roots_within(settings: Settings, tree: str, ref: str) -> None:
    """A source root outside REF's tree would be today's files read as REF's."""
    for root in settings.source_roots:
        if os.path.relpath(os.path.realpath(root), os.path.realpath(tree)).startswith(".."):
            raise UsageError(
                "--since",
                "the source root "
                f"'{os.path.relpath(root, settings.base_dir).replace(os.sep, '/')}' of "
                f"{os.path.basename(settings.path)} lies outside the git repository: its files at "
                f"{ref} cannot be read",
            )


def _contract_keys(settings: Settings) -> set[str]:
    return {
        value
        for spec in settings.contracts
        for value in (spec.options.get("id"), spec.options.get("name"))
        if isinstance(value, str)
    }


def _entries(settings: Settings) -> dict[str, dict[str, list[str]]]:
    """Each contract's allowance entries, by its key (its id, else its name)."""
    said = {}
    for spec in settings.contracts:
        key = spec.options.get("id") or spec.options.get("name")
        if isinstance(key, str):
            said[key] = option_entries(spec.options)
    return said
