"""Evidence for contracts: the package's modules, their import facts, and the module graph.

Each piece is built the first time a contract asks for it, so a rule about one module's
direct imports reads that module's file and never pays for the whole graph. The source readers
are imported the same way: a run answered from the cache reads no source.

What the evidence reads of the outside world comes through its ports (`engine.ports`): the
package's files (walked from the disk unless handed over), each file's text (`Sources`) and the
import graph (`GraphSource`); a test hands it a package held in memory.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

from layering.adapters.package_files import (
    PackageFiles,
    PackageNotFound,
    find_package_files,
    locate_root,
    module_file,
    subpackage_files,
)
from layering.domain.errors import ConfigError, Problem, SourceUnreadable
from layering.domain.facts import ImportFact, NameUse
from layering.domain.interface import ExportsReading
from layering.domain.patterns import ModulePattern, expand_each, index_patterns, is_within
from layering.domain.reexports import ModuleNames
from layering.domain.results import Hop
from layering.engine.config import Settings
from layering.engine.plan import DEFAULT_PLAN, RunPlan
from layering.engine.ports import (
    DISK_SOURCES,
    GRIMP_GRAPHS,
    GraphRequest,
    GraphSource,
    Sources,
)

if TYPE_CHECKING:
    from layering.adapters.cache_builder import CacheBuilder
    from layering.adapters.facts_cache import TextFilter
    from layering.adapters.grimp_graph import ImportGraph
    from layering.adapters.grimp_scan import ModuleReading
    from layering.adapters.source_facts import ImportStatements, RawBinding, RawImport, RawNameUse


class Evidence:
    """What the source says, read lazily and at most once per run.

    `files`, `sources` and `graphs` are where it reads the package (`engine.ports`): by
    default the disk, walked when first needed, and grimp's graph of it; `files` handed over
    stand for the walk (every module is looked up there, and the roots are where it says).
    """

    def __init__(
        self,
        settings: Settings,
        plan: RunPlan = DEFAULT_PLAN,
        *,
        files: PackageFiles | None = None,
        sources: Sources = DISK_SOURCES,
        graphs: GraphSource = GRIMP_GRAPHS,
    ) -> None:
        self.settings = settings
        self._plan = plan
        self._sources = sources
        self._graphs = graphs
        self.excluded: frozenset[str] = frozenset()
        """The modules of the walk that `exclude` leaves out (known once the package is walked)."""
        self._graph_warnings: list[str] = []
        """What building the graph had to say (its cache could not be used, was rebuilt), and
        what leaving modules out did (`respect_gitignore` where git cannot say)."""
        if files is not None:  # the walk, done: the cached properties hold it from the start
            self.__dict__["package_files"] = self._without_excluded(files)
            self.__dict__["root_locations"] = dict(files.roots)
        self._planned = False
        self._widened = False
        self._digests: Mapping[str, str] | CacheBuilder | None = None
        self._facts: dict[str, tuple[ImportFact, ...]] = {}
        self._executed: dict[str, tuple[ImportFact, ...]] = {}
        self._paths: dict[str, str | None] = {}
        self.readings: dict[str, ModuleReading] = {}
        """What grimp read of each module the graph was built from (once it is built, and only
        when the run keeps a cache: the result cache keys verdicts by it)."""
        self._statements: dict[str, ImportStatements] = {}
        self._hops: dict[tuple[str, str], list[Hop]] = {}
        """The statements of each import a report shows: several groups may show one import."""
        self._name_uses: dict[str, tuple[ImportFact, ...]] = {}
        self._typing_only: dict[str, frozenset[tuple[int, str]]] = {}
        self._exports: dict[str, ExportsReading | None] = {}
        self._top_level: dict[str, ModuleNames | None] = {}

    def follow(self, plan: RunPlan) -> None:
        """Read the package by `plan` from now on: said once, when the run has chosen its
        contracts and before anything reads the graph (the contracts' options are checked
        against the package first, which reads no graph)."""
        if self._planned or "graph" in self.__dict__:
            raise RuntimeError("a run's plan is given once, before the graph is built")
        self._plan = plan
        self._planned = True

    def key_graph_by(self, digests: Mapping[str, str] | CacheBuilder) -> None:
        """Key what grimp reads of each file by its content digest (or, when nothing is cached
        yet, hand the readings to the builder that computes them): said once by the cache,
        before the graph is built."""
        if self._digests is not None or "graph" in self.__dict__:
            raise RuntimeError("the graph's digests are given once, before the graph is built")
        self._digests = digests

    @property
    def use_cache(self) -> bool:
        return self._plan.keeps_cache

    @property
    def listed_chains(self) -> int:
        return self._plan.listed_chains

    @property
    def records_chain_ends(self) -> bool:
        return self._plan.records_chain_ends

    @property
    def draws_graph(self) -> bool:
        return self._plan.draws_graph

    @property
    def graph_reach(self) -> tuple[frozenset[str], frozenset[str]] | None:
        return None if self._widened or self.draws_graph else self._plan.graph_reach

    @property
    def include_external_packages(self) -> bool:
        return self._widened or self.draws_graph or self._plan.include_external_packages

    def _missing_root(self, missing: PackageNotFound) -> ConfigError:
        if self.settings.source_roots_given:
            searched = ", ".join(self.settings.display_path(r) or "." for r in missing.searched)
            where, hint = (
                f"the source roots ({searched})",
                "set source_roots to the directory that contains the package",
            )
        else:
            where = (
                "this directory, src/, the working directory or the Python path (PYTHONPATH, "
                "installed packages)"
            )
            hint = (
                "set source_roots to the directory that contains the package, relative to the "
                "configuration"
            )
        return ConfigError(
            Problem(
                self.settings.path,
                self.settings.line_of("source_roots")
                or self.settings.line_of("root_packages")
                or self.settings.line_of("root_package"),
                f"root package '{missing.package}' not found in {where}",
                hint=hint,
            )
        )

    @cached_property
    def root_locations(self) -> dict[str, tuple[str, ...]]:
        """Where each root package is (every directory of a namespace package); a missing one
        is a located configuration error."""
        try:
            return {
                r: locate_root(r, self.settings.source_roots) for r in self.settings.root_packages
            }
        except PackageNotFound as missing:
            raise self._missing_root(missing) from None

    def walked_paths(self) -> Iterable[str] | None:
        """The files of the package, where the run walked it (None where it did not: a
        direct rule about a few modules never does)."""
        walked = self.__dict__.get("package_files")
        return None if walked is None else walked.files.values()

    @cached_property
    def package_files(self) -> PackageFiles:
        """Every module of the root packages: walked only when a wildcard or the graph needs it."""
        try:
            files = find_package_files(
                self.settings.root_packages,
                self.settings.source_roots,
                stamped=self.use_cache and bool(self.settings.cache_dir),
            )
        except PackageNotFound as missing:
            raise self._missing_root(missing) from None
        return self._without_excluded(files)

    def _without_excluded(self, files: PackageFiles) -> PackageFiles:
        """The walk with the modules `exclude` names (and everything under them) and, with
        `respect_gitignore`, those whose files git ignores taken out, so that no contract,
        graph or report sees them; the ones taken out kept in `excluded`."""
        if not self.settings.exclude and not self.settings.respect_gitignore:
            return files
        ignored = self._git_ignored(files) if self.settings.respect_gitignore else frozenset()

        def excludes(module: str) -> bool:
            return module in ignored or self.settings.excludes(module)

        self.excluded = frozenset(m for m in files.modules if excludes(m))
        return dataclasses.replace(
            files,
            files={m: path for m, path in files.files.items() if not excludes(m)},
            namespace_packages=frozenset(m for m in files.namespace_packages if not excludes(m)),
            shadowed={m: path for m, path in files.shadowed.items() if not excludes(m)},
            portions={m: path for m, path in files.portions.items() if not excludes(m)},
        )

    def _git_ignored(self, files: PackageFiles) -> frozenset[str]:
        """The modules whose files git ignores; none, with a warning, where git cannot say."""
        from layering.adapters.git_ignored import NotInGit, ignored_modules

        try:
            return ignored_modules(self.settings.base_dir, files.files)
        except NotInGit as why:
            where = self.settings.display_path(self.settings.path)
            line = self.settings.line_of("respect_gitignore")
            self._graph_warnings.append(
                f"{where}:{line}: 'respect_gitignore' leaves nothing out: {why}"
            )
            return frozenset()

    def warnings(self) -> list[str]:
        """What reading the package had to say, each once: what the walk found Python reads
        otherwise than grimp would, and what building the graph said of its cache."""
        return list(dict.fromkeys(self._tree_warnings() + self._graph_warnings))

    def _tree_warnings(self) -> list[str]:
        """Two files that claim one module, modules in a directory without `__init__.py` inside
        a regular package (nothing when the package was not walked)."""
        if "package_files" not in self.__dict__:
            return []
        files = self.package_files
        display = self.settings.display_path
        said = []
        for module, hidden in sorted(files.shadowed.items()):
            if hidden.endswith(".py"):
                said.append(
                    f"{display(hidden)}: never imported: Python imports '{module}' from the "
                    "package "
                    f"{display(files.files[module])} beside it, and so does layering (grimp would "
                    "read this file); "
                    "rename or remove one of them"
                )
            else:
                said.append(
                    f"{display(hidden)}{os.sep}: hidden by the module "
                    f"{display(files.files[module])}: Python imports that "
                    f"file as '{module}', so no module in this directory can be imported (rename "
                    "one of them)"
                )
        for module, directory in sorted(files.portions.items()):
            parent = module.rpartition(".")[0]
            said.append(
                f"{display(directory)}{os.sep}: no __init__.py inside the regular package "
                f"'{parent}': Python imports its "
                f"modules as the namespace package '{module}', and so does layering (grimp and "
                "import-linter leave "
                "them out); add an __init__.py to make it a regular package"
            )
        return said

    def walk(self) -> PackageFiles:
        """Walk the package now (once: `package_files`)."""
        return self.package_files

    @property
    def modules(self) -> frozenset[str]:
        return self.package_files.modules

    def is_internal(self, module: str) -> bool:
        return any(is_within(module, root) for root in self.settings.root_packages)

    @property
    def _walked(self) -> bool:
        """Whether the package's files are known from a walk of it, which a question about one
        module may skip; with `respect_gitignore` it never does (git is asked of every file
        once, and a module it ignores is in no contract, whichever way it is asked about)."""
        if self.settings.respect_gitignore:
            self.package_files  # noqa: B018 - walks, once
        return "package_files" in self.__dict__

    def path_of(self, module: str) -> str | None:
        """The source file of an internal module, found without walking the whole tree. Every
        reading of a file asks here first: in a run that keeps what it reads, the file's stamp is
        taken then (`PackageFiles.stamp`)."""
        if self._walked:
            files = self.package_files
            path = files.files.get(module)
            if path is not None and files.stamped and module not in files.stamps:
                files.stamp(module)
            return path
        if module not in self._paths:
            root = next((r for r in self.settings.root_packages if is_within(module, r)), None)
            if self.settings.excludes(module):
                root = None
            self._paths[module] = (
                module_file(module, root, self.root_locations[root]) if root else None
            )
        return self._paths[module]

    def is_module(self, module: str) -> bool:
        if self._walked:
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

    def expand_each(self, patterns: Sequence[ModulePattern]) -> dict[ModulePattern, list[str]]:
        """What `expand` gives each of `patterns`; those with a wildcard from one pass over the
        package's modules."""
        expanded = {p: self.expand(p) for p in patterns if not p.has_wildcard}
        wildcards = [p for p in patterns if p.has_wildcard]
        return {**expanded, **(expand_each(wildcards, self.modules) if wildcards else {})}

    def expand_all(self, patterns: Sequence[ModulePattern]) -> list[str]:
        """The package's modules that any of `patterns` names, sorted."""
        return sorted({m for found in self.expand_each(patterns).values() for m in found})

    def descendants(self, module: str) -> list[str]:
        if self._walked:
            prefix = module + "."
            return sorted(m for m in self.modules if m.startswith(prefix))
        path = self.path_of(module)
        if path is None:
            return []
        found = {
            m: p
            for m, p in subpackage_files(module, path).items()
            if not self.settings.excludes(m)
        }
        self._paths.update(found)
        return sorted(found)

    def is_installed(self, top_level: str) -> bool:
        """Whether an external top-level package can be found here (nothing is imported)."""
        return _is_installed(top_level)

    def facts_of(self, module: str, admits: TextFilter | None = None) -> tuple[ImportFact, ...]:
        """Every imported name of `module`'s file, resolved against the package's modules; with
        `admits`, none of a file whose text it refuses (which is not parsed)."""
        cached = self._facts.get(module)
        if cached is not None:
            return cached
        path = self.path_of(module)
        if path is None:
            return ()
        from layering.adapters.source_facts import parse_imports

        display = self.settings.display_path(path)
        try:
            raws = (
                self._sources.facts(path, parse_imports)
                if admits is None
                else self._sources.facts_if(path, parse_imports, admits)
            )
            if raws is None:
                return ()
            facts = [f for raw in raws for f in self._resolve(module, path, display, raw)]
        except SourceUnreadable as unreadable:
            if not unreadable.reason.startswith(("syntax error", "cannot be parsed")):
                raise
            facts = self._facts_as_grimp_reads(module, path, display, unreadable)
        flat = tuple(sorted(facts))
        if self.settings.exclude_type_checking_imports:
            flat = tuple(f for f in flat if not f.type_checking)
        self._facts[module] = flat
        return flat

    def _facts_as_grimp_reads(
        self, module: str, path: str, display: str, unreadable: SourceUnreadable
    ) -> list[ImportFact]:
        """The imports of a file this Python cannot parse (newer syntax), at the lines grimp's
        own parser found: each statement read alone where it can be, else as grimp reads it
        (the module, no names)."""
        from layering.adapters.source_facts import ImportStatements

        try:
            found = self._grimp_imports_of(module)
        except SourceUnreadable:
            raise unreadable from None
        statements = ImportStatements(path, self._sources.read(path))
        facts = []
        for imported, line in found:
            try:
                read = [
                    f
                    for raw in statements.imports_at({line})
                    for f in self._resolve(module, path, display, raw)
                ]
            except SourceUnreadable:
                read = []
            facts.extend(
                read or [ImportFact(display, line, module, imported, imported, None, line, line)]
            )
        return list(set(facts))

    def _grimp_imports_of(self, module: str) -> list[tuple[str, int]]:
        """(imported, line) of each import grimp reads in `module`: scanned alone, else from the
        whole graph, built with external packages."""
        found = self._graphs.imports_of_module(
            self.package_files, module, self.settings.exclude_type_checking_imports
        )
        if found is not None:
            return found
        if "graph" not in self.__dict__:
            self._widened = True  # the whole graph, with external packages
        graph = self.graph
        return sorted(
            (imported, d["line_number"])
            for imported in graph.find_modules_directly_imported_by(module)
            for d in graph.get_import_details(importer=module, imported=imported)
        )

    def executed_facts(self, module: str) -> tuple[ImportFact, ...]:
        """The imports that run when `module` is executed: not in functions, not under
        `if TYPE_CHECKING:`, not lazy. Only the file's top-level statements that can hold
        one are parsed (facts already read in full are reused)."""
        if module in self._facts:
            return tuple(f for f in self._facts[module] if f.runtime)
        if module not in self._executed:
            path = self.path_of(module)
            facts: list[ImportFact] = []
            if path is not None:
                from layering.adapters.executed_imports import executed_imports

                display = self.settings.display_path(path)
                facts = [
                    f
                    for raw in self._sources.facts(path, executed_imports)
                    for f in self._resolve(module, path, display, raw)
                    if f.runtime
                ]
            self._executed[module] = tuple(sorted(facts))
        return self._executed[module]

    def mentioned(self, patterns: Sequence[ModulePattern]) -> set[ModulePattern]:
        """Those of `patterns` that cover a module an import read so far in this run is of (or
        an external module of the graph, when it was built)."""
        if not patterns:
            return set()
        read = (*self._facts.values(), *self._executed.values())
        imported = {f.imported for facts in read for f in facts}
        if "graph" in self.__dict__:
            imported.update(m for m in self.graph.modules if not self.is_internal(m))
        index = index_patterns(patterns)
        return {pattern for module in imported for pattern in index.covering(module)}

    def facts_between(self, importer: str, imported: str) -> list[ImportFact]:
        """The imports of `imported` by `importer`, for a chain in a report or an allowance.

        Only the statements grimp recorded are parsed, not the whole file; [] when the file
        cannot be read here (the caller then falls back to grimp's line numbers). An external
        package is squashed in the graph: every import of it or of its submodules counts.
        """
        internal = self.is_internal(imported)

        def between(fact: ImportFact) -> bool:
            return fact.imported == imported if internal else is_within(fact.imported, imported)

        lines = {
            d["line_number"]
            for d in self.graph.get_import_details(importer=importer, imported=imported)
        }
        if importer in self._facts:
            # As from the source read at grimp's lines below, whichever was read first.
            every = [f for f in self._facts[importer] if between(f)]
            return [f for f in every if f.first_line in lines] or every
        path = self.path_of(importer)
        if path is None:
            return []
        from layering.adapters.source_facts import ImportStatements

        try:
            if path not in self._statements:
                self._statements[path] = ImportStatements(path, self._sources.read(path))
            raws = self._statements[path].imports_at(lines) if lines else []
            display = self.settings.display_path(path)
            found = [
                f
                for raw in raws
                for f in self._resolve(importer, path, display, raw)
                if between(f)
            ]
            if self.settings.exclude_type_checking_imports:
                found = [f for f in found if not f.type_checking]
            return sorted(found) or [f for f in self.facts_of(importer) if between(f)]
        except SourceUnreadable:
            return []

    def statements(
        self, importer: str, imported: str, facts: list[ImportFact] | None = None
    ) -> list[Hop]:
        """One hop per import statement by which `importer` imports `imported`, in line order,
        each at the line of its first name: from `facts` when given (what an allowance left),
        else from the source, else (a file this Python cannot parse) from grimp's lines. A
        statement imports what it names: of an external package the graph squashes, a hop is
        the submodule it imports (`from click.testing import CliRunner` is one of
        `click.testing`, beside `import click`'s of `click`)."""
        if facts is None:
            known = self._hops.get((importer, imported))
            if known is None:
                known = self._hops[importer, imported] = self.statements(
                    importer, imported, self.facts_between(importer, imported)
                )
            return known
        if facts:
            by_statement: dict[tuple[str, int, str], list[ImportFact]] = {}
            for fact in sorted(facts):
                by_statement.setdefault((fact.path, fact.first_line, fact.imported), []).append(
                    fact
                )
            return [
                Hop(
                    importer,
                    group[0].imported,
                    group[0].path,
                    group[0].line,
                    tuple(sorted({f.shown_name for f in group if f.shown_name})),
                    group[0].qualifiers(),
                )
                for group in (by_statement[key] for key in sorted(by_statement))
            ]
        lines = sorted(
            {
                d["line_number"]
                for d in self.graph.get_import_details(importer=importer, imported=imported)
            }
        )
        path = self.display_path(importer)
        return [Hop(importer, imported, path, line) for line in lines] or [
            Hop(importer, imported, path, 0)
        ]

    def statements_in_source(self, importer: str, imported: str) -> list[Hop]:
        """The statements by which `importer` imports `imported`, read from its source alone
        (no graph): for reports whose graph is not built this run."""
        internal = self.is_internal(imported)
        facts = [
            f
            for f in self.facts_of(importer)
            if (f.imported == imported if internal else is_within(f.imported, imported))
        ]
        return self.statements(importer, imported, facts) if facts else []

    def locate(
        self, chain: tuple[str, ...], facts: dict[tuple[str, str], list[ImportFact]] | None = None
    ) -> tuple[Hop, ...]:
        """A chain of modules as hops, each at its first import statement."""
        facts = facts or {}
        return tuple(self.statements(a, b, facts.get((a, b)))[0] for a, b in zip(chain, chain[1:]))

    @staticmethod
    def imports_of(graph: ImportGraph) -> dict[str, frozenset[str]]:
        """A graph as a plain mapping, importer to the modules it imports, for chains and cuts."""
        return {
            module: frozenset(graph.find_modules_directly_imported_by(module))
            for module in graph.modules
        }

    def name_uses_of(
        self, module: str, wanted: TextFilter | None = None
    ) -> tuple[ImportFact, ...]:
        """Every name `module`'s file reads on a module it imported whole, as facts marked with
        their use: `mod.name` is a fact of module `mod`, name `name`, at the line of the use.

        A chain `a.b.c` gives a fact for each name read on a module (`b` of `a`, `c` of `a.b`).
        With `wanted`, a file whose text it refuses is not parsed (and gives no facts).
        """
        cached = self._name_uses.get(module)
        if cached is not None:
            return cached
        path = self.path_of(module)
        if path is None:
            return ()
        from layering.adapters.source_facts import parse_name_uses

        raws = (
            self._sources.facts(path, parse_name_uses)
            if wanted is None
            else self._sources.facts_if(path, parse_name_uses, wanted)
        )
        if raws is None:
            return ()
        display = self.settings.display_path(path)
        facts = sorted(f for raw in raws for f in self._resolve_use(module, path, display, raw))
        if self.settings.exclude_type_checking_imports:
            facts = [f for f in facts if not f.type_checking]
        self._name_uses[module] = tuple(facts)
        return self._name_uses[module]

    def _resolve_use(
        self, importer: str, path: str, display: str, raw: RawNameUse
    ) -> list[ImportFact]:
        if raw.binding is None:
            bound: list[str] = []
        elif raw.binding.name is None:
            bound = (raw.binding.module or "").split(".")
        else:
            base = self._absolute(importer, path, raw.binding)
            if base is None:
                return []
            bound = [*base.split("."), raw.binding.name]
        segments = [*bound, *(n.name for n in raw.attributes)]
        facts = []
        for position in range(max(len(bound), 1), len(segments)):
            owner = ".".join(segments[:position])
            if self.is_internal(owner) and not self.is_module(owner):
                break  # names read on a class or a value, not on a module
            used = raw.attributes[position - len(bound)]
            dotted = f"{owner}.{used.name}"
            facts.append(
                ImportFact(
                    path=display,
                    line=used.line,
                    importer=importer,
                    imported=dotted
                    if self.is_internal(dotted) and self.is_module(dotted)
                    else owner,
                    module=owner,
                    name=used.name,
                    first_line=used.line,
                    last_line=used.line,
                    scope=raw.scope,
                    in_function=raw.in_function,
                    type_checking=raw.type_checking,
                    use=raw.use,
                )
            )
        return facts

    def is_typing_only(self, fact: ImportFact) -> bool:
        """Whether `fact` is an import whose name is used, and used only, in annotations that
        are not evaluated at run time (`adapters.typing_only`): one only type checkers need.
        A file this Python cannot parse has none."""
        if fact.use is not NameUse.IMPORT:
            return False
        if fact.importer not in self._typing_only:
            path = self.path_of(fact.importer)
            found: frozenset[tuple[int, str]] = frozenset()
            if path is not None:
                from layering.adapters.typing_only import typing_only_imports

                try:
                    found = self._sources.facts(path, typing_only_imports)
                except SourceUnreadable:
                    pass
            self._typing_only[fact.importer] = found
        written = fact.module if fact.name is None else fact.name
        return (fact.line, written) in self._typing_only[fact.importer]

    def defined_names(self, module: str) -> frozenset[str] | None:
        """The names an internal module binds at module level, its submodules included; None
        where the source cannot tell (an external module, a star import, `__getattr__`, a
        file that cannot be read: the contracts that read it say so)."""
        path = self.path_of(module)
        if path is None:
            return None
        from layering.adapters.source_facts import module_bindings

        try:
            bindings = self._sources.facts(path, module_bindings)
        except SourceUnreadable:
            return None
        if not bindings.complete:
            return None
        prefix = module + "."
        children = {m[len(prefix) :] for m in self.descendants(module)}
        return bindings.names | {child for child in children if "." not in child}

    def exports_of(self, module: str) -> ExportsReading | None:
        """What `module`'s source says of its `__all__`, the modules whose `__all__` it adds
        resolved against the package; None for a module that is not the package's. The file
        counts as read for names (verdicts that depend on it are keyed by its content)."""
        if module in self._exports:
            return self._exports[module]
        path = self.path_of(module)
        reading = None
        if path is not None:
            reading = self._read_exports(module, path)
        self._exports[module] = reading
        return reading

    def _read_exports(self, module: str, path: str) -> ExportsReading:
        from layering.adapters.source_facts import module_exports

        display = self.settings.display_path(path)
        try:
            raw = self._sources.facts(path, module_exports)
        except SourceUnreadable as unreadable:
            return ExportsReading(display, line=1, unreadable=(1, unreadable.reason))
        others = []
        for line, binding, attributes in raw.others:
            base = self._absolute(module, path, binding)
            if base is None:
                return ExportsReading(
                    display, line=raw.line, unreadable=(line, "a relative import beyond the top")
                )
            parts = [base] if binding.name is None else [base, binding.name]
            others.append((line, ".".join([*parts, *attributes])))
        return ExportsReading(display, raw.names, tuple(others), raw.line, raw.unreadable)

    def top_level_names(self, module: str) -> ModuleNames | None:
        """How an internal module binds its top-level names, each import resolved against the
        package (`domain.reexports`); None for a module outside the package or a file that
        cannot be read. Read once per run; the file counts as read (its content keys a cached
        verdict that depends on it)."""
        if module in self._top_level:
            return self._top_level[module]
        path = self.path_of(module)
        names = None
        if path is not None:
            from layering.adapters.source_facts import top_level_names

            try:
                raw = self._sources.facts(path, top_level_names)
            except SourceUnreadable:
                raw = None
            if raw is not None:
                whole, imported = set(raw.whole), {}
                for name, binding in raw.taken.items():
                    base = self._absolute(module, path, binding)
                    if base is None or binding.name is None:
                        continue
                    if self.is_module(f"{base}.{binding.name}"):
                        whole.add(name)
                    elif self.is_internal(base) and self.is_module(base):
                        imported[name] = (base, binding.name)
                names = ModuleNames(raw.defined, frozenset(whole), imported, raw.complete)
        self._top_level[module] = names
        return names

    @cached_property
    def graph(self) -> Any:
        """The graph of the root packages (grimp's, by default), with external packages
        squashed."""
        self.root_locations  # noqa: B018 - a missing root: a located error
        graph = self._graphs.build(
            GraphRequest(
                root_packages=self.settings.root_packages,
                source_roots=self.settings.source_roots,
                files=self.package_files,
                exclude_type_checking_imports=self.settings.exclude_type_checking_imports,
                include_external_packages=self.include_external_packages,
                reach=self.graph_reach,
                cache_dir=self.graph_cache_dir,
                digests=self._digests,
                readings=self.readings if self.use_cache else None,
                warnings=self._graph_warnings,
            )
        )
        if self.settings.exclude or self.excluded:  # a graph read the public way walks them all
            for module in [
                m for m in graph.modules if m in self.excluded or self.settings.excludes(m)
            ]:
                graph.remove_module(module)
        return graph

    @property
    def graph_built(self) -> bool:
        """Whether this run has built the graph (asking `graph` would build it)."""
        return "graph" in self.__dict__

    def modules_read(self) -> set[str]:
        """The modules whose source this run read for import statements or names."""
        by_path = {path: module for module, path in self.package_files.files.items()}
        read = (
            set(self._facts)
            | set(self._executed)
            | set(self._name_uses)
            | set(self._typing_only)
            | {m for m, r in self._exports.items() if r is not None}
            | set(self._top_level)
        )
        return read | {by_path[p] for p in self._statements if p in by_path}

    @property
    def graph_cache_dir(self) -> str | None:
        """grimp's own cache, inside ours, one per way of reading the files: grimp keeps one
        record of file times per package, which two ways of reading would overwrite for each
        other (a file read anew one way would then be taken as read the other way too)."""
        if not (self.use_cache and self.settings.cache_dir):
            return None
        externals = "-external" if self.include_external_packages else ""
        type_checking = "-no-type-checking" if self.settings.exclude_type_checking_imports else ""
        return os.path.join(self.settings.cache_dir, f"grimp{externals}{type_checking}")

    def discard_graph_cache(self) -> None:
        """Drop grimp's caches, every way of reading: the module set changed."""
        import shutil

        if not (self.use_cache and self.settings.cache_dir):
            return
        try:
            names = os.listdir(self.settings.cache_dir)
        except OSError:
            return
        for name in names:
            if name == "grimp" or name.startswith("grimp-"):
                shutil.rmtree(os.path.join(self.settings.cache_dir, name), ignore_errors=True)

    def graph_shares(self, users: int) -> GraphShares:
        """A graph for each of `users` contracts, which each may change alone (`GraphShares`);
        a graph to be drawn is one more user, which keeps the graph itself."""
        return GraphShares(self, users + 1 if self.draws_graph else users)

    def _resolve(self, importer: str, path: str, display: str, raw: RawImport) -> list[ImportFact]:
        fact = functools.partial(
            ImportFact,
            path=display,
            importer=importer,
            first_line=raw.first_line,
            last_line=raw.last_line,
            scope=raw.scope,
            in_function=raw.in_function,
            type_checking=raw.type_checking,
            lazy=raw.lazy,
            conditional=raw.conditional,
        )
        excludes = self.settings.excludes
        if not raw.is_from:
            return [
                fact(line=n.line, imported=self._nearest_module(n.name), module=n.name, name=None)
                for n in raw.names
                if not excludes(n.name)
            ]
        base = self._absolute(importer, path, raw)
        if base is None or excludes(base):
            return []
        facts = []
        for n in raw.names:
            candidate = f"{base}.{n.name}"
            if excludes(candidate):
                continue
            imported = candidate if self.is_module(candidate) else self._nearest_module(base)
            facts.append(fact(line=n.line, imported=imported, module=base, name=n.name))
        return facts

    def _absolute(self, importer: str, path: str, raw: RawImport | RawBinding) -> str | None:
        """The absolute name of what an import statement (or the binding it made) names."""
        if raw.level == 0:
            return raw.module
        package = (
            importer if os.path.basename(path) == "__init__.py" else importer.rpartition(".")[0]
        )
        parts = package.split(".") if package else []
        if raw.level - 1 > len(parts) - 1:
            return None
        parts = parts[: len(parts) - (raw.level - 1)]
        if raw.module:
            parts.append(raw.module)
        return ".".join(parts) or None

    def _nearest_module(self, name: str) -> str:
        """The module itself if internal and known, else its nearest known ancestor; externals as
        written."""
        if not self.is_internal(name):
            return name
        parts = name.split(".")
        while parts:
            candidate = ".".join(parts)
            if self.is_module(candidate):
                return candidate
            parts.pop()
        return name


class GraphShares:
    """The graph, handed to the contracts a caller decides, each one's own to change (a
    contract takes its ignored imports out of it): a copy for each but the last, which gets the
    graph itself, since no one looks at it afterwards (a large graph is slow to copy: 24 ms on
    homeassistant). The caller says up front how many will take one."""

    def __init__(self, evidence: Evidence, users: int) -> None:
        self._evidence = evidence
        self._left = users

    def take(self) -> Any:
        """The next contract's graph (built on first use: SourceUnreadable where a file it
        needs cannot be read, for every contract that takes one)."""
        graph = self._evidence.graph
        self._left -= 1
        if self._left <= 0:
            return graph
        import copy

        return copy.deepcopy(graph)


def _is_installed(top_level: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(top_level) is not None
    except (ImportError, ValueError):
        return False


__all__ = ["Evidence", "GraphShares", "SourceUnreadable"]
