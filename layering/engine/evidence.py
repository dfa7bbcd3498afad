"""Evidence for contracts: the package's modules, their import facts, and the module graph.

Each piece is built the first time a contract asks for it, so a rule about one module's
direct imports reads that module's file and never pays for the whole graph.
"""

from __future__ import annotations

import os
from functools import cached_property
from typing import Any

from layering.adapters.package_files import (
    PackageFiles,
    PackageNotFound,
    find_package_files,
    locate_root,
    module_file,
    subpackage_files,
)
from layering.adapters.source_facts import RawImport, SourceRegions, SourceUnreadable, parse_imports
from layering.domain.errors import ConfigError, Problem
from layering.domain.facts import ImportFact
from layering.domain.patterns import ModulePattern, is_within
from layering.engine.config import Settings


class Evidence:
    """What the source says, read lazily and at most once per run."""

    def __init__(self, settings: Settings, use_cache: bool = True) -> None:
        self.settings = settings
        self.use_cache = use_cache
        self._facts: dict[str, tuple[ImportFact, ...]] = {}
        self._paths: dict[str, str | None] = {}
        self.graph_users = 0
        self.include_external_packages = False
        self._regions: dict[str, SourceRegions] = {}

    def _missing_root(self, missing: PackageNotFound) -> ConfigError:
        if self.settings.source_roots_given:
            searched = ", ".join(self.settings.display_path(r) or "." for r in missing.searched)
            where, hint = f"the source roots ({searched})", "set source_roots to the directory that contains the package"
        else:
            where = "this directory, src/, the working directory or the Python path (PYTHONPATH, installed packages)"
            hint = "set source_roots to the directory that contains the package, relative to the configuration"
        return ConfigError(
            Problem(
                self.settings.path,
                self.settings.line_of("source_roots") or self.settings.line_of("root_packages") or self.settings.line_of("root_package"),
                f"root package '{missing.package}' not found in {where}",
                hint=hint,
            )
        )

    @cached_property
    def root_locations(self) -> dict[str, tuple[str, ...]]:
        """Where each root package is (every directory of a namespace package); a missing one
        is a located configuration error."""
        try:
            return {r: locate_root(r, self.settings.source_roots) for r in self.settings.root_packages}
        except PackageNotFound as missing:
            raise self._missing_root(missing) from None

    @cached_property
    def package_files(self) -> PackageFiles:
        """Every module of the root packages: walked only when a wildcard or the graph needs it."""
        try:
            return find_package_files(self.settings.root_packages, self.settings.source_roots)
        except PackageNotFound as missing:
            raise self._missing_root(missing) from None

    @property
    def modules(self) -> frozenset[str]:
        return self.package_files.modules

    def is_internal(self, module: str) -> bool:
        return any(is_within(module, root) for root in self.settings.root_packages)

    def path_of(self, module: str) -> str | None:
        """The source file of an internal module, found without walking the whole tree."""
        if "package_files" in self.__dict__:
            return self.package_files.files.get(module)
        if module not in self._paths:
            root = next((r for r in self.settings.root_packages if is_within(module, r)), None)
            self._paths[module] = module_file(module, root, self.root_locations[root]) if root else None
        return self._paths[module]

    def is_module(self, module: str) -> bool:
        if "package_files" in self.__dict__:
            return module in self.package_files.modules
        return self.path_of(module) is not None

    def display_path(self, module: str) -> str:
        path = self.path_of(module)
        return self.settings.display_path(path) if path else ""

    def expand(self, pattern: ModulePattern) -> list[str]:
        """The package's modules that `pattern` names."""
        if not pattern.has_wildcard:
            return [pattern.text] if self.is_module(pattern.text) else []
        return pattern.expand(self.modules)

    def descendants(self, module: str) -> list[str]:
        if "package_files" in self.__dict__:
            prefix = module + "."
            return sorted(m for m in self.modules if m.startswith(prefix))
        path = self.path_of(module)
        if path is None:
            return []
        found = subpackage_files(module, path)
        self._paths.update(found)
        return sorted(found)

    def is_installed(self, top_level: str) -> bool:
        """Whether an external top-level package can be found here (nothing is imported)."""
        return _is_installed(top_level)

    def facts_of(self, module: str) -> tuple[ImportFact, ...]:
        """Every imported name of `module`'s file, resolved against the package's modules."""
        cached = self._facts.get(module)
        if cached is not None:
            return cached
        path = self.path_of(module)
        if path is None:
            return ()
        display = self.settings.display_path(path)
        facts = tuple(self._resolve(module, path, display, raw) for raw in parse_imports(path))
        flat = tuple(sorted(f for group in facts for f in group))
        if self.settings.exclude_type_checking_imports:
            flat = tuple(f for f in flat if not f.type_checking)
        self._facts[module] = flat
        return flat

    def mentions(self, pattern: ModulePattern) -> bool:
        """Whether any import read so far in this run is of a module `pattern` covers."""
        return any(pattern.covers(f.imported) for facts in self._facts.values() for f in facts)

    def facts_between(self, importer: str, imported: str) -> list[ImportFact]:
        """The imports of `imported` by `importer`, for a chain in a report or an allowance.

        Only the statements grimp recorded are parsed, not the whole file; [] when the file
        cannot be read here (the caller then falls back to grimp's line numbers).
        """
        if importer in self._facts:
            return [f for f in self._facts[importer] if f.imported == imported]
        path = self.path_of(importer)
        if path is None:
            return []
        lines = {d["line_number"] for d in self.graph.get_import_details(importer=importer, imported=imported)}
        try:
            if path not in self._regions:
                self._regions[path] = SourceRegions(path)
            raws = self._regions[path].imports_at(lines) if lines else []
            display = self.settings.display_path(path)
            found = [f for raw in raws for f in self._resolve(importer, path, display, raw) if f.imported == imported]
            if self.settings.exclude_type_checking_imports:
                found = [f for f in found if not f.type_checking]
            return sorted(found) or [f for f in self.facts_of(importer) if f.imported == imported]
        except SourceUnreadable:
            return []

    @cached_property
    def graph(self) -> Any:
        """grimp's graph of the root packages, with external packages squashed."""
        from layering.adapters.grimp_graph import build_graph

        self.root_locations  # a missing root package is a located config error, not grimp's
        return build_graph(
            self.settings.root_packages,
            self.settings.source_roots,
            self.settings.exclude_type_checking_imports,
            self.graph_cache_dir,
            self.include_external_packages,
        )

    @property
    def graph_cache_dir(self) -> str | None:
        """grimp's own cache, inside ours; it trusts file modification times."""
        if not (self.use_cache and self.settings.cache_dir):
            return None
        return os.path.join(self.settings.cache_dir, "grimp")

    def discard_graph_cache(self) -> None:
        """Drop grimp's cache: a file changed while keeping its modification time."""
        import shutil

        if self.graph_cache_dir:
            shutil.rmtree(self.graph_cache_dir, ignore_errors=True)

    def graph_copy(self) -> Any:
        """A graph that one contract may change (remove ignored imports) alone.

        A copy, except for the last of the `graph_users` contracts, which gets the graph
        itself: no one looks at it afterwards, and a large graph is slow to copy.
        """
        import copy

        self.graph_users -= 1
        if self.graph_users <= 0:
            return self.graph
        return copy.deepcopy(self.graph)

    def _resolve(self, importer: str, path: str, display: str, raw: RawImport) -> list[ImportFact]:
        common = dict(
            path=display,
            importer=importer,
            first_line=raw.first_line,
            last_line=raw.last_line,
            scope=raw.scope,
            in_function=raw.in_function,
            type_checking=raw.type_checking,
            lazy=raw.lazy,
        )
        if not raw.is_from:
            return [
                ImportFact(line=n.line, imported=self._nearest_module(n.name), module=n.name, name=None, **common)
                for n in raw.names
            ]
        base = self._absolute(importer, path, raw)
        if base is None:
            return []
        facts = []
        for n in raw.names:
            candidate = f"{base}.{n.name}"
            imported = candidate if self.is_module(candidate) else self._nearest_module(base)
            facts.append(ImportFact(line=n.line, imported=imported, module=base, name=n.name, **common))
        return facts

    def _absolute(self, importer: str, path: str, raw: RawImport) -> str | None:
        if raw.level == 0:
            return raw.module
        package = importer if os.path.basename(path) == "__init__.py" else importer.rpartition(".")[0]
        parts = package.split(".") if package else []
        if raw.level - 1 > len(parts) - 1:
            return None
        parts = parts[: len(parts) - (raw.level - 1)]
        if raw.module:
            parts.append(raw.module)
        return ".".join(parts) or None

    def _nearest_module(self, name: str) -> str:
        """The module itself if internal and known, else its nearest known ancestor; externals as written."""
        if not self.is_internal(name):
            return name
        parts = name.split(".")
        while parts:
            candidate = ".".join(parts)
            if self.is_module(candidate):
                return candidate
            parts.pop()
        return name


def _is_installed(top_level: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(top_level) is not None
    except (ImportError, ValueError):
        return False


__all__ = ["Evidence", "SourceUnreadable"]
