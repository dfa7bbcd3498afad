"""Evidence for contracts: the package's modules, their import facts, and the module graph.

Each piece is built the first time a contract asks for it, so a rule about one module's
direct imports reads that module's file and never pays for the whole graph.
"""

from __future__ import annotations

import os
from functools import cached_property
from typing import Any

from layering.adapters.package_files import PackageFiles, PackageNotFound, find_package_files
from layering.adapters.source_facts import RawImport, SourceUnreadable, parse_imports
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

    @cached_property
    def package_files(self) -> PackageFiles:
        try:
            return find_package_files(self.settings.root_packages, self.settings.source_roots)
        except PackageNotFound as missing:
            searched = ", ".join(self.settings.display_path(r) or "." for r in missing.searched)
            raise ConfigError(
                Problem(
                    self.settings.path,
                    0,
                    f"root package '{missing.package}' not found in the source roots ({searched})",
                    hint="set source_roots to the directory that contains the package",
                )
            ) from None

    @property
    def modules(self) -> frozenset[str]:
        return self.package_files.modules

    def is_internal(self, module: str) -> bool:
        return any(is_within(module, root) for root in self.settings.root_packages)

    def path_of(self, module: str) -> str | None:
        return self.package_files.files.get(module)

    def display_path(self, module: str) -> str:
        path = self.path_of(module)
        return self.settings.display_path(path) if path else ""

    def expand(self, pattern: ModulePattern) -> list[str]:
        """The package's modules that `pattern` names."""
        return pattern.expand(self.modules)

    def descendants(self, module: str) -> list[str]:
        prefix = module + "."
        return sorted(m for m in self.modules if m.startswith(prefix))

    def matches_anything(self, pattern: ModulePattern, external_ok: bool = False) -> bool:
        if self.expand(pattern):
            return True
        if not external_ok or self.is_internal(pattern.top_level):
            return False
        return _is_installed(pattern.top_level) or pattern.top_level in self.external_imports

    @cached_property
    def external_imports(self) -> frozenset[str]:
        """Top-level names of external packages imported anywhere (only read when needed)."""
        return frozenset(m for m in self.graph.modules if not self.is_internal(m))

    def facts_of(self, module: str) -> tuple[ImportFact, ...]:
        """Every imported name of `module`'s file, resolved against the package's modules."""
        cached = self._facts.get(module)
        if cached is not None:
            return cached
        path = self.path_of(module)
        if path is None:
            return ()
        facts = tuple(self._resolve(module, path, raw) for raw in parse_imports(path))
        flat = tuple(sorted(f for group in facts for f in group))
        if self.settings.exclude_type_checking_imports:
            flat = tuple(f for f in flat if not f.type_checking)
        self._facts[module] = flat
        return flat

    def facts_between(self, importer: str, imported: str) -> list[ImportFact]:
        return [f for f in self.facts_of(importer) if f.imported == imported]

    @cached_property
    def graph(self) -> Any:
        """grimp's graph of the root packages, with external packages squashed."""
        from layering.adapters.grimp_graph import build_graph

        self.package_files  # a missing root package is a located config error, not grimp's
        return build_graph(
            self.settings.root_packages,
            self.settings.source_roots,
            self.settings.exclude_type_checking_imports,
            self.settings.cache_dir if self.use_cache else None,
        )

    def graph_copy(self) -> Any:
        """A copy of the graph that one contract may change (remove ignored imports) alone."""
        import copy

        return copy.deepcopy(self.graph)

    def _resolve(self, importer: str, path: str, raw: RawImport) -> list[ImportFact]:
        display = self.settings.display_path(path)
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
            imported = candidate if candidate in self.modules else self._nearest_module(base)
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
            if candidate in self.modules:
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
