"""grimp's graph of the files layering already walked: the whole package, or only what a set of
modules reaches.

`grimp.build_graph` walks the package itself (again, after layering's own walk), keys its
cache by file times (so a fresh checkout rescans everything) and scans every module even when a
contract is about a few of them. Its scanner (Rust, in parallel) is used here directly, through
grimp's application layer, and the graph is assembled through its public API:

* the modules come from layering's walk (`PackageFiles`), the same rules grimp applies;
* what grimp read of each file is kept by the file's content digest (`import_cache`), so an
  unchanged file is not scanned again whatever its time;
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
import os
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from layering.adapters.hashing import blake2b
from layering.adapters.package_files import PackageFiles
from layering.domain.errors import SourceUnreadable

if TYPE_CHECKING:  # a run without the cache does not import it (nor its json, tempfile, threads)
    from layering.adapters.cache_builder import CacheBuilder
    from layering.adapters.grimp_graph import ImportGraph
    from layering.adapters.import_cache import CachedModule, Statement


class GrimpInternalsChanged(Exception):
    """grimp's application layer is not the one this module was written for."""


def scan_graph(
    files: PackageFiles,
    exclude_type_checking_imports: bool,
    include_external_packages: bool,
    cache_dir: str | None,
    digests: Mapping[str, str] | CacheBuilder | None = None,
    starts: Iterable[str] | None = None,
    also: Iterable[str] = (),
    readings: dict[str, ModuleReading] | None = None,
    on_damaged_cache: Callable[[], None] | None = None,
) -> ImportGraph:
    """The graph of `files`: every module scanned, or with `starts` only those reachable from
    them, plus `also` (scanned, not followed). `digests` (module -> content digest) key the
    import cache in `cache_dir`; given a `CacheBuilder` instead (a run with nothing cached), the
    builder signs what was read and writes the cache. `readings`, when given, is filled
    with what grimp read of every module whose imports the graph holds. A damaged cache is
    read as empty, rewritten, and said through `on_damaged_cache`."""
    internals = _internals()
    found = _found_packages(files, internals)
    builder: CacheBuilder | None = None
    keys: Mapping[str, str] | None = None
    if isinstance(digests, Mapping):
        keys = digests
    else:
        builder = digests
    cache = None
    if cache_dir is not None and keys is not None:
        from layering.adapters.import_cache import ImportCache

        cache = ImportCache(cache_dir, internals.version)
    known = cache.load() if cache is not None else {}
    scanner = _Scanner(
        internals,
        files,
        found,
        include_external_packages,
        exclude_type_checking_imports,
        known,
        keys if keys is not None else {},
    )
    if starts is None:
        scanner.read(sorted(files.files))
    else:
        scanner.read_reachable(set(starts), set(also))
    if cache is not None and cache.damaged and on_damaged_cache is not None:
        on_damaged_cache()
    if builder is not None:
        builder.imports_read(
            cache_dir,
            internals.version,
            scanner.mode,
            scanner.read_modules,
            files.stamps_of(scanner.read_modules),
        )
    elif cache is not None and keys is not None and (scanner.scanned or cache.damaged):
        cache.write(scanner.entries(keys))
    if readings is not None:
        # Signed here, or by the builder (`ModuleReading.signature` is "" then: the builder gives
        # them).
        readings.update(
            (
                module,
                ModuleReading(
                    "" if builder is not None else scanner.signature(module),
                    tuple(s[0] for s in statements),
                ),
            )
            for module, statements in scanner.read_modules.items()
        )
    return _assemble(internals, found, files, scanner.read_modules)


