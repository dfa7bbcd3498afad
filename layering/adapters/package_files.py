"""Find the files of the root packages on the source roots, the way Python imports them."""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

RACY_NS = 2_000_000_000
"""How recent a change a file's times may fail to show: a write within the same tick of a
coarse file-system clock (two seconds on FAT, one on ext3 and HFS+) can leave them as they were."""


@dataclass(frozen=True)
class PackageFiles:
    """The modules of the root packages, each with its source file, and where each root was found.

    A run that keeps what it reads (`stamped`) takes each file's stamp ([path, modification
    time, size, inode, change time], as `result_cache.FileState.stamp`) before it first reads
    the file (`stamp`), and keeps what it read of a file only where the file is provably still
    what that stamp says (`is_unchanged`): a file whose times are too recent (`RACY_NS`) to tell
    a later write apart is hashed then too."""

    files: dict[str, str]
    roots: dict[str, tuple[str, ...]]
    namespace_packages: frozenset[str]
    stamped: bool = False
    shadowed: dict[str, str] = field(default_factory=dict)
    """Module -> the path of a file or directory that also claims it and that Python does not
    import (`x.py` beside the package `x/`, a directory `x/` beside the module `x.py`)."""
    portions: dict[str, str] = field(default_factory=dict)
    """Namespace package -> its directory, for each directory without `__init__.py` that holds
    modules inside a regular package: Python imports them; grimp's own walk leaves them out."""
    walked_ns: int = 0
    """When the walk began (time.time_ns)."""
    stamps: dict[str, tuple[list | None, str | None]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """Module -> (its stamp before the run first read it, None where it could not be had; the
    digest then of a file too recently changed, "" where it changed while hashed, else None)."""

    @cached_property
    def modules(self) -> frozenset[str]:
        """Computed once: evidence looks modules up here for every hop of every chain."""
        return frozenset(self.files) | self.namespace_packages

    def stamp(self, module: str) -> list | None:
        """`module`'s stamp as this run first found it, taken now if it is the first time asked
        (before anything reads the file: the scanner, the source readers and the file states
        ask first); None for a run that keeps nothing, or a file that cannot be found. A file
        changed since `RACY_NS` before the walk began is hashed now too: a write after this
        could leave its stamp as it is (any later write is later than the walk)."""
        known = self.stamps.get(module)
        if known is not None:
            return known[0]
        if not self.stamped:
            return None
        path = self.files.get(module)
        if path is None:  # not a module of the walk
            self.stamps[module] = (None, None)
            return None
        try:
            status = os.stat(path)
        except OSError:
            self.stamps[module] = (None, None)
            return None
        stamp = [path, status.st_mtime_ns, status.st_size, status.st_ino, status.st_ctime_ns]
        digest = None
        if max(status.st_mtime_ns, status.st_ctime_ns) >= self.walked_ns - RACY_NS:
            from layering.adapters.result_cache import hashed_file

            digest, again = hashed_file(path)
            if again != stamp:
                digest = ""  # changing as it is looked at
        self.stamps[module] = (stamp, digest)
        return stamp

    def stamp_each(self, modules: Iterable[str]) -> None:
        """Take the stamp of each of `modules` not stamped yet, before they are read."""
        if self.stamped:
            for module in modules:
                if module not in self.stamps:
                    self.stamp(module)

    def stamps_of(self, modules: Iterable[str]) -> dict[str, tuple[list | None, str | None]]:
        """The stamps taken of `modules`, for a cache builder in another process to judge by."""
        return {m: self.stamps[m] for m in modules if m in self.stamps}

    def is_unchanged(self, module: str, stamp: list | None, digest: str) -> bool:
        """Whether `module`'s file, found at `stamp` with `digest` after the run read it, is
        still what it was before the run first read it: the same stamp, and where its times were
        too recent to tell a write apart, the same digest as hashed then."""
        before, racy_digest = self.stamps.get(module, (None, None))
        if before is None or stamp is None or before != stamp or not digest:
            return False
        return racy_digest is None or racy_digest == digest


def stamp_of(path: str, status: os.stat_result) -> list:
    """A file's stamp (`PackageFiles.stamps`) from its status."""
    return [path, status.st_mtime_ns, status.st_size, status.st_ino, status.st_ctime_ns]


class PackageNotFound(Exception):
    def __init__(self, package: str, searched: tuple[str, ...]) -> None:
        super().__init__(package)
        self.package = package
        self.searched = searched


def find_package_files(
    root_packages: tuple[str, ...], source_roots: tuple[str, ...], stamped: bool = False
) -> PackageFiles:
    """Map every module of each root package to the file Python imports it from.

    A directory without `__init__.py` is a namespace package at the root, below another such
    directory, and inside a regular package where it holds modules itself (Python imports them;
    grimp leaves them out); a namespace root package is walked in every directory it spans.
    Where a package `x/` and a module `x.py` claim one module, the package is the module, as in
    Python; a module `x.py` hides a directory `x/` without `__init__.py`. A symlinked directory
    is followed only if it leads outside the package, and no directory is walked twice, so a
    symlink loop ends (grimp's walk is made to do the same). `stamped`: for a run that keeps
    what it reads (`PackageFiles.stamp`).
    """
    walked_ns = time.time_ns()
    walk = _Walk()
    roots: dict[str, tuple[str, ...]] = {}
    for package in root_packages:
        locations = locate_root(package, source_roots)
        roots[package] = locations
        for location in locations:
            if location.endswith(".py"):
                walk.files[package] = location
            else:
                walk.package(package, location)
    return PackageFiles(
        files=walk.files,
        roots=roots,
        namespace_packages=frozenset(walk.namespaces),
        stamped=stamped,
        walked_ns=walked_ns,
        shadowed=walk.shadowed,
        portions=walk.portions,
    )


def locate_root(package: str, source_roots: tuple[str, ...]) -> tuple[str, ...]:
    """Where root package `package` is, found as the import system finds it on `source_roots`:
    its directory, its file for a one-module package, or every directory of a namespace
    package (which may span several source roots, and may sit in namespace packages itself)."""
    search = tuple(source_roots)
    parts = package.split(".")
    for depth, part in enumerate(parts):
        found = _find_on(part, search)
        if found is None or (depth < len(parts) - 1 and found[0].endswith(".py")):
            raise PackageNotFound(package, tuple(source_roots))
        search = found
    return search


def regular_parent(package: str, search: tuple[str, ...]) -> tuple[str, str] | None:
    """(name, file) of the first parent of dotted `package` that is not a namespace package
    (a regular package or a module), looked up on `search` without importing anything."""
    parts = package.split(".")
    for depth in range(1, len(parts)):
        found = _find_on(parts[depth - 1], search)
        if found is None:
            return None
        parent = ".".join(parts[:depth])
        if found[0].endswith(".py"):
            return parent, found[0]
        init = os.path.join(found[0], "__init__.py")
        if os.path.isfile(init):
            return parent, init
        search = found
    return None


def is_single_module(locations: tuple[str, ...]) -> bool:
    """Whether a root package found at `locations` is one `.py` file, not a package."""
    return len(locations) == 1 and locations[0].endswith(".py")


def _find_on(name: str, search: tuple[str, ...]) -> tuple[str, ...] | None:
    """What `name` is in the directories `search`, by the import system's rules: the first
    regular package or module wins; else every directory named `name` is a namespace portion."""
    portions = []
    for directory in search:
        candidate = os.path.join(directory, name)
        if os.path.isfile(os.path.join(candidate, "__init__.py")):
            return (candidate,)
        if os.path.isfile(candidate + ".py"):
            return (candidate + ".py",)
        if os.path.isdir(candidate):
            portions.append(candidate)
    return tuple(portions) or None


def module_file(module: str, root: str, root_locations: tuple[str, ...]) -> str | None:
    """The file of `module` below the root package found at `root_locations`, without walking
    the tree.

    None when it is not a module of the package, following the same rules as the walk: every
    package between the root and the module needs its `__init__.py`.
    """
    for location in root_locations:
        found = _module_file_in(module, root, location)
        if found is not None:
            return found
    return None


def _module_file_in(module: str, root: str, root_location: str) -> str | None:
    if root_location.endswith(".py"):
        return root_location if module == root else None
    parts = module.split(".")[len(root.split(".")) :]
    directory = root_location
    parent_is_regular = os.path.isfile(os.path.join(directory, "__init__.py"))
    if not parts:
        return os.path.join(directory, "__init__.py") if parent_is_regular else None
    for part in parts[:-1]:
        if os.path.isfile(os.path.join(directory, part + ".py")) and not os.path.isfile(
            os.path.join(directory, part, "__init__.py")
        ):
            return None  # the module `part.py` hides a directory without __init__.py
        directory = os.path.join(directory, part)
        is_regular = os.path.isfile(os.path.join(directory, "__init__.py"))
        if not is_regular and not (
            os.path.isdir(directory) and (not parent_is_regular or _holds_modules(directory))
        ):
            return None  # not a namespace package, by the walk's rules
        parent_is_regular = is_regular
    candidate = os.path.join(directory, parts[-1])
    if os.path.isfile(os.path.join(candidate, "__init__.py")):
        return os.path.join(candidate, "__init__.py")
    if os.path.isfile(candidate + ".py") and is_module_file(parts[-1] + ".py"):
        return candidate + ".py"
    return None


def _holds_modules(directory: str) -> bool:
    """Whether a directory without `__init__.py` holds modules itself: inside a regular package,
    only such a directory is walked as a namespace package (see `find_package_files`)."""
    try:
        return any(is_module_file(e.name) and _is_file(e) for e in os.scandir(directory))
    except OSError:
        return False


def subpackage_files(package: str, package_file: str) -> dict[str, str]:
    """Every module below the regular package whose `__init__.py` is `package_file`."""
    walk = _Walk()
    if os.path.basename(package_file) == "__init__.py":
        walk.package(package, os.path.dirname(package_file))
    walk.files.pop(package, None)
    return walk.files


class _Walk:
    """One walk of root packages' directories: depth first, in name order, as grimp's walk goes
    (see `grimp_graph.walk_once`)."""

    def __init__(self) -> None:
        self.files: dict[str, str] = {}
        self.namespaces: set[str] = set()
        self.shadowed: dict[str, str] = {}
        self.portions: dict[str, str] = {}

    def package(self, package: str, directory: str) -> None:
        """Walk the package (or namespace package) `package` at `directory`: a symlinked
        directory is entered only if it leads outside it, and no directory twice."""
        real_top = os.path.realpath(directory)
        seen: set[tuple[int, int]] = set()
        files = self.files
        stack: list[tuple[str, str, bool, str | None]] = [(package, directory, True, None)]
        while stack:
            name, path, may_be_namespace, module_beside = stack.pop()
            try:
                status = os.stat(path)
                entries = sorted(os.scandir(path), key=lambda e: e.name)
            except OSError:
                continue
            key = (status.st_dev, status.st_ino)
            if key in seen:
                continue
            seen.add(key)
            init = None
            modules: dict[str, str] = {}
            directories = []
            for entry in entries:
                stem = entry.name
                if stem.endswith(".py"):
                    if stem == "__init__.py":
                        if _is_file(entry):
                            init = entry.path
                    elif not stem.startswith(".") and stem.count(".") == 1 and _is_file(entry):
                        modules[stem[:-3]] = entry.path
                elif (
                    stem.isidentifier()
                    and _is_dir(entry)
                    and (not entry.is_symlink() or follow_directory(entry.path, real_top))
                ):
                    directories.append(entry)
            if init is not None:
                if module_beside is not None:
                    self.shadowed[name] = module_beside  # Python imports the package
                files[name] = init
            elif module_beside is not None:
                if modules:
                    self.shadowed[name] = path  # Python imports the module: these are out of reach
                continue
            elif may_be_namespace:
                self.namespaces.add(name)
            elif modules:
                self.namespaces.add(name)
                self.portions[name] = path
            else:
                continue
            prefix = name + "."
            for stem, module_path in modules.items():
                files[prefix + stem] = module_path
            stack.extend(
                (prefix + e.name, e.path, init is None, modules.get(e.name))
                for e in reversed(directories)
            )


def is_module_file(filename: str) -> bool:
    """Whether a file is a module, as grimp decides: `x.py`, not hidden, no other dot. Its name
    need not be an identifier (Django's `0001_initial.py` is a module all the same)."""
    return filename.endswith(".py") and not filename.startswith(".") and filename.count(".") == 1


def _is_file(entry: os.DirEntry) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def _is_dir(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def follow_directory(path: str, real_top: str) -> bool:
    """A real directory is always entered; a symlinked one only if it leads outside the package."""
    if not os.path.islink(path):
        return True
    target = os.path.realpath(path)
    return not (target == real_top or target.startswith(real_top.rstrip(os.sep) + os.sep))
