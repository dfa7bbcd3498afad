"""grimp's graph of the files layering already walked: the whole package, or only what a set of
modules reaches.

`grimp.build_graph` walks the package itself (again, after layering's own walk), keys its
cache by file times (so a fresh checkout rescans everything) and scans every module even when a
contract is about a few of them. Its scanner (Rust, in parallel) and its graph assembly are
used here directly, through grimp's application layer:

* the modules come from layering's walk (`PackageFiles`), the same rules grimp applies;
* the cache is keyed by content: each module's "modification time", as grimp's cache sees it,
  is a number drawn from its content digest, so an unchanged file is a hit whatever its time;
* with `starts`, only the modules reachable from them are scanned, level by level (every module
  is in the graph all the same, so names and descendants resolve as usual);
* each module whose imports the graph holds gets an *import signature*, a digest of what grimp
  read from it (the modules it imports, with each statement's text, no line numbers): the result
  cache keys verdicts by it, from the reading the graph needs anyway.

Those are grimp's internals, not its public API: where they are not as expected (another grimp
version), `GrimpInternalsChanged` is raised and the caller builds the graph the public way.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from layering.adapters.package_files import PackageFiles


class GrimpInternalsChanged(Exception):
    """grimp's application layer is not the one this module was written for."""


def content_time(digest: str) -> float:
    """A stand-in modification time that changes exactly when the content does."""
    return float(int(digest[:12], 16))


def scan_graph(
    files: PackageFiles,
    exclude_type_checking_imports: bool,
    include_external_packages: bool,
    cache_dir: str | None,
    digests: "dict[str, str] | Callable[[], dict[str, str]] | None" = None,
    starts: Iterable[str] | None = None,
    also: Iterable[str] = (),
    readings: "dict[str, ModuleReading] | None" = None,
) -> Any:
    """The graph of `files`: every module scanned, or with `starts` only those reachable from
    them, plus `also` (scanned, not followed). `digests` (module -> content digest) key the
    cache; without them grimp's cache is not used; given as a function (the digests of a run
    with nothing cached, still being computed), the cache is written, not read. `readings`,
    when given, is filled with what grimp read of every module whose imports the graph holds."""
    internals = _internals()
    deferred = digests if callable(digests) else None
    times = {m: content_time(d) for m, d in digests.items()} if isinstance(digests, dict) else {}
    found = _found_packages(files, times, internals)
    by_module = {mf.module.name: mf for package in found for mf in package.module_files}
    cache = _cache(internals, found, exclude_type_checking_imports, include_external_packages, cache_dir) if times else None
    options = dict(
        found_packages=found,
        include_external_packages=include_external_packages,
        exclude_type_checking_imports=exclude_type_checking_imports,
    )
    scanned: list = []
    if starts is None:
        imports = _read_or_scan(internals, cache, list(by_module.values()), options, scanned)
    else:
        imports = _scan_reachable(internals, cache, by_module, set(starts), set(also), options, scanned)
    if cache is not None and scanned:
        _write_cache(internals, cache, imports, by_module.values())
    elif deferred is not None and cache_dir is not None:
        _write_new_cache(internals, files, deferred(), imports, exclude_type_checking_imports, include_external_packages, cache_dir)
    if readings is not None:
        readings.update((mf.module.name, ModuleReading.of(found_imports, include_external_packages)) for mf, found_imports in imports.items())
    graph = internals.assemble(found, {mf.module: found_imports for mf, found_imports in imports.items()})
    present = set(graph.modules)
    for module in sorted(by_module.keys() - present):
        graph.add_module(module)
    return graph


def _write_new_cache(internals: Any, files: PackageFiles, digests: dict[str, str], imports: dict, exclude_type_checking_imports: bool, include_external_packages: bool, cache_dir: str) -> None:
    """Write grimp's cache of what a run with nothing cached scanned, keyed by the digests
    that were computed meanwhile."""
    found = _found_packages(files, {m: content_time(d) for m, d in digests.items()}, internals)
    cache = _cache(internals, found, exclude_type_checking_imports, include_external_packages, cache_dir)
    by_module = {mf.module.name: mf for package in found for mf in package.module_files}
    _write_cache(internals, cache, {by_module[mf.module.name]: found_imports for mf, found_imports in imports.items()}, by_module.values())


