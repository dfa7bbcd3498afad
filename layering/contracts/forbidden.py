"""`forbidden`: source modules must not import forbidden modules, directly or through a chain."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from layering.contracts._common import STALE_ALLOWANCE, Contract, OptionError, fact_violation, option
from layering.domain.allowances import Allowance
from layering.domain.errors import Problem
from layering.domain.facts import ImportFact
from layering.domain.patterns import ModulePattern, is_within
from layering.domain.results import Hop, StaleEntry, Violation

if TYPE_CHECKING:
    from layering.engine.evidence import Evidence

DIRECT_IMPORT = "LY001"
INDIRECT_IMPORT = "LY002"


def _import_expression(value: Any) -> tuple[ModulePattern, ModulePattern]:
    if not isinstance(value, str) or "->" not in value:
        raise OptionError(f"{value!r}: an ignored import is written 'importer -> imported'")
    importer, _, imported = value.partition("->")
    try:
        return ModulePattern.parse(importer.strip()), ModulePattern.parse(imported.strip())
    except ValueError as error:
        raise OptionError(str(error)) from None




class ForbiddenContract(Contract):
    """`source_modules` must not import `forbidden_modules`.

    Takes every option of import-linter's `forbidden` contract, with its verdicts, plus `allow`:
        source_modules:         modules that must not import the forbidden ones (patterns).
        forbidden_modules:      modules they must not import; external packages too (`grpc`).
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
    """

    type_name = "forbidden"
    options = {
        "source_modules": option("patterns", "modules that must not import", required=True),
        "forbidden_modules": option("patterns", "modules they must not import", required=True),
        "allow_indirect_imports": option("boolean", "only direct imports count", default=False),
        "ignore_imports": option("raw", "imports left out of the graph", default=[]),
        "unmatched_ignore_imports_alerting": option("string", "error, warn or none", default="error"),
        "as_packages": option("boolean", "modules are packages", default=True),
        "allow": option("raw", "known exceptions (only shrink)", default=[]),
        "broken_contract_guidance": option("text", "text shown when broken", default=""),
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.unmatched_warnings: list[str] = []
        super().__init__(*args, **kwargs)
        raw = self.values.get("ignore_imports") or []
        self.ignored: tuple[tuple[ModulePattern, ModulePattern], ...] = ()
        self.ignored_lines: tuple[int, ...] = ()
        for index, entry in enumerate([raw] if isinstance(raw, str) else raw if isinstance(raw, list) else [raw]):
            try:
                self.ignored += (_import_expression(entry),)
                self.ignored_lines += (self.spec.line_of_entry("ignore_imports", index),)
            except OptionError as error:
                self.problems.append(
                    Problem(self.settings.path, self.spec.line_of_entry("ignore_imports", index), f"contract '{self.name}', option 'ignore_imports': {error}")
                )
        alerting = self.values.get("unmatched_ignore_imports_alerting")
        if alerting not in ("error", "warn", "none"):
            self.problem(
                "unmatched_ignore_imports_alerting",
                f"contract '{self.name}': unmatched_ignore_imports_alerting must be error, warn or none",
            )

    def validate(self, evidence: "Evidence") -> None:
        self.require_matches(evidence, "source_modules", self.values["source_modules"])
        self.require_matches(evidence, "forbidden_modules", self.values["forbidden_modules"], external_ok=True)
        if self.needs_graph:
            for pattern in self.values["forbidden_modules"]:
                if not evidence.is_internal(pattern.text) and pattern.text != pattern.top_level:
                    self.problem(
                        "forbidden_modules",
                        f"contract '{self.name}': '{pattern}' is part of an external package; the graph keeps "
                        f"external packages whole, so chains can only lead to '{pattern.top_level}'",
                        hint=f"forbid '{pattern.top_level}', or set allow_indirect_imports = true to check direct imports of '{pattern}'",
                    )

    @property  # type: ignore[override]
    def needs_graph(self) -> bool:
        return not self.values.get("allow_indirect_imports", False)

    def needs_external_packages(self, evidence: "Evidence") -> bool:
        return any(not evidence.is_internal(p.text) for p in self.values["forbidden_modules"])

    def _sources(self, evidence: "Evidence") -> list[str]:
        return sorted({m for p in self.values["source_modules"] for m in evidence.expand(p)})

    def _forbidden(self, evidence: "Evidence") -> list[str]:
        found = set()
        for pattern in self.values["forbidden_modules"]:
            matched = evidence.expand(pattern)
            found.update(matched if matched else [pattern.text])
        return sorted(found)

    def _overlap(self, source: str, forbidden: str) -> bool:
        if source == forbidden:
            return True
        return self.values["as_packages"] and (is_within(source, forbidden) or is_within(forbidden, source))

    def _is_ignored(self, importer: str, imported: str) -> bool:
        return any(a.matches(importer) and b.matches(imported) for a, b in self.ignored)

    def notes(self) -> tuple[str, ...]:
        guidance = self.values.get("broken_contract_guidance")
        return (guidance,) if guidance else ()

    def evaluate(self, evidence: "Evidence", used: set[Allowance]) -> list[Violation]:
        if self.needs_graph:
            return self._evaluate_chains(evidence, used)
        return self._evaluate_direct(evidence, used)

    def _evaluate_direct(self, evidence: "Evidence", used: set[Allowance]) -> list[Violation]:
        as_packages = self.values["as_packages"]
        forbidden = self._forbidden(evidence)
        matched_ignores: set[int] = set()
        violations = []
        for source in self._sources(evidence):
            importers = [source, *evidence.descendants(source)] if as_packages else [source]
            targets = [f for f in forbidden if not self._overlap(source, f)]
            for importer in importers:
                for fact in evidence.facts_of(importer):
                    for position, (a, b) in enumerate(self.ignored):
                        if a.matches(fact.importer) and b.matches(fact.imported):
                            matched_ignores.add(position)
                    if not any(self._hits(fact.imported, f, evidence) for f in targets):
                        continue
                    if self._is_ignored(fact.importer, fact.imported):
                        continue
                    if self.excused(fact, used):
                        continue
                    violations.append(fact_violation(fact, DIRECT_IMPORT))
        violations.extend(self._unmatched_ignores(matched_ignores))
        return violations

    def _hits(self, imported: str, forbidden: str, evidence: "Evidence") -> bool:
        if self.values["as_packages"] or not evidence.is_internal(forbidden):
            return is_within(imported, forbidden)
        return imported == forbidden

    def _unmatched_ignores(self, matched: set[int]) -> list[Violation]:
        """Ignored imports that match nothing: findings ("error"), warnings ("warn") or nothing."""
        alerting = self.values.get("unmatched_ignore_imports_alerting")
        unmatched = [position for position in range(len(self.ignored)) if position not in matched]
        if alerting == "warn":
            where = self.settings.display_path(self.settings.path)
            self.unmatched_warnings = [
                f"{where}:{self.ignored_lines[p]}: contract '{self.name}': No matches for ignored import "
                f"{self.ignored[p][0]} -> {self.ignored[p][1]}."
                for p in unmatched
            ]
        if alerting != "error":
            return []
        violations = []
        for position in unmatched:
            a, b = self.ignored[position]
            self.stale_entries.append(StaleEntry("ignore_imports", position, f"{a} -> {b}"))
            violations.append(
                Violation(
                    path=self.settings.display_path(self.settings.path),
                    line=self.ignored_lines[position],
                    code=STALE_ALLOWANCE,
                    message=f"ignored import '{a} -> {b}' matches no import: remove it",
                )
            )
        return violations

    def warnings(self, evidence: "Evidence") -> list[str]:
        return super().warnings(evidence) + self.unmatched_warnings

    def _evaluate_chains(self, evidence: "Evidence", used: set[Allowance]) -> list[Violation]:
        graph = evidence.graph_copy()
        as_packages = self.values["as_packages"]
        removed: list[tuple[str, str]] = []
        matched_ignores: set[int] = set()
        for position, (a, b) in enumerate(self.ignored):
            for importer, imported in _matching_edges(graph, a, b):
                matched_ignores.add(position)
                removed.append((importer, imported))
        for importer, imported in removed:
            if graph.direct_import_exists(importer=importer, imported=imported):
                graph.remove_import(importer=importer, imported=imported)
        sources = self._sources(evidence)
        forbidden = [f for f in self._forbidden(evidence) if f in graph.modules]
        relevant = _relevant_edges(graph, sources, forbidden, as_packages) if self.allowances else set()
        partially_excused: dict[tuple[str, str], list[ImportFact]] = {}
        for allowance in self.allowances:
            for importer, imported in sorted(relevant):
                facts = evidence.facts_between(importer, imported)
                excused = [f for f in facts if allowance.excuses(f)] if facts else []
                if not excused and not (not facts and allowance.excuses_edge(importer, imported)):
                    continue
                used.add(allowance)
                remaining = [f for f in facts if not any(a.excuses(f) for a in self.allowances)]
                if remaining:
                    partially_excused[(importer, imported)] = remaining
                elif graph.direct_import_exists(importer=importer, imported=imported):
                    graph.remove_import(importer=importer, imported=imported)
        violations = []
        for source in sources:
            targets = [t for t in forbidden if not self._overlap(source, t)]
            for chain in shortest_chains(graph, _members(graph, source, as_packages), _members_of_all(graph, targets, as_packages)):
                violations.append(self._chain_violation(evidence, graph, chain, partially_excused))
        violations.extend(self._unmatched_ignores(matched_ignores))
        return violations

    def _chain_violation(self, evidence: "Evidence", graph: Any, chain: tuple[str, ...], partial: dict) -> Violation:
        hops = []
        for importer, imported in zip(chain, chain[1:]):
            facts = partial.get((importer, imported)) or evidence.facts_between(importer, imported)
            if facts:
                first = facts[0]
                hops.append(
                    Hop(
                        importer=importer,
                        imported=imported,
                        path=first.path,
                        line=first.line,
                        names=tuple(sorted({f.name for f in facts if f.name})),
                        qualifiers=first.qualifiers(),
                    )
                )
            else:
                details = graph.get_import_details(importer=importer, imported=imported)
                line = min((d["line_number"] for d in details), default=0)
                hops.append(Hop(importer, imported, evidence.display_path(importer), line))
        first = hops[0]
        if len(hops) == 1:
            return Violation(
                path=first.path, line=first.line, code=DIRECT_IMPORT,
                message=f"{chain[0]} imports {chain[-1]}" + (f" ({', '.join(first.names)})" if first.names else ""),
                importer=chain[0], imported=chain[-1], names=first.names, qualifiers=first.qualifiers,
                chain=tuple(hops),
            )
        return Violation(
            path=first.path, line=first.line, code=INDIRECT_IMPORT,
            message=f"{chain[0]} imports {chain[-1]} through {len(hops)} imports",
            importer=chain[0], imported=chain[-1], chain=tuple(hops),
        )


def _members(graph: Any, module: str, as_package: bool) -> set[str]:
    return {module, *_descendants(graph, module)} if as_package else {module}


def _members_of_all(graph: Any, modules: list[str], as_package: bool) -> set[str]:
    return {m for module in modules for m in _members(graph, module, as_package)}


def shortest_chains(graph: Any, sources: set[str], targets: set[str]) -> list[tuple[str, ...]]:
    """For each import of a source module that leads to a target, the shortest chain through it.

    Every import statement to fix is shown: each direct import of a target, and for each other
    module a source imports on the way to one, the alphabetically first shortest chain from
    there. Chains run outside both groups between their ends. A chain exists exactly when
    grimp's `find_shortest_chains` finds one (the same verdict), but these are the same chains
    every run, which keeps reports stable.
    """
    if not targets:
        return []
    distance = {t: 0 for t in targets}
    frontier = sorted(targets)
    while frontier:
        following = []
        for module in frontier:
            for importer in graph.find_modules_that_directly_import(module):
                if importer in distance or importer in sources:
                    continue
                distance[importer] = distance[module] + 1
                following.append(importer)
        frontier = sorted(following)
    chains = []
    for source in sorted(sources - targets):
        for first in sorted(graph.find_modules_directly_imported_by(source)):
            if first not in distance or first in sources:
                continue
            chain = [source, first]
            while distance[chain[-1]] > 0:
                chain.append(
                    min(
                        m
                        for m in graph.find_modules_directly_imported_by(chain[-1])
                        if distance.get(m) == distance[chain[-1]] - 1 and m not in sources
                    )
                )
            chains.append(tuple(chain))
    return chains


def _matching_edges(graph: Any, importer: ModulePattern, imported: ModulePattern) -> list[tuple[str, str]]:
    importers = [m for m in graph.modules if importer.matches(m)]
    edges = []
    for module in importers:
        for target in graph.find_modules_directly_imported_by(module):
            if imported.matches(target):
                edges.append((module, target))
    return sorted(edges)


def _relevant_edges(graph: Any, sources: list[str], forbidden: list[str], as_packages: bool) -> set[tuple[str, str]]:
    """Edges that lie on some path from a source to a forbidden module."""
    down: set[str] = set()
    for source in sources:
        down.add(source)
        down.update(graph.find_downstream_modules(source, as_package=as_packages))
        if as_packages:
            down.update(_descendants(graph, source))
    up: set[str] = set()
    for target in forbidden:
        up.add(target)
        up.update(graph.find_upstream_modules(target, as_package=as_packages))
        if as_packages:
            up.update(_descendants(graph, target))
    edges = set()
    for module in down:
        for target in graph.find_modules_directly_imported_by(module):
            if target in up:
                edges.add((module, target))
    return edges


def _descendants(graph: Any, module: str) -> set[str]:
    try:
        return set(graph.find_descendants(module))
    except ValueError:  # squashed external package: it has none
        return set()