class _Scanner:
    """What grimp reads of the modules asked for: from the import cache where a module's digest
    is the one the cache holds, scanned otherwise (those are kept in `scanned`)."""

    def __init__(
        self,
        internals: Any,
        files: PackageFiles,
        found: set,
        include_external_packages: bool,
        exclude_type_checking_imports: bool,
        known: dict[str, CachedModule],
        digests: Mapping[str, str],
    ) -> None:
        self._internals = internals
        self._by_module = {mf.module.name: mf for package in found for mf in package.module_files}
        self._options = dict(
            found_packages=found,
            include_external_packages=include_external_packages,
            exclude_type_checking_imports=exclude_type_checking_imports,
        )
        self._packages = packages_beside_modules(files)
        self._files = files
        self.mode = "x" if include_external_packages else "i"
        """How the files are read, for their signatures (`signature_of`)."""
        self._known = known
        self._digests = digests
        self.read_modules: dict[str, tuple[Statement, ...]] = {}
        self.scanned: set[str] = set()
        self._signatures: dict[str, str] = {}

    def read(self, modules: list[str]) -> None:
        missing = []
        for module in modules:
            if module in self.read_modules or module not in self._by_module:
                continue
            cached = self._known.get(module)
            if cached is not None and cached[0] == self._digests.get(module):
                self._signatures[module] = cached[1]
                self.read_modules[module] = cached[2]
            else:
                missing.append(self._by_module[module])
        if missing:
            self._files.stamp_each(mf.module.name for mf in missing)  # before grimp reads them
            gone = next(
                (
                    mf.module.name
                    for mf in missing
                    if self._files.stamped and self._files.stamps[mf.module.name][0] is None
                ),
                None,
            )
            if gone is not None:  # grimp's scanner would panic on it (and print that it did)
                raise SourceUnreadable(
                    self._files.files[gone],
                    0,
                    "was deleted while layering read the package (after its walk, before grimp "
                    "read it)",
                )
            for module_file, direct_imports in self._internals.scan(
                missing, self._packages, **self._options
            ).items():
                self.read_modules[module_file.module.name] = statements_of(direct_imports)
                self.scanned.add(module_file.module.name)

    def read_reachable(self, starts: set[str], also: set[str]) -> None:
        """The modules `starts` reach, a level at a time, and `also` (followed only once a
        start reaches it: its imports were read with the first level, and are followed then).
        Once half the package is to be followed, the rest is read at once: most of it will be
        reached anyway, and each level of grimp's scan ends waiting for its slowest file (a
        file that cannot be read stops that read, and the levels go on: no start may reach it)."""
        follow = {m for m in starts if m in self._by_module}
        frontier = sorted(follow | {m for m in also if m in self._by_module})
        read_all = True
        while frontier:
            if read_all and 2 * len(follow) >= len(self._by_module):
                read_all = False
                with contextlib.suppress(OSError, UnicodeError, self._internals.SourceSyntaxError):
                    self.read(sorted(self._by_module.keys() - self.read_modules.keys()))
            self.read(frontier)
            onward = set()
            for module in frontier:
                if module not in follow:
                    continue
                for statement in self.read_modules[module]:
                    name = statement[0]
                    if name in self._by_module and name not in follow:
                        follow.add(name)
                        onward.add(name)
            frontier = sorted(onward)

    def entries(self, digests: Mapping[str, str]) -> dict[str, CachedModule]:
        """The cache's new content: what this run read, with what the cache still holds of the
        modules it did not read (a partial scan must not shrink the cache a whole one wrote). A
        module scanned now is kept by its digest only where the file is provably what was hashed
        (`digests.read_unchanged`, where the digests know): one saved meanwhile is read again."""
        read_unchanged = getattr(digests, "read_unchanged", None)
        kept = {
            m: entry
            for m, entry in self._known.items()
            if m in self._by_module and entry[0] == digests.get(m)
        }
        for module, statements in self.read_modules.items():
            digest = digests.get(module, "")
            if (
                module in self.scanned
                and read_unchanged is not None
                and not read_unchanged(module)
            ):
                digest = ""
            kept[module] = (digest, self.signature(module), statements)
        return kept

    def signature(self, module: str) -> str:
        """The import signature of a module read this run (the cache's, where it was cached)."""
        if module not in self._signatures:
            self._signatures[module] = signature_of(self.read_modules[module], self.mode)
        return self._signatures[module]


def statements_of(direct_imports: Iterable[Any]) -> tuple[Statement, ...]:
    """grimp's imports of one module as sorted plain tuples, each imported module's name one
    shared string (`sys.intern`): the caches' files then hold each name once (`marshal` refers
    back to a string it has written), and lookups by name compare pointers first."""
    return tuple(
        sorted(
            (
                sys.intern(i.imported.name),
                i.line_number,
                i.line_contents,
                bool(getattr(i, "is_lazy", False)),
            )
            for i in direct_imports
        )
    )


def signature_of(statements: Iterable[Statement], mode: str) -> str:
    """The import signature of a module's statements: each imported module with the text of
    its statement's first line, line numbers left out (a body edit above an import moves it
    without changing the graph); `mode` says whether external packages were read (without
    them an added `import json` leaves the signature as it was)."""
    lines = [f"{imported}\t{contents}\t{lazy}" for imported, _, contents, lazy in statements]
    if not lines:
        return mode + _NO_IMPORTS
    lines.sort()
    return mode + blake2b("\n".join(lines).encode(), digest_size=12).hexdigest()