class ModuleReading(NamedTuple):
    """What grimp read of one module: the modules it imports, once per statement, and its
    import signature, a digest of each imported module with the text of its statement's first
    line, line numbers left out (a body edit above an import moves it without changing the
    graph)."""

    signature: str
    imported: tuple[str, ...]

    @classmethod
    def of(cls, direct_imports: Iterable[Any], include_external_packages: bool) -> "ModuleReading":
        """The reading of `direct_imports`; its signature says whether external packages were
        read (without them an added `import json` leaves the signature as it was)."""
        statements = sorted(f"{i.imported.name}\t{i.line_contents}\t{getattr(i, 'is_lazy', False)}" for i in direct_imports)
        mode = "x" if include_external_packages else "i"
        signature = mode + hashlib.blake2b("\n".join(statements).encode(), digest_size=12).hexdigest()
        return cls(signature, tuple(s.partition("\t")[0] for s in statements))


def read_modules(files: PackageFiles, modules: Iterable[str], exclude_type_checking_imports: bool, include_external_packages: bool) -> dict[str, ModuleReading]:
    """What grimp reads of each of `modules` (those with a file), scanned alone: for the few
    files an edit changed, without building the graph."""
    imports = _scan_alone(files, set(modules), exclude_type_checking_imports, include_external_packages)
    return {module: ModuleReading.of(found_imports, include_external_packages) for module, found_imports in imports.items()}


def scan_module(files: PackageFiles, module: str, exclude_type_checking_imports: bool) -> list[tuple[str, int]]:
    """(imported module, line) of every import grimp reads in one module's file, externals
    squashed to their top-level package: grimp's reading where Python's cannot parse it."""
    imports = _scan_alone(files, {module}, exclude_type_checking_imports, True)
    return sorted({(i.imported.name, i.line_number) for found_imports in imports.values() for i in found_imports})


def _scan_alone(files: PackageFiles, modules: set[str], exclude_type_checking_imports: bool, include_external_packages: bool) -> dict[str, Any]:
    """grimp's imports of each of `modules` that has a file, those files scanned alone (the
    package's modules known all the same, so that imports resolve as in the graph)."""
    internals = _internals()
    found = _found_packages(files, {}, internals)
    module_files = [mf for package in found for mf in package.module_files if mf.module.name in modules]
    if not module_files:
        return {}
    options = dict(found_packages=found, include_external_packages=include_external_packages, exclude_type_checking_imports=exclude_type_checking_imports)
    return {mf.module.name: found_imports for mf, found_imports in internals.scan(module_files, **options).items()}


def _write_cache(internals: Any, cache: Any, imports: dict, module_files: Iterable) -> None:
    """Write what this run read with what the cache still holds of the modules it did not
    read (a partial scan must not shrink the cache a whole one wrote)."""
    every = {mf.module: found_imports for mf, found_imports in imports.items()}
    for module_file in module_files:
        if module_file not in imports:
            with contextlib.suppress(internals.CacheMiss):
                every[module_file.module] = cache.read_imports(module_file)
    cache.write(every)


def _scan_reachable(internals: Any, cache: Any, by_module: dict[str, Any], starts: set[str], also: set[str], options: dict, scanned: list) -> dict:
    """Scan the modules `starts` reach, a level at a time, and `also` (followed only once a
    start reaches it: its imports were read with the first level, and are followed then)."""
    imports: dict = {}
    follow = {m for m in starts if m in by_module}
    frontier = sorted(follow | {m for m in also if m in by_module})
    while frontier:
        unread = [by_module[m] for m in frontier if by_module[m] not in imports]
        imports.update(_read_or_scan(internals, cache, unread, options, scanned))
        onward = set()
        for module in frontier:
            if module not in follow:
                continue
            for direct in imports[by_module[module]]:
                name = direct.imported.name
                if name in by_module and name not in follow:
                    follow.add(name)
                    onward.add(name)
        frontier = sorted(onward)
    return imports


