"""Build the module graph with grimp, with the source roots on the path and errors located.

grimp is given three things it does not do by itself:

* a directory walk that follows each symlinked directory at most once and never one that
  points back into the package, so a symlink loop cannot make the walk run forever (grimp's
  own `os.walk(followlinks=True)` does); `package_files` walks the same way;
* a cache that can never stop a run: a cache directory that cannot be created or written is
  skipped, a cache file that cannot be read (garbage, truncated, not UTF-8, the wrong shape)
  is discarded and the graph rebuilt; each is said once on stderr;
* source errors located the way the rest of layering locates them: a file grimp cannot
  parse or decode is re-read with `source_facts`, so the message and line match what a
  direct-import rule reports for the same file.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sys
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from layering.adapters.package_files import (
    PackageFiles,
    follow_directory,
    regular_parent,
)
from layering.adapters.source_facts import parse_imports
from layering.domain.errors import SourceUnreadable

if TYPE_CHECKING:
    from collections.abc import Set as AbstractSet
    from typing import TypeAlias

    import grimp

    from layering.adapters.cache_builder import CacheBuilder
    from layering.adapters.grimp_scan import ModuleReading

    ImportGraph: TypeAlias = grimp.ImportGraph
    """The module graph a run builds and its graph contracts are decided on: grimp's, named
    here once for the annotations of everything that reads it."""

RUST_STACK_BYTES = 256 * 1024 * 1024


def build_graph(
    root_packages: tuple[str, ...],
    source_roots: tuple[str, ...],
    exclude_type_checking_imports: bool,
    cache_dir: str | None,
    include_external_packages: bool = False,
    files: PackageFiles | None = None,
    digests: Mapping[str, str] | CacheBuilder | None = None,
    starts: AbstractSet[str] | None = None,
    also: AbstractSet[str] = frozenset(),
    readings: dict[str, ModuleReading] | None = None,
    warnings: list[str] | None = None,
) -> ImportGraph:
    """grimp's ImportGraph of the root packages, with external packages squashed in if asked.

    With `files` (layering's walk), grimp scans those modules (all, or with `starts` only what
    they reach, plus `also`), its cache keyed by `digests`, and fills `readings` with what it
    read of each module (left empty the public way); where grimp's internals are not as
    expected, or without `files`, it builds the graph its public way, with the source roots
    first on `sys.path` so that a checkout is read from source even when another copy of the
    package is installed. What the run should say about the cache (it could not be used, it was
    damaged and rebuilt) is added to `warnings`: the front door says it.
    """
    said: list[str] = warnings if warnings is not None else []
    # grimp parses on Rust threads with 2 MiB stacks, which a long chain like `1+1+...+1`
    # (tens of thousands of terms) overflows: a segfault, not an error. Reserve more (address
    # space only); read when grimp first starts its threads, so it must be set before that.
    os.environ.setdefault("RUST_MIN_STACK", str(RUST_STACK_BYTES))
    _refuse_regular_parents(root_packages, source_roots)
    if cache_dir is not None:
        cache_dir = _usable_cache_dir(cache_dir, said)

    def build(cache: str | None) -> ImportGraph:
        if files is not None:
            from layering.adapters.grimp_scan import GrimpInternalsChanged, scan_graph

            try:
                with _grimp_reading(files, cache_dir), _cache_warnings(cache, said):
                    return scan_graph(
                        files,
                        exclude_type_checking_imports,
                        include_external_packages,
                        cache,
                        digests,
                        starts,
                        also,
                        readings,
                        lambda: _say_corrupt(cache, said),
                    )
            except GrimpInternalsChanged:
                pass
        return _build(
            root_packages,
            source_roots,
            exclude_type_checking_imports,
            include_external_packages,
            cache,
            cache_dir,
            said,
        )

    if cache_dir is None:
        return build(None)
    try:
        return build(cache_dir)
    except SourceUnreadable:
        raise
    except Exception as error:  # noqa: BLE001 - any failure with a cache is retried without it
        reason = _short(error)
    said.append(
        f"the import graph cache in {_shown(cache_dir)} could not be used ({reason}); rebuilt it"
    )
    if _discard_cache_files(cache_dir, root_packages):
        try:
            return build(cache_dir)
        except SourceUnreadable:
            raise
        except Exception:  # noqa: BLE001
            pass
    return build(None)


def readings_of_modules(
    files: PackageFiles,
    modules: set[str],
    exclude_type_checking_imports: bool,
    include_external_packages: bool,
) -> dict[str, ModuleReading] | None:
    """What grimp reads of each of `modules`, scanned alone; None where that cannot be told
    here (grimp's internals changed, or a file cannot be read: deciding the contracts again
    reports it)."""
    from layering.adapters.grimp_scan import GrimpInternalsChanged, read_modules

    os.environ.setdefault("RUST_MIN_STACK", str(RUST_STACK_BYTES))
    try:
        with _grimp_reading(files, None):
            return read_modules(
                files, modules, exclude_type_checking_imports, include_external_packages
            )
    except (GrimpInternalsChanged, SourceUnreadable, UnicodeError):
        return None


def imports_of_module(
    files: PackageFiles, module: str, exclude_type_checking_imports: bool
) -> list[tuple[str, int]] | None:
    """(imported, line) of every import grimp reads in one module's file, externals squashed;
    None where grimp's internals are not as expected (the caller then builds the graph)."""
    from layering.adapters.grimp_scan import GrimpInternalsChanged, scan_module

    os.environ.setdefault("RUST_MIN_STACK", str(RUST_STACK_BYTES))
    try:
        with _grimp_reading(files, None):
            return scan_module(files, module, exclude_type_checking_imports)
    except GrimpInternalsChanged:
        return None