_NO_IMPORTS = blake2b(b"", digest_size=12).hexdigest()
"""The signature of a module that imports nothing (one in eight of homeassistant's)."""


def _assemble(
    internals: Any, found: set, files: PackageFiles, imports: dict[str, tuple[Statement, ...]]
) -> Any:
    """grimp's graph of every module of `files`, with the imports read of those in `imports`
    (an imported module outside the root packages squashed, as grimp does)."""
    graph = internals.new_graph()
    for package in found:
        for namespace in package.namespace_packages:
            graph.add_module(namespace)
    roots = tuple(package.name for package in found)
    added = set()
    try:
        for module in sorted(imports):
            graph.add_module(module)
            for imported, line, contents, lazy in imports[module]:
                if imported not in added:
                    added.add(imported)
                    graph.add_module(
                        imported,
                        is_squashed=not any(
                            imported == r or imported.startswith(r + ".") for r in roots
                        ),
                    )
                if lazy:
                    graph.add_import(
                        importer=module,
                        imported=imported,
                        line_number=line,
                        line_contents=contents,
                        is_lazy=True,
                    )
                else:
                    graph.add_import(
                        importer=module,
                        imported=imported,
                        line_number=line,
                        line_contents=contents,
                    )
    except TypeError as error:  # another signature
        raise GrimpInternalsChanged(str(error)) from None
    present = set(graph.modules)
    for module in sorted(files.files.keys() - present):
        graph.add_module(module)
    return graph


class ModuleReading(NamedTuple):
    """What grimp read of one module: its import signature (`signature_of`) and the modules it
    imports, once per statement."""

    signature: str
    imported: tuple[str, ...]


def read_modules(
    files: PackageFiles,
    modules: Iterable[str],
    exclude_type_checking_imports: bool,
    include_external_packages: bool,
) -> dict[str, ModuleReading]:
    """What grimp reads of each of `modules` (those with a file), scanned alone: for the few
    files an edit changed, without building the graph."""
    mode = "x" if include_external_packages else "i"
    return {
        module: ModuleReading(signature_of(statements, mode), tuple(s[0] for s in statements))
        for module, statements in statements_read(
            files, modules, exclude_type_checking_imports, include_external_packages
        ).items()
    }


def statements_read(
    files: PackageFiles,
    modules: Iterable[str],
    exclude_type_checking_imports: bool,
    include_external_packages: bool,
) -> dict[str, tuple[Statement, ...]]:
    """What grimp reads of each of `modules` (those with a file), scanned alone, as the import
    cache keeps it."""
    imports = _scan_alone(
        files, set(modules), exclude_type_checking_imports, include_external_packages
    )
    return {module: statements_of(direct_imports) for module, direct_imports in imports.items()}


def scan_module(
    files: PackageFiles, module: str, exclude_type_checking_imports: bool
) -> list[tuple[str, int]]:
    """(imported module, line) of every import grimp reads in one module's file, externals
    squashed to their top-level package: grimp's reading where Python's cannot parse it."""
    imports = _scan_alone(files, {module}, exclude_type_checking_imports, True)
    return sorted(
        {
            (i.imported.name, i.line_number)
            for found_imports in imports.values()
            for i in found_imports
        }
    )


def _scan_alone(
    files: PackageFiles,
    modules: set[str],
    exclude_type_checking_imports: bool,
    include_external_packages: bool,
) -> dict[str, Any]:
    """grimp's imports of each of `modules` that has a file, those files scanned alone (the
    package's modules known all the same, so that imports resolve as in the graph)."""
    internals = _internals()
    found = _found_packages(files, internals)
    module_files = [
        mf for package in found for mf in package.module_files if mf.module.name in modules
    ]
    if not module_files:
        return {}
    files.stamp_each(mf.module.name for mf in module_files)  # before grimp reads them
    options = dict(
        found_packages=found,
        include_external_packages=include_external_packages,
        exclude_type_checking_imports=exclude_type_checking_imports,
    )
    return {
        mf.module.name: found_imports
        for mf, found_imports in internals.scan(
            module_files, packages_beside_modules(files), **options
        ).items()
    }


def grimp_version() -> str:
    """Which grimp reads the files, as the import cache names it."""
    return _internals().version


def packages_beside_modules(files: PackageFiles) -> dict[str, str]:
    """Module -> its `__init__.py`, for each package beside a module file of the same name
    (`x/` beside `x.py`): Python imports the package, grimp's scanner would read the module."""
    return {
        module: files.files[module]
        for module, hidden in files.shadowed.items()
        if hidden.endswith(".py")
    }


