"""Find the files of the root packages on the source roots, the way Python imports them."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from functools import cached_property

RACY_NS = 2_000_000_000
"""How recent a change a file's times may fail to show: a write within the same tick of a
coarse file-system clock (two seconds on FAT, one on ext3 and HFS+) can leave them as they were."""


@dataclass(frozen=True)
class PackageFiles:
    """The modules of the root packages, each with its source file, and where each root was found.

    `stamps`, when the walk was asked to take them, hold what each file was as the walk found
    it, before the run read any of it ([path, modification time, size, inode, change time], as
    `result_cache.FileState.stamp`); `walk_digests` the digest of each file whose times were
    too recent (`RACY_NS`) to tell a later write apart, hashed then ("" when it changed while
    hashed). What a run read of a file is kept only where the file is provably still what the
    walk found (`is_unchanged`)."""

    files: dict[str, str]
    roots: dict[str, tuple[str, ...]]
    namespace_packages: frozenset[str]
    stamps: dict[str, list] | None = None
    walked_ns: int = 0
    walk_digests: dict[str, str] = field(default_factory=dict)
    shadowed: dict[str, str] = field(default_factory=dict)
    """Module -> the path of a file or directory that also claims it and that Python does not
    import (`x.py` beside the package `x/`, a directory `x/` beside the module `x.py`)."""
    portions: dict[str, str] = field(default_factory=dict)
    """Namespace package -> its directory, for each directory without `__init__.py` that holds
    modules inside a regular package: Python imports them; grimp's own walk leaves them out."""

    @cached_property
    def modules(self) -> frozenset[str]:
        """Computed once: evidence looks modules up here for every hop of every chain."""
        return frozenset(self.files) | self.namespace_packages

    def is_unchanged(self, module: str, stamp: list | None, digest: str) -> bool:
        """Whether `module`'s file, found at `stamp` with `digest` after the run read it, is
        still what the walk found before the run read it: the same stamp, and where its times
        were too recent to tell a write apart, the same digest as hashed at the walk."""
        before = None if self.stamps is None else self.stamps.get(module)
        if before is None or stamp is None or before != stamp or not digest:
            return False
        if not is_racy(before, self.walked_ns):
            return True
        return self.walk_digests.get(module) == digest


def is_racy(stamp: list, now_ns: int) -> bool:
    """Whether a file of `stamp` changed so shortly before `now_ns` that a write after it could
    leave its stamp as it was."""
    return max(stamp[1], stamp[4]) >= now_ns - RACY_NS


def stamp_of(path: str, status: os.stat_result) -> list:
    """A file's stamp (`PackageFiles.stamps`) from its status."""
    return [path, status.st_mtime_ns, status.st_size, status.st_ino, status.st_ctime_ns]


class PackageNotFound(Exception):
    def __init__(self, package: str, searched: tuple[str, ...]) -> None:
        super().__init__(package)
        self.package = package
        self.searched = searched


def find_package_files(root_packages: tuple[str, ...], source_roots: tuple[str, ...], stamped: bool = False) -> PackageFiles:
    """Map every module of each root package to the file Python imports it from.

    A directory without `__init__.py` is a namespace package at the root, below another such
    directory, and inside a regular package where it holds modules itself (Python imports them;
    grimp leaves them out); a namespace root package is walked in every directory it spans.
    Where a package `x/` and a module `x.py` claim one module, the package is the module, as in
    Python; a module `x.py` hides a directory `x/` without `__init__.py`. A symlinked directory
    is followed only if it leads outside the package, and no directory is walked twice, so a
    symlink loop ends (grimp's walk is made to do the same). `stamped`: take each file's stamp
    as it is found (`PackageFiles.stamps`), for a run that keeps what it reads.
    """
    walk = _Walk(stamped)
    roots: dict[str, tuple[str, ...]] = {}
    for package in root_packages:
        locations = locate_root(package, source_roots)
        roots[package] = locations
        for location in locations:
            if location.endswith(".py"):
                walk.add_file(package, location, None)
            else:
                walk.package(package, location)
    return PackageFiles(
        files=walk.files,
        roots=roots,
        namespace_packages=frozenset(walk.namespaces),
        stamps=walk.stamps,
        walked_ns=walk.started_ns,
        walk_digests=walk.racy_digests(),
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
    parts = module.split(".")[len(root.split(".")):]
    directory = root_location
    parent_is_regular = os.path.isfile(os.path.join(directory, "__init__.py"))
    if not parts:
        return os.path.join(directory, "__init__.py") if parent_is_regular else None
    for part in parts[:-1]:
        if os.path.isfile(os.path.join(directory, part + ".py")) and not os.path.isfile(os.path.join(directory, part, "__init__.py")):
            return None  # the module `part.py` hides a directory without __init__.py
        directory = os.path.join(directory, part)
        is_regular = os.path.isfile(os.path.join(directory, "__init__.py"))
        if not is_regular and not (os.path.isdir(directory) and (not parent_is_regular or _holds_modules(directory))):
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
    walk = _Walk(False)
    if os.path.basename(package_file) == "__init__.py":
        walk.package(package, os.path.dirname(package_file))
    walk.files.pop(package, None)
    return walk.files


class _Walk:
    """One walk of root packages' directories: depth first, in name order, as grimp's walk goes
    (see `grimp_graph.walk_once`)."""

    def __init__(self, stamped: bool) -> None:
        self.started_ns = time.time_ns()
        self.files: dict[str, str] = {}
        self.namespaces: set[str] = set()
        self.stamps: dict[str, list] | None = {} if stamped else None
        self.shadowed: dict[str, str] = {}
        self.portions: dict[str, str] = {}

    def add_file(self, module: str, path: str, entry: os.DirEntry | None) -> None:
        self.files[module] = path
        if self.stamps is not None:
            try:
                status = entry.stat() if entry is not None else os.stat(path)
            except OSError:
                self.stamps.pop(module, None)
                return
            self.stamps[module] = stamp_of(path, status)

    def package(self, package: str, directory: str) -> None:
        """Walk the package (or namespace package) `package` at `directory`: a symlinked
        directory is entered only if it leads outside it, and no directory twice."""
        real_top = os.path.realpath(directory)
        seen: set[tuple[int, int]] = set()
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
            init = next((e for e in entries if e.name == "__init__.py" and _is_file(e)), None)
            modules = [e for e in entries if is_module_file(e.name) and e.name != "__init__.py" and _is_file(e)]
            if init is not None:
                if module_beside is not None:
                    self.shadowed[name] = module_beside  # Python imports the package
                self.add_file(name, init.path, init)
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
            for entry in modules:
                self.add_file(f"{name}.{entry.name[:-3]}", entry.path, entry)
            beside = {e.name[:-3]: e.path for e in modules}
            below = [
                (f"{name}.{e.name}", e.path, init is None, beside.get(e.name))
                for e in entries
                if _is_dir(e) and e.name.isidentifier() and follow_directory(e.path, real_top)
            ]
            stack.extend(reversed(below))

    def racy_digests(self) -> dict[str, str]:
        """The digest of each stamped file changed too recently for its stamp to tell a later
        write apart, hashed now, before the run reads it ("" when it changed meanwhile)."""
        if not self.stamps:
            return {}
        racy = [m for m, stamp in self.stamps.items() if is_racy(stamp, self.started_ns)]
        if not racy:
            return {}
        from layering.adapters.result_cache import hashed_file

        digests = {}
        for module in racy:
            digest, stamp = hashed_file(self.files[module])
            digests[module] = digest if stamp == self.stamps[module] else ""
        return digests


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
