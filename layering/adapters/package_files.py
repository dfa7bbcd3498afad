"""Find the files of the root packages on the source roots, the way grimp finds them."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property


@dataclass(frozen=True)
class PackageFiles:
    """The modules of the root packages, each with its source file, and where each root was found."""

    files: dict[str, str]
    roots: dict[str, str]
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
    grimp); one at the root, or below another such directory, is a namespace package. A symlinked
    directory is followed only if it leads outside the package, and no directory is walked
    twice, so a symlink loop ends (grimp's walk is made to do the same).
    """
    files: dict[str, str] = {}
    roots: dict[str, str] = {}
    namespaces: set[str] = set()
    for package in root_packages:
        location = locate_root(package, source_roots)
        roots[package] = location
        if location.endswith(".py"):
            files[package] = location
            continue
        _walk_package(package, location, files, namespaces)
    return PackageFiles(files=files, roots=roots, namespace_packages=frozenset(namespaces))


def locate_root(package: str, source_roots: tuple[str, ...]) -> str:
    """Where root package `package` is: its directory, or its file for a one-module package."""
    location = _locate(package, source_roots)
    if location is None:
        raise PackageNotFound(package, source_roots)
    return location


def module_file(module: str, root: str, root_location: str) -> str | None:
    """The file of `module` below the root package at `root_location`, without walking the tree.

    None when it is not a module of the package, following the same rules as the walk: every
    package between the root and the module needs its `__init__.py`.
    """
    if root_location.endswith(".py"):
        return root_location if module == root else None
    parts = module.split(".")[len(root.split(".")):]
    directory = root_location
    if not parts:
        init = os.path.join(directory, "__init__.py")
        return init if os.path.isfile(init) else None
    for part in parts[:-1]:
        directory = os.path.join(directory, part)
        if not os.path.isfile(os.path.join(directory, "__init__.py")):
            return None
    if directory != root_location and not os.path.isfile(os.path.join(directory, "__init__.py")):
        return None
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


def _locate(package: str, source_roots: tuple[str, ...]) -> str | None:
    parts = package.split(".")
    for root in source_roots:
        directory = os.path.join(root, *parts)
        if os.path.isdir(directory):
            return directory
        module_file = directory + ".py"
        if os.path.isfile(module_file):
            return module_file
    return None


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