def _found_packages(files: PackageFiles, internals: Any) -> set:
    """grimp's FoundPackage for each directory of each root package, from layering's walk."""
    packages = set()
    for root, locations in files.roots.items():
        for location in locations:
            if location.endswith(".py"):
                raise GrimpInternalsChanged(
                    "a one-file root package"
                )  # grimp's own way decides it
            below = location.rstrip(os.sep) + os.sep
            modules = [
                m
                for m, path in files.files.items()
                if (m == root or m.startswith(root + ".")) and path.startswith(below)
            ]
            namespaces = frozenset(
                n for n in files.namespace_packages if n == root or n.startswith(root + ".")
            )
            packages.add(
                internals.FoundPackage(
                    name=root,
                    directory=location,
                    module_files=frozenset(
                        internals.ModuleFile(module=internals.Module(m), mtime=0.0)
                        for m in modules
                    ),
                    namespace_packages=namespaces,
                )
            )
    return packages


class _Internals:
    """The parts of grimp this module uses, looked up once."""

    def __init__(self) -> None:
        try:
            import grimp
            from grimp.application import scanning
            from grimp.application.ports.modulefinder import FoundPackage, ModuleFile
            from grimp.domain import valueobjects
            from grimp.domain.valueobjects import Module
            from grimp.exceptions import SourceSyntaxError
        except ImportError as error:
            raise GrimpInternalsChanged(str(error)) from None
        if not callable(getattr(scanning, "scan_imports", None)):
            raise GrimpInternalsChanged("grimp has no scan_imports")
        self.FoundPackage, self.ModuleFile, self.Module = FoundPackage, ModuleFile, Module
        self.SourceSyntaxError = SourceSyntaxError
        self.valueobjects = valueobjects
        self.new_graph = grimp.ImportGraph
        self.version = f"grimp {getattr(grimp, '__version__', '?')}"
        self._scanning = scanning

    def scan(self, module_files: list, packages: Mapping[str, str], **options: Any) -> dict:
        """grimp's imports of each of `module_files`; those of `packages` (module -> its
        `__init__.py`) read from that file, not from the module file beside it."""
        hidden = [mf for mf in module_files if mf.module.name in packages]
        try:
            found = (
                self._scanning.scan_imports(
                    [mf for mf in module_files if mf.module.name not in packages], **options
                )
                if len(hidden) < len(module_files)
                else {}
            )
            if hidden:
                found.update(self._scan_packages(hidden, packages, options))
        except TypeError as error:  # another signature
            raise GrimpInternalsChanged(str(error)) from None
        return found

    def _scan_packages(
        self, hidden: list, packages: Mapping[str, str], options: dict[str, Any]
    ) -> dict:
        """grimp's scanner finds a module's file as `x.py` first: give it a file system that holds
        only each package's `__init__.py`, read here as Python reads source. Its fake file system
        trims a file's leading blank lines, so each text starts with a comment line, taken back
        from the line numbers."""
        import dataclasses

        from layering.adapters.source_facts import read_source

        rust = getattr(self._scanning, "rust", None)
        if rust is None or not hasattr(rust, "FakeBasicFileSystem"):
            raise GrimpInternalsChanged("grimp has no FakeBasicFileSystem")
        owners = {
            mf.module.name: package
            for package in options["found_packages"]
            for mf in package.module_files
        }
        contents = {}
        for mf in hidden:
            owner = owners[mf.module.name]
            parts = [owner.directory, *mf.module.name.split(".")[len(owner.name.split(".")) :]]
            contents["/".join(p.rstrip("/") for p in parts) + "/__init__.py"] = (
                "#\n" + read_source(packages[mf.module.name])
            )
        file_system = rust.FakeBasicFileSystem(content_map=contents)
        found = rust.scan_for_imports(
            module_files=tuple(hidden), file_system=file_system, **options
        )
        return {
            mf: {dataclasses.replace(i, line_number=i.line_number - 1) for i in found[mf.module]}
            for mf in hidden
        }


_INTERNALS: list[_Internals] = []


def _internals() -> _Internals:
    """grimp's parts, looked up again when grimp was imported anew since (pytest's in-process
    runs drop the modules a run imported): grimp's scanner keys what it returns by the `Module`
    class it finds now, which a stale one would not match."""
    if (
        not _INTERNALS
        or sys.modules.get(_INTERNALS[0].Module.__module__) is not _INTERNALS[0].valueobjects
    ):
        _INTERNALS[:] = [_Internals()]
    return _INTERNALS[0]
