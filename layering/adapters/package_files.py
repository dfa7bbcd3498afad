"""Find the files of the root packages on the source roots, the way grimp finds them."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property


@dataclass(frozen=True)
class PackageFiles:
    """The modules of the root packages, each with its source file, and where each root was found."""

    files: dict[str, str]
    roots: dict[str, tuple[str, ...]]
    namespace_packages: frozenset[str]

    @cached_property
    def modules(self) -> frozenset[str]:
        """Computed once: evidence looks modules up here for every hop of every chain."""
        return frozenset(self.files) | self.namespace_packages


class PackageNotFound(Exception):
    def __init__(self, package: str, searched: tuple[str, ...]) -> None:
        super().__init__(package)
        self.package = package
        self.searched = searched


def find_package_files(root_packages: tuple[str, ...], source_roots: tuple[str, ...]) -> PackageFiles:
    """Map every module of each root package to its file.

    A directory without `__init__.py` below a regular package is not part of it (as in
    grimp); one at the root, or below another such directory, is a namespace package, and a
    namespace root package is walked in every directory it spans. A symlinked directory is
    followed only if it leads outside the package, and no directory is walked twice, so a
    symlink loop ends (grimp's walk is made to do the same).
    """
    files: dict[str, str] = {}
    roots: dict[str, tuple[str, ...]] = {}
    namespaces: set[str] = set()
    for package in root_packages:
        locations = locate_root(package, source_roots)
        roots[package] = locations
        for location in locations:
            if location.endswith(".py"):
                files[package] = location
            else:
                _walk_package(package, location, files, namespaces)
    return PackageFiles(files=files, roots=roots, namespace_packages=frozenset(namespaces))


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
        directory = os.path.join(directory, part)
        is_regular = os.path.isfile(os.path.join(directory, "__init__.py"))
        if not is_regular and (parent_is_regular or not os.path.isdir(directory)):
            return None  # a directory without __init__.py is a namespace package only below another
        parent_is_regular = is_regular
    candidate = os.path.join(directory, parts[-1])
    if os.path.isfile(os.path.join(candidate, "__init__.py")):
        return os.path.join(candidate, "__init__.py")
    if os.path.isfile(candidate + ".py") and is_module_file(parts[-1] + ".py"):
        return candidate + ".py"
    return None


def subpackage_files(package: str, package_file: str) -> dict[str, str]:
    """Every module below the regular package whose `__init__.py` is `package_file`."""
    files: dict[str, str] = {}
    if os.path.basename(package_file) == "__init__.py":
        _walk_package(package, os.path.dirname(package_file), files, set())
    files.pop(package, None)
    return files


def _walk_package(package: str, directory: str, files: dict[str, str], namespaces: set[str]) -> None:
    """Depth first, in name order, as grimp's walk goes (see `grimp_graph.walk_once`): a
    symlinked directory is entered only if it leads outside the package, and no directory
    twice, so a symlink loop ends."""
    real_top = os.path.realpath(directory)
    seen: set[tuple[int, int]] = set()
    stack = [(package, directory, True)]
    while stack:
        name, path, may_be_namespace = stack.pop()
        try:
            status = os.stat(path)
            entries = sorted(os.scandir(path), key=lambda e: e.name)
        except OSError:
            continue
        key = (status.st_dev, status.st_ino)
        if key in seen:
            continue
        seen.add(key)
        has_init = any(e.name == "__init__.py" and _is_file(e) for e in entries)
        if not has_init and not may_be_namespace:
            continue
        if has_init:
            files[name] = os.path.join(path, "__init__.py")
        else:
            namespaces.add(name)
        below = []
        for entry in entries:
            stem = entry.name
            if _is_dir(entry):
                if stem.isidentifier() and follow_directory(entry.path, real_top):
                    below.append((f"{name}.{stem}", entry.path, not has_init))
            elif is_module_file(stem) and stem != "__init__.py" and _is_file(entry):
                files[f"{name}.{stem[:-3]}"] = entry.path
        stack.extend(reversed(below))


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