def _read_or_scan(internals: Any, cache: Any, module_files: list, options: dict, scanned: list) -> dict:
    """The imports of `module_files`, from the cache where it has them; those it scanned are
    added to `scanned`."""
    found: dict = {}
    missing = []
    for module_file in module_files:
        if cache is None:
            missing.append(module_file)
            continue
        try:
            found[module_file] = cache.read_imports(module_file)
        except internals.CacheMiss:
            missing.append(module_file)
    if missing:
        found.update(internals.scan(missing, **options))
        scanned.extend(missing)
    return found


def _found_packages(files: PackageFiles, times: dict[str, float], internals: Any) -> set:
    """grimp's FoundPackage for each directory of each root package, from layering's walk."""
    packages = set()
    for root, locations in files.roots.items():
        for location in locations:
            if location.endswith(".py"):
                raise GrimpInternalsChanged("a one-file root package")  # grimp's own way decides it
            below = location.rstrip(os.sep) + os.sep
            modules = [m for m, path in files.files.items() if (m == root or m.startswith(root + ".")) and path.startswith(below)]
            namespaces = frozenset(n for n in files.namespace_packages if n == root or n.startswith(root + "."))
            packages.add(
                internals.FoundPackage(
                    name=root,
                    directory=location,
                    module_files=frozenset(internals.ModuleFile(module=internals.Module(m), mtime=times.get(m, 0.0)) for m in modules),
                    namespace_packages=namespaces,
                )
            )
    return packages


def _cache(internals: Any, found: set, exclude_type_checking_imports: bool, include_external_packages: bool, cache_dir: str | None) -> Any:
    if cache_dir is None:
        return None
    return internals.Cache.setup(
        file_system=internals.file_system(),
        found_packages=found,
        include_external_packages=include_external_packages,
        exclude_type_checking_imports=exclude_type_checking_imports,
        cache_dir=cache_dir,
    )


class _Internals:
    """The parts of grimp's application layer this module uses, looked up once."""

    def __init__(self) -> None:
        try:
            from grimp.adaptors.caching import Cache, CacheMiss
            from grimp.application import scanning, usecases
            from grimp.application.config import settings
            from grimp.application.ports.modulefinder import FoundPackage, ModuleFile
            from grimp.domain.valueobjects import Module
        except ImportError as error:
            raise GrimpInternalsChanged(str(error)) from None
        for owner, name in ((scanning, "scan_imports"), (usecases, "_assemble_graph"), (Cache, "setup"), (Cache, "read_imports")):
            if not callable(getattr(owner, name, None)):
                raise GrimpInternalsChanged(f"grimp has no {name}")
        self.Cache, self.CacheMiss, self.FoundPackage, self.ModuleFile, self.Module = Cache, CacheMiss, FoundPackage, ModuleFile, Module
        self._scanning, self._usecases, self._settings = scanning, usecases, settings

    def file_system(self) -> Any:
        return self._settings.FILE_SYSTEM.convert_to_basic()

    def scan(self, module_files: list, **options: Any) -> dict:
        try:
            return self._scanning.scan_imports(module_files, **options)
        except TypeError as error:  # another signature
            raise GrimpInternalsChanged(str(error)) from None

    def assemble(self, found: set, imports: dict) -> Any:
        try:
            return self._usecases._assemble_graph(found, imports)
        except TypeError as error:
            raise GrimpInternalsChanged(str(error)) from None


_INTERNALS: list[_Internals] = []


def _internals() -> _Internals:
    if not _INTERNALS:
        _INTERNALS.append(_Internals())
    return _INTERNALS[0]