def _build(
    root_packages: tuple[str, ...],
    source_roots: tuple[str, ...],
    exclude_type_checking_imports: bool,
    include_external_packages: bool,
    cache_dir: str | None,
    configured_cache: str | None,
    said: list[str],
) -> ImportGraph:
    import grimp

    saved_path = list(sys.path)
    sys.path[:0] = [root for root in source_roots if root not in sys.path[: len(source_roots)]]
    shadowing = {name: sys.modules.pop(name) for name in root_packages if name in sys.modules}
    try:
        with (
            _loop_safe_walk(),
            _cache_warnings(cache_dir, said),
            _grimp_reading(None, configured_cache),
        ):
            return grimp.build_graph(
                *root_packages,
                include_external_packages=include_external_packages,
                exclude_type_checking_imports=exclude_type_checking_imports,
                cache_dir=cache_dir,
            )
    finally:
        sys.path[:] = saved_path
        sys.modules.update(shadowing)


@contextlib.contextmanager
def _grimp_reading(files: PackageFiles | None, configured_cache: str | None) -> Iterator[None]:
    """Around each call into grimp's Rust code: Ctrl-C waits for it, and what it cannot read
    is a located error."""
    with _interrupts_held(), _located_errors(files, configured_cache):
        yield


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold SIGINT until grimp returns. grimp's Rust code builds Python objects as it goes; the
    KeyboardInterrupt one of them raises there is a Rust panic (a traceback, exit 1) instead of
    an interrupt. The signal is noted and sent again once grimp is done, to the handler there
    was (Python's raises KeyboardInterrupt then). Only the main thread handles signals; a call
    into grimp from another is left as it is."""
    import signal

    previous = signal.getsignal(signal.SIGINT)
    held: list[int] = []
    try:
        if previous is not None:  # None: a handler set outside Python, which cannot be put back
            signal.signal(signal.SIGINT, lambda number, frame: held.append(number))
    except ValueError:  # not the main thread, which is where signals are handled
        previous = None
    if previous is None:
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if held:
            signal.raise_signal(signal.SIGINT)


@contextlib.contextmanager
def _located_errors(files: PackageFiles | None, configured_cache: str | None) -> Iterator[None]:
    """A file grimp cannot read, parse or decode is a located error, worded as `source_facts`
    words it for the same file; so is a file of the walk that was deleted before grimp read it
    (grimp's Rust code panics on it: the walk and the read no longer describe one tree, and the
    run says so rather than decide on either)."""
    from grimp.exceptions import SourceSyntaxError

    try:
        yield
    except SourceSyntaxError as error:
        raise _located(
            error.filename, error.lineno or 1, f"syntax error: {(error.text or '').strip()}"
        ) from None
    except UnicodeError as error:
        path = _undecodable_file(error)
        if path is None or (
            configured_cache is not None and _is_within_dir(path, configured_cache)
        ):
            raise
        raise _located(path, 1, f"is not valid source text ({_short(error)})") from None
    except OSError as error:
        unread = _UNREAD.match(str(error))
        if unread is None or (
            configured_cache is not None and _is_within_dir(unread["path"], configured_cache)
        ):
            raise
        raise _located(unread["path"], 0, f"cannot be read ({unread['reason']})") from None
    except BaseException as error:
        deleted = _deleted_file(files) if type(error).__name__ == "PanicException" else None
        if deleted is None:
            raise
        raise SourceUnreadable(
            deleted,
            0,
            "was deleted while layering read the package (after its walk, before grimp read it)",
        ) from None


def _refuse_regular_parents(root_packages: tuple[str, ...], source_roots: tuple[str, ...]) -> None:
    """A dotted root package must lie in namespace packages only: grimp finds it with
    `importlib.util.find_spec`, which would import (run) a regular parent's `__init__.py`
    before failing. Static contracts never run the project's code, so refuse first. The
    parents are looked up the way the import system would (source roots first, then
    `sys.path`), reading directories only."""
    search = tuple(source_roots) + tuple(p for p in sys.path if p and p not in source_roots)
    for package in root_packages:
        found = regular_parent(package, search)
        if found is not None:
            parent, origin = found
            raise SourceUnreadable(
                origin,
                1,
                f"root package '{package}' lies inside the regular package '{parent}', which "
                "would "
                f"have to be imported to build the graph; name '{parent}' in root_packages"
                " instead",
            )


def _located(path: str, line: int, fallback: str) -> SourceUnreadable:
    """The error for a file grimp could not read, as `source_facts` words it for the same file."""
    try:
        parse_imports(path)
    except SourceUnreadable as unreadable:
        return unreadable
    return SourceUnreadable(path, line, fallback)


_UNDECODABLE = re.compile(r"Failed to decode file (.+?)(?: as UTF-8:| \(|$)")


def _undecodable_file(error: Exception) -> str | None:
    found = _UNDECODABLE.search(str(error))
    return found.group(1) if found else None


_UNREAD = re.compile(r"Failed to read file (?P<path>.+): (?P<reason>[^:]*) \(os error \d+\)$")
"""How grimp's Rust code says it cannot read a file (as a FileNotFoundError, whatever the
cause)."""


def _deleted_file(files: PackageFiles | None) -> str | None:
    """The first file of the walk (by module name) that no longer exists, if any."""
    if files is None:
        return None
    return next(
        (
            files.files[module]
            for module in sorted(files.files)
            if not os.path.exists(files.files[module])
        ),
        None,
    )


def _is_within_dir(path: str, directory: str) -> bool:
    path, directory = os.path.abspath(path), os.path.abspath(directory)
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def _short(error: BaseException) -> str:
    if isinstance(error, UnicodeError):
        return "a file in it is not UTF-8 text"
    text = str(error).strip().splitlines()
    first = text[0] if text else ""
    return f"{type(error).__name__}: {first}" if first else type(error).__name__


def _shown(path: str) -> str:
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


# --------------------------------------------------------------------------- the cache


def _usable_cache_dir(cache_dir: str, said: list[str]) -> str | None:
    """`cache_dir` (a directory of layering's inside the cache directory), created if need be;
    None (said once) when it cannot be created or written. A link in its place is removed, not
    followed: nothing is written outside the cache directory."""
    try:
        if os.path.islink(cache_dir):
            os.unlink(cache_dir)
        os.makedirs(cache_dir, exist_ok=True)
        if not os.path.isdir(cache_dir):
            raise NotADirectoryError(f"{cache_dir} is not a directory")
        if not os.access(cache_dir, os.W_OK | os.X_OK):
            raise PermissionError("not writable")
    except OSError as error:
        reason = error.strerror or str(error)
        said.append(
            f"cannot use the cache directory {_shown(cache_dir)} ({reason}); the import graph is "
            "built without a cache"
        )
        return None
    return cache_dir


def _discard_cache_files(cache_dir: str, root_packages: tuple[str, ...]) -> bool:
    """Remove grimp's cache files (meta and data files only) from `cache_dir`; True if all went."""
    try:
        names = os.listdir(cache_dir)
    except OSError:
        return False
    tops = {f"{root}.meta.json" for root in root_packages}
    ok = True
    for name in names:
        if name in tops or name.endswith(".data.json"):
            try:
                os.remove(os.path.join(cache_dir, name))
            except FileNotFoundError:
                pass
            except OSError:
                ok = False
    return ok


class _CorruptCacheRecorder(logging.Handler):
    """Collects grimp's warnings about cache files it could not use, instead of printing them."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextlib.contextmanager
def _cache_warnings(cache_dir: str | None, said: list[str]) -> Iterator[None]:
    logger = logging.getLogger("grimp.adaptors.caching")
    recorder = _CorruptCacheRecorder()
    saved = logger.propagate
    logger.addHandler(recorder)
    logger.propagate = False
    try:
        yield
    finally:
        logger.removeHandler(recorder)
        logger.propagate = saved
        if recorder.messages and cache_dir is not None:
            _say_corrupt(cache_dir, said)


def _say_corrupt(cache_dir: str | None, said: list[str]) -> None:
    if cache_dir is not None:
        said.append(
            f"the import graph cache in {_shown(cache_dir)} was corrupt (ignored it and rebuilt "
            "it)"
        )


# --------------------------------------------------------------------------- the walk


def walk_once(top: str) -> Iterator[tuple[str, list[str], list[str]]]:
    """`os.walk(top, followlinks=True)`, in sorted order, following a symlinked directory only
    when it points outside `top` and to a directory not walked yet (so loops end).

    Built on `os.scandir`, whose entries know their type without a `stat` per file; a broken
    symlink is no file (package_files skips it too; grimp would fail on it).
    """
    real_top = os.path.realpath(top)
    seen: set[tuple[int, int]] = set()
    stack = [top]
    while stack:
        dirpath = stack.pop()
        try:
            status = os.stat(dirpath)
            entries = list(os.scandir(dirpath))
        except OSError:
            continue
        key = (status.st_dev, status.st_ino)
        if key in seen:
            continue
        seen.add(key)
        dirnames: list[str] = []
        filenames: list[str] = []
        for entry in entries:
            try:
                if entry.is_dir():
                    if not entry.is_symlink() or follow_directory(entry.path, real_top):
                        dirnames.append(entry.name)
                elif entry.is_file():
                    filenames.append(entry.name)
            except OSError:
                continue
        dirnames.sort()
        filenames.sort()
        yield dirpath, dirnames, filenames
        stack.extend(os.path.join(dirpath, name) for name in reversed(dirnames))


@contextlib.contextmanager
def _loop_safe_walk() -> Iterator[None]:
    from grimp.application.config import settings

    try:
        original = settings.FILE_SYSTEM
    except (AttributeError, KeyError):
        yield
        return
    safe = _with_safe_walk(original)
    settings.configure(FILE_SYSTEM=safe)
    try:
        yield
    finally:
        settings.configure(FILE_SYSTEM=original)


def _with_safe_walk(original: Any) -> Any:
    cls = type(original)
    safe_cls = type(
        "LoopSafe" + cls.__name__,
        (cls,),
        {"walk": lambda self, directory_name: walk_once(directory_name)},
    )
    safe: Any = object.__new__(safe_cls)  # a copy of `original` below, without running __init__
    safe.__dict__.update(getattr(original, "__dict__", {}))
    return safe
