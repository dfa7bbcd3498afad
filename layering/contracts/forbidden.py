"""`forbidden`: source modules must not import forbidden modules, directly or through a chain."""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from layering.contracts._common import (
    Contract,
    Decision,
    Findings,
    OptionError,
    import_expression,
    matching_edges,
    option,
    statement_violations,
)
from layering.contracts._names import (
    name_findings,
    parse_name_targets,
    redundant_targets,
    require_target_modules,
    stale_target_notes,
)
from layering.domain.allowances import record_use
from layering.domain.chains import ChainGraph
from layering.domain.codes import DIRECT_IMPORT, FORBIDDEN_NAME, INDIRECT_IMPORT
from layering.domain.errors import Problem
from layering.domain.facts import ImportFact
from layering.domain.patterns import ModulePattern, is_within, packages_of
from layering.domain.results import Violation
from layering.engine.reach import ChainPair

if TYPE_CHECKING:
    from layering.adapters.grimp_graph import ImportGraph
    from layering.domain.name_targets import NameTarget
    from layering.engine.evidence import Evidence


class ForbiddenContract(Contract):
    """`source_modules` must not import `forbidden_modules`, nor take `forbidden_names`.

    Takes every option of import-linter's `forbidden` contract, with its verdicts, plus `allow`:
        source_modules:         modules that must not import the forbidden ones (patterns).
        forbidden_modules:      modules they must not import; external packages too (`grpc`).
        forbidden_names:        names they must not take from a module, which they may still
                                import: { module = "...", names = [...] } tables (names take
                                `*`: "_*"). Importing one, or using it on the module imported
                                whole (`mod.name`, getattr, a patch), is a finding; a name the
                                module no longer defines is a note. A contract needs
                                forbidden_modules, forbidden_names, or both.
        allow_indirect_imports: only direct imports count (default false: chains count too).
        ignore_imports:         import-linter's "importer -> imported" expressions, removed
                                from the graph before checking.
        unmatched_ignore_imports_alerting: "error" (default), "warn" or "none".
        as_packages:            treat each module as its package, descendants included
                                (default true).
        allow:                  allowances that only shrink: "importer -> module" strings and
                                { importer = "...", module = "...", names = [...] } tables.
        broken_contract_guidance: text shown under the violations.

    Example:
        [[contracts]]
        name = "The disaggregated modules do not import the Responses implementation"
        type = "forbidden"
        source_modules = ["tensorrt_llm.serve.openai_client", "tensorrt_llm.serve.router"]
        forbidden_modules = ["tensorrt_llm.serve.responses_utils"]
        allow_indirect_imports = true

        [[contracts]]
        name = "The stream lifecycle is taken from _base.responses_stream, never from
        responses_utils"
        type = "forbidden"
        source_modules = ["tensorrt_llm"]
        forbidden_names = [
          { module = "tensorrt_llm.serve.responses_utils", names = ["guard_responses_stream"] },
        ]
    """

    type_name = "forbidden"
    baseline_option = "allow"
    takes_known_chains = True
    options = {
        "source_modules": option(
            "patterns_or_classes", "modules that must not import", required=True
        ),
        "forbidden_modules": option(
            "patterns_or_classes", "modules they must not import", default=()
        ),
        "forbidden_names": option("raw", "names they must not take from a module", default=[]),
        "allow_indirect_imports": option("boolean", "only direct imports count", default=False),
        "ignore_imports": option("raw", "imports left out of the graph", default=[]),
        "unmatched_ignore_imports_alerting": option(
            "string", "error, warn or none", default="error"
        ),
        "as_packages": option("boolean", "modules are packages", default=True),
        "unchecked": option(
            "patterns", "modules that are hops, never the importer of a finding", default=()
        ),
        "allow": option("raw", "known exceptions (only shrink)", default=[]),
        "broken_contract_guidance": option("text", "text shown when broken", default=""),
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        raw = self.values.get("ignore_imports") or []
        self.ignored: tuple[tuple[ModulePattern, ModulePattern], ...] = ()
        for index, entry in enumerate(
            [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else [raw]
        ):
            try:
                self.ignored += (import_expression(entry),)
            except OptionError as error:
                self.problems.append(
                    Problem(
                        self.settings.path,
                        self.spec.line_of_entry("ignore_imports", index),
                        f"contract '{self.name}', option 'ignore_imports': {error}",
                    )
                )
        self.name_targets = self._read_name_targets()
        alerting = self.values.get("unmatched_ignore_imports_alerting")
        if alerting not in ("error", "warn", "none"):
            self.problem(
                "unmatched_ignore_imports_alerting",
                f"contract '{self.name}': unmatched_ignore_imports_alerting must be error, warn "
                "or none",
            )

    def _read_options(self, raw: dict[str, Any]) -> None:
        """In an import-linter configuration, blank entries of the module lists are skipped, as
        import-linter's reader skips them, and a list left empty (`forbidden_modules =`) is a
        contract that cannot fail, which `lint-imports` keeps."""
        if self.settings.is_importlinter:
            raw = dict(raw)
            for key in ("source_modules", "forbidden_modules"):
                value = raw.get(key)
                if not isinstance(value, (str, list)):
                    continue
                listed = [
                    v
                    for v in ([value] if isinstance(value, str) else value)
                    if not (isinstance(v, str) and not v.strip())
                ]
                if listed:
                    raw[key] = listed
                    continue
                self.values[key] = ()
                self.refused_in_own_format(
                    Problem(
                        self.settings.path,
                        self.spec.line_of(key),
                        f"contract '{self.name}': '{key}' lists no module: a contract that cannot "
                        "fail",
                    )
                )
        super()._read_options(raw)

    def _read_name_targets(self) -> tuple[NameTarget, ...]:
        """`forbidden_names`, checked against the rest: a contract names modules, names, or
        both."""
        raw = self.spec.options
        if "forbidden_modules" not in raw and "forbidden_names" not in raw:
            self.problem(
                "type",
                f"contract '{self.name}': missing required option 'forbidden_modules' or "
                "'forbidden_names' (or both)",
            )
        if "forbidden_names" not in raw:
            return ()
        try:
            targets = parse_name_targets(raw["forbidden_names"])
        except OptionError as error:
            self.problem(
                "forbidden_names", f"contract '{self.name}', option 'forbidden_names': {error}"
            )
            return ()
        if "forbidden_modules" not in raw and raw.get("ignore_imports"):
            self.problem(
                "ignore_imports",
                f"contract '{self.name}': ignore_imports leaves imports out of the graph of "
                "forbidden_modules, which this contract does not have",
                hint='excuse a name-level finding with allow = [{ importer = "...", module = '
                '"...", names = [...] }]',
            )
        redundant_targets(
            self,
            "forbidden_names",
            self.values.get("forbidden_modules") or (),
            targets,
            self.values.get("as_packages", True),
        )
        return targets

    def validate(self, evidence: Evidence) -> None:
        if self.known_chains and not self.needs_graph:
            self.problem(
                "known_chains",
                f"contract '{self.name}': known_chains excuse chains, and this contract checks "
                "direct imports only (allow_indirect_imports = true)",
                hint='excuse a direct import with allow = ["importer -> module"]',
            )
        require_target_modules(self, evidence, "forbidden_names", self.name_targets)
        self.require_matches(evidence, "source_modules", self.values["source_modules"])
        self.require_matches(evidence, "unchecked", self.values["unchecked"])
        self.require_matches(
            evidence, "forbidden_modules", self.values["forbidden_modules"], external_ok=True
        )
        if self.needs_graph:
            for pattern in self.values["forbidden_modules"]:
                if not evidence.is_internal(pattern.text) and pattern.text != pattern.top_level:
                    self.problem(
                        "forbidden_modules",
                        f"contract '{self.name}': '{pattern}' is part of an external package; the "
                        "graph keeps "
                        "external packages whole, so chains can only lead to "
                        f"'{pattern.top_level}'",
                        hint=f"forbid '{pattern.top_level}', or set allow_indirect_imports = true "
                        f"to check direct imports of '{pattern}'",
                    )

    @property
    def needs_graph(self) -> bool:
        return bool(self.values.get("forbidden_modules")) and not self.values.get(
            "allow_indirect_imports", False
        )

    def graph_reach(self, evidence: Evidence) -> tuple[set[str], set[str]] | None:
        """Chains start at the sources, so only what they reach matters; the importers an
        ignored import or an allowance names are read too, to tell whether it still matches."""
        starts = set()
        for source in self._sources(evidence):
            starts.add(source)
            if self.values["as_packages"]:
                starts.update(evidence.descendants(source))
        also = evidence.expand_all(
            [importer for importer, _ in self.ignored]
            + [a.importer for a in self.allowances if a.importer is not None]
        )
        return starts, set(also)

    def chain_pairs(self, evidence: Evidence, graph: ImportGraph) -> list[ChainPair] | None:
        """One pair per group of sources checked against the same forbidden modules; None for
        a class of external modules, which an edit can add a module to (a new import of one)."""
        if any(p.names_external_class for p in self.values["forbidden_modules"]):
            return None
        return [
            ChainPair(tuple(sources), tuple(targets), self.values["as_packages"])
            for sources, targets in self._pairings(
                self._sources(evidence), self._forbidden(evidence)
            )
        ]

    def importer_patterns(self) -> tuple[ModulePattern, ...] | None:
        named = super().importer_patterns()
        return None if named is None else tuple(a for a, _ in self.ignored) + named

    @property
    def reads_names(self) -> bool:
        """Forbidden names are read from the source, and so are the statements an allowance may
        excuse (a name of a module, or a module's name that is no module)."""
        return bool(self.name_targets or self.allowances)

    def needs_external_packages(self, evidence: Evidence) -> bool:
        return any(
            p.names_external_class or (not p.is_class and not evidence.is_internal(p.text))
            for p in self.values["forbidden_modules"]
        )

    def _sources(self, evidence: Evidence) -> list[str]:
        return evidence.expand_all(self.values["source_modules"])

    def _forbidden(self, evidence: Evidence, graph: ImportGraph | None = None) -> list[str]:
        """The forbidden modules: the package's that the patterns match, an external package a
        pattern names, and those of `graph`'s external packages a class of modules holds."""
        found: set[str] = set()
        expanded = evidence.expand_each(self.values["forbidden_modules"])
        for pattern in self.values["forbidden_modules"]:
            matched = expanded[pattern]
            if pattern.names_external_class:
                if graph is not None:
                    found.update(
                        m
                        for m in graph.modules
                        if not evidence.is_internal(m) and pattern.matches(m)
                    )
                continue
            found.update(matched if matched else [pattern.text])
        return sorted(found)

    def _overlap(self, source: str, forbidden: str) -> bool:
        if source == forbidden:
            return True
        return self.values["as_packages"] and (
            is_within(source, forbidden) or is_within(forbidden, source)
        )

    def find(
        self, evidence: Evidence, found: Findings, graph: ImportGraph | None
    ) -> list[Violation]:
        violations = self._find_names(evidence, found)
        if not self.values["forbidden_modules"]:
            return violations
        if self.needs_graph:
            assert graph is not None, "a contract that needs_graph is handed a graph"
            return violations + self._find_chains(evidence, found, graph)
        return violations + self._find_direct(evidence, found)

    def _find_names(self, evidence: Evidence, found: Findings) -> list[Violation]:
        """Each statement or use of a source module that takes a forbidden name (LY005)."""
        if not self.name_targets:
            return []
        importers = set()
        for source in self._sources(evidence):
            importers.add(source)
            if self.values["as_packages"]:
                importers.update(evidence.descendants(source))
        return name_findings(
            evidence,
            sorted(importers),
            self.name_targets,
            FORBIDDEN_NAME,
            lambda fact: self.skips(fact, found, evidence),
        )

    def warnings(self, evidence: Evidence, decision: Decision | None) -> list[str]:
        return super().warnings(evidence, decision) + stale_target_notes(
            self, evidence, "forbidden_names", self.name_targets
        )

    def _find_direct(self, evidence: Evidence, found: Findings) -> list[Violation]:
        as_packages = self.values["as_packages"]
        forbidden = set(self._forbidden(evidence))
        ordered = sorted(forbidden)
        # The test of a file's text, once per set of forbidden modules sources are not checked
        # against (those they are or lie in or hold).
        spelling: dict[frozenset[str], _Spells | None] = {}
        matched_ignores, ignored_edges = self._ignored_anywhere(evidence)
        found.ignored_imports = len(ignored_edges)
        classes = [p for p in self.values["forbidden_modules"] if p.names_external_class]
        taken = []
        for source in self._sources(evidence):
            importers = [source, *evidence.descendants(source)] if as_packages else [source]
            overlapping = self._overlapping(source, ordered, forbidden)
            if overlapping not in spelling:
                spelling[overlapping] = _spelling(
                    [f for f in ordered if f not in overlapping], classes
                )
            for importer in importers:
                for fact in evidence.facts_of(importer, spelling[overlapping]):
                    if not self._imports_forbidden(fact, source, forbidden, evidence) and not any(
                        p.matches(fact.imported) for p in classes
                    ):
                        continue
                    if (
                        fact.importer,
                        _as_the_graph_has_it(evidence, fact.imported),
                    ) in ignored_edges:
                        continue
                    if self.skips(fact, found, evidence):
                        continue
                    taken.append(fact)
        return statement_violations(sorted(set(taken)), DIRECT_IMPORT) + self._unmatched_ignores(
            matched_ignores, found
        )

    def _ignored_anywhere(self, evidence: Evidence) -> tuple[set[int], set[tuple[str, str]]]:
        """The positions of the ignored imports that match an import of the package, and the
        imports they match: anywhere, not only from the sources, as import-linter takes them out
        of the whole graph (and counts them)."""
        matched: set[int] = set()
        edges: set[tuple[str, str]] = set()
        expanded = evidence.expand_each([a for a, _ in self.ignored])
        for position, (a, b) in enumerate(self.ignored):
            for importer in expanded[a]:
                for fact in evidence.facts_of(importer):
                    imported = _as_the_graph_has_it(evidence, fact.imported)
                    if b.matches(imported):
                        matched.add(position)
                        edges.add((fact.importer, imported))
        return matched, edges

    def _imports_forbidden(
        self, fact: ImportFact, source: str, forbidden: set[str], evidence: Evidence
    ) -> bool:
        """Whether `fact` imports one of `forbidden` that `source` is checked against: one
        that `fact`'s module or its `<module>.<name>` is, or lies within."""
        named = {fact.imported, *packages_of(fact.imported)}
        if fact.name is not None:
            named.update((fact.dotted, *packages_of(fact.dotted)))
        return any(
            self._hits(fact, f, evidence)
            for f in named & forbidden
            if not self._overlap(source, f)
        )

    def _hits(self, fact: ImportFact, forbidden: str, evidence: Evidence) -> bool:
        """Whether `fact` imports `forbidden`; of an external package, `from os import path`
        may import the submodule `os.path`, which only the package's own files could tell."""
        if not evidence.is_internal(forbidden):
            return is_within(fact.imported, forbidden) or (
                fact.name is not None and is_within(fact.dotted, forbidden)
            )
        if self.values["as_packages"]:
            return is_within(fact.imported, forbidden)
        return fact.imported == forbidden

    def _unmatched_ignores(self, matched: set[int], found: Findings) -> list[Violation]:
        return self.stale_ignores(
            [(i, f"{a} -> {b}") for i, (a, b) in enumerate(self.ignored) if i not in matched],
            found,
        )

    def _find_chains(
        self, evidence: Evidence, found: Findings, graph: ImportGraph
    ) -> list[Violation]:
        as_packages = self.values["as_packages"]
        removed: list[tuple[str, str]] = []
        matched_ignores: set[int] = set()
        for position, (a, b) in enumerate(self.ignored):
            for importer, imported in matching_edges(graph, a, b):
                matched_ignores.add(position)
                removed.append((importer, imported))
        for importer, imported in removed:
            if graph.direct_import_exists(importer=importer, imported=imported):
                graph.remove_import(importer=importer, imported=imported)
        sources = self._sources(evidence)
        forbidden = [f for f in self._forbidden(evidence, graph) if f in graph.modules]
        relevant = (
            _relevant_edges(graph, sources, forbidden, as_packages) if self.allowances else set()
        )
        partially_excused: dict[tuple[str, str], list[ImportFact]] = {}
        for importer, imported in sorted(relevant):
            candidates = self.allowance_index.of_importer(importer)
            if not candidates:
                continue  # read the statements of an edge only when an allowance may excuse it
            facts = found.counted_facts.get((importer, imported)) or evidence.facts_between(
                importer, imported
            )
            excusing = False
            for allowance in candidates:
                excused = [f for f in facts if allowance.excuses(f)]
                if not excused and not (not facts and allowance.excuses_edge(importer, imported)):
                    continue
                excusing = True
                found.used.add(allowance)
                for fact in excused:
                    record_use(found.used, allowance, fact)
            if not excusing:
                continue
            remaining = [f for f in facts if not self.allowance_index.excusing(f)]
            if remaining:
                partially_excused[(importer, imported)] = remaining
            elif graph.direct_import_exists(importer=importer, imported=imported):
                graph.remove_import(importer=importer, imported=imported)
        for allowance in self.allowances:
            if allowance not in found.used and allowance.importer is not None:
                if matching_edges(graph, allowance.importer, allowance.module):
                    found.off_chain.add(allowance)
        shown_facts = {**found.counted_facts, **partially_excused}
        unchecked = {m for m in graph.modules if self.is_unchecked(m)}
        chain_graph = ChainGraph(evidence.imports_of(graph))
        violations: list[Violation] = []
        for group_sources, targets in self._pairings(sources, forbidden):
            source_members = _members_of_all(graph, group_sources, as_packages) - unchecked
            target_members = _members_of_all(graph, targets, as_packages)
            groups = self.chain_groups_between(
                evidence,
                found,
                chain_graph,
                (source_members, target_members, set()),
                (
                    self._label(group_sources, sources, "source_modules"),
                    self._label(targets, forbidden, "forbidden_modules"),
                ),
                lambda edge: (
                    DIRECT_IMPORT
                    if edge[0] in source_members and edge[1] in target_members
                    else INDIRECT_IMPORT
                ),
                shown_facts,
                uncuttable=unchecked,
            )
            violations.extend(v for group in groups for cut in group.cut for v in cut.statements)
        violations.extend(self._unmatched_ignores(matched_ignores, found))
        found.ignored_imports = len(set(removed))
        return violations

    def _pairings(
        self, sources: list[str], forbidden: list[str]
    ) -> list[tuple[list[str], list[str]]]:
        """Sources grouped by the forbidden modules they are checked against (a source is never
        checked against a forbidden module it contains or lies in): one cut per group."""
        among = set(forbidden)
        by_overlap: dict[frozenset[str], list[str]] = {}
        for source in sources:
            by_overlap.setdefault(self._overlapping(source, forbidden, among), []).append(source)
        groups = []
        for overlapping, members in by_overlap.items():
            targets = [t for t in forbidden if t not in overlapping]
            if targets:
                groups.append((members, targets))
        return sorted(groups)

    def _overlapping(self, source: str, forbidden: list[str], among: set[str]) -> frozenset[str]:
        """The modules of `forbidden` (sorted; `among` as a set) that `source` is not checked
        against (`_overlap`): itself, and as packages, those it lies in and those in it."""
        if not self.values["as_packages"]:
            return frozenset({source} & among)
        below = source + "."
        end = start = bisect_left(forbidden, below)
        while end < len(forbidden) and forbidden[end].startswith(below):
            end += 1
        return frozenset({source, *packages_of(source)} & among).union(forbidden[start:end])

    def _label(self, modules: list[str], every: list[str], option: str) -> str:
        """How a report names a group: as the contract names it when the group is all of it."""
        if modules == every:
            return ", ".join(p.text for p in self.values[option])
        return ", ".join(modules)


def _as_the_graph_has_it(evidence: Evidence, imported: str) -> str:
    """An imported module as the graph names it: an external package squashed to its top level."""
    return imported if evidence.is_internal(imported) else imported.partition(".")[0]


def _members(graph: ImportGraph, module: str, as_package: bool) -> set[str]:
    return {module, *_descendants(graph, module)} if as_package else {module}


def _members_of_all(graph: ImportGraph, modules: list[str], as_package: bool) -> set[str]:
    return {m for module in modules for m in _members(graph, module, as_package)}


def _relevant_edges(
    graph: ImportGraph, sources: list[str], forbidden: list[str], as_packages: bool
) -> set[tuple[str, str]]:
    """Edges that lie on some path from a source to a forbidden module: from a module the sources
    reach to one that reaches a forbidden module (grimp's upstream modules of M are those M
    imports, its downstream ones those that import M)."""
    reached: set[str] = set()
    for source in sources:
        reached.add(source)
        reached.update(graph.find_upstream_modules(source, as_package=as_packages))
        if as_packages:
            reached.update(_descendants(graph, source))
    reaching: set[str] = set()
    for target in forbidden:
        reaching.add(target)
        reaching.update(graph.find_downstream_modules(target, as_package=as_packages))
        if as_packages:
            reaching.update(_descendants(graph, target))
    edges = set()
    for module in reached:
        for target in graph.find_modules_directly_imported_by(module):
            if target in reaching:
                edges.add((module, target))
    return edges


def _descendants(graph: ImportGraph, module: str) -> set[str]:
    try:
        return set(graph.find_descendants(module))
    except ValueError:  # squashed external package: it has none
        return set()


def _spelling(targets: list[str], classes: list[ModulePattern]) -> _Spells | None:
    """The test a file's text must pass to be read for `targets`; None where a class of modules
    or a wildcard is forbidden, which has no last name to spell."""
    if classes or any("*" in f for f in targets):
        return None
    return _Spells(tuple(sorted({_last(f) for f in targets})))


@dataclass(frozen=True)
class _Spells:
    """A text with an import statement that spells one of `words` as a name: a statement that
    imports a module from outside it spells the module's last name (`import a.b`, `from a
    import b`, `from ..b import c`: a relative import resolves only the packages above the
    file, and the file is not in the module), so a file none of whose statements spells one of
    its forbidden modules' last names imports none of them."""

    words: tuple[str, ...]

    @property
    def key(self) -> tuple[object, ...]:
        return ("spells", *self.words)

    @cached_property
    def _names(self) -> frozenset[str]:
        """The words of word characters only: a statement spells one exactly where it is one of
        the statement's runs of word characters, which a set answers for thousands of words."""
        return frozenset(w for w in self.words if _NAME.fullmatch(w))

    @cached_property
    def _others(self) -> tuple[str, ...]:
        return tuple(w for w in self.words if not _NAME.fullmatch(w))

    def __call__(self, text: str) -> bool:
        statements = [m.group() for m in _IMPORT_STATEMENT.finditer(text)]
        if any(not self._names.isdisjoint(_NAME.findall(s)) for s in statements):
            return True
        present = [w for w in self._others if w in text]
        if not present:
            return False
        named = re.compile(r"\b(?:" + "|".join(map(re.escape, present)) + r")\b")
        return any(named.search(statement) for statement in statements)


_IMPORT_STATEMENT = re.compile(
    r"\bfrom\s+[\w.]*\s+import\s*(?:\([^)]*\)|(?:[^\n;\\]|\\.)*)|\bimport\s(?:[^\n;\\]|\\.)*",
    re.S,
)
"""Every import statement's text, and more (a match in a string or a comment is harmless): the
rest of its logical line, or its parenthesised names, backslash continuations included."""


_NAME = re.compile(r"\w+")


def _last(module: str) -> str:
    return module.rpartition(".")[2]
