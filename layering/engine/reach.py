"""What a graph contract's chains can reach, kept with its cached verdict so that an edit of
imports re-decides only the contracts it can change.

A contract's verdict is decided by the chains from its sources to its targets (`ChainPair`),
that is by the paths of the import graph from one to the other. An edit changes some modules'
imports: the graph's edges out of those modules (C), an edge counted once per statement, so
that a second statement of an import is a change too. Every path that uses no changed edge is
in both graphs; so the paths, and the verdict with them, are the same when

* no edge the edit added starts at a module the sources reach in the new graph and ends at one
  that reaches a target in the new graph, and
* no edge the edit removed starts at a module the sources reached in the old graph and ended
  at one that reached a target in the old graph,

leaving out the edges no chain can take: a chain's interior avoids its sources and targets
(`domain.chains`, as grimp's chains), so no chain leaves a target or enters a source.

What the sources reach is kept as a summary (`down`, per pair); in the new graph they reach no
more than that and what the changed modules they reached reach now (a path from a source either
meets no module of C, and is old, or leaves the first one it meets by a new route). What a
module reaches is walked on the imports the cache keeps (`StoredImports`), the changed rows put
in: no graph is built. All of it is read on the whole graph, before a contract removes its
ignored imports, which only ever takes chains away: the test may say "changed" where nothing
did (the contract is then decided again), never the reverse. Changes no path shows, an ignored
import or an allowance that starts or stops matching, are caught by the importers they name;
the lines a report shows are read again from the edited files.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from layering.domain.patterns import is_within

if TYPE_CHECKING:
    from layering.adapters.grimp_graph import ImportGraph

MAX_WALKS = 64
"""Past this many walks an edit is too large to reason about cheaply: decide the contract."""


class ChainPair(NamedTuple):
    """Chains from any of `sources` to any of `targets` decide part of a contract; with
    `as_packages`, each module stands for itself and its descendants."""

    sources: tuple[str, ...]
    targets: tuple[str, ...]
    as_packages: bool = True
    excluded: tuple[str, ...] = ()
    """Modules no chain of the pair passes through (the other layers of a layers contract)."""


class ModuleIndex:
    """Sets of the package's modules as bitmaps over their sorted names: a summary stays small
    in the cache file however large the sets (an edit that changes the module set is never
    reused, so the numbering holds)."""

    def __init__(self, modules: Iterable[str]) -> None:
        self._position = {m: i for i, m in enumerate(sorted(modules))}
        self._size = (len(self._position) + 7) // 8

    def bitmap(self, modules: Iterable[str]) -> str:
        bits = bytearray(self._size)
        for module in modules:
            position = self._position.get(module)
            if position is not None:
                bits[position >> 3] |= 1 << (position & 7)
        return bits.hex()

    def holds(self, bitmap: str, module: str) -> bool:
        position = self._position.get(module)
        if position is None or len(bitmap) != 2 * self._size:
            return position is not None  # a bitmap of another size: say "reached", to be safe
        return bool(
            int(bitmap[2 * (position >> 3) : 2 * (position >> 3) + 2], 16) >> (position & 7) & 1
        )

    def union(self, bitmap: str, modules: Iterable[str]) -> str:
        more = bytes.fromhex(self.bitmap(modules))
        return bytes(a | b for a, b in zip(bytes.fromhex(bitmap), more)).hex()


class StoredImports:
    """The graph's imports, importer to imported (once per statement), kept in the cache, so
    that what a module reaches is found without building the graph."""

    def __init__(
        self, imports: dict[str, tuple[str, ...]], is_internal: Callable[[str], bool]
    ) -> None:
        self.imports = imports
        self._is_internal = is_internal
        self._reached: dict[str, set[str] | None] = {}

    def to_data(self) -> dict[str, tuple[str, ...]]:
        """The imports as they are: the cache's files hold each shared name once."""
        return dict(self.imports)

    @classmethod
    def from_data(cls, data: Any, is_internal: Callable[[str], bool]) -> StoredImports | None:
        if not (
            isinstance(data, dict)
            and all(
                isinstance(row, tuple) and all(isinstance(name, str) for name in row)
                for row in data.values()
            )
        ):
            return None
        return cls(data, is_internal)

    def replaced(self, rows: dict[str, tuple[str, ...]]) -> StoredImports:
        """These imports with the rows of `rows` as they are now."""
        return StoredImports({**self.imports, **rows}, self._is_internal)

    def row(self, module: str) -> tuple[str, ...]:
        return self.imports.get(module, ())

    def reached_from(self, module: str) -> set[str] | None:
        """`module` and every module it imports, directly or not; None when the walk meets an
        internal module whose imports were not read (a partial scan never reached it)."""
        if module not in self._reached:
            self._reached[module] = self._walk(module)
        return self._reached[module]

    def leads_to(
        self, module: str, is_target: Callable[[str], bool], blocked: Callable[[str], bool]
    ) -> bool | None:
        """Whether a path from `module` reaches a target, through no blocked module; None when
        the walk meets an internal module whose imports were not read."""
        if is_target(module):
            return True
        seen = {module}
        stack = [module]
        while stack:
            current = stack.pop()
            if current not in self.imports and self._is_internal(current):
                return None
            for imported in self.imports.get(current, ()):
                if imported in seen:
                    continue
                seen.add(imported)
                if is_target(imported):
                    return True
                if not blocked(imported):
                    stack.append(imported)
        return False

    def _walk(self, module: str) -> set[str] | None:
        if module not in self.imports and self._is_internal(module):
            return None
        reached = {module}
        stack = [module]
        while stack:
            for imported in self.imports.get(stack.pop(), ()):
                if imported not in reached:
                    if imported not in self.imports and self._is_internal(imported):
                        return None
                    reached.add(imported)
                    stack.append(imported)
        return reached


def summarize(
    pairs: Sequence[ChainPair], graph: ImportGraph, index: ModuleIndex
) -> dict[str, Any]:
    """What each pair's sources reach, in `graph` as it is."""
    down: dict[tuple[tuple[str, ...], bool], str] = {}
    for pair in pairs:
        key = (pair.sources, pair.as_packages)
        if key not in down:
            down[key] = index.bitmap(_reached_from(graph, pair.sources, pair.as_packages))
    return {
        "pairs": [
            {
                "down": down[pair.sources, pair.as_packages],
                "sources": list(pair.sources),
                "targets": list(pair.targets),
                "excluded": list(pair.excluded),
                "as_packages": pair.as_packages,
            }
            for pair in pairs
        ]
    }


def unaffected(
    summary: dict[str, Any],
    changed: set[str],
    before: StoredImports,
    after: StoredImports,
    index: ModuleIndex,
) -> bool:
    """Whether the summarized contract's chains are the same in `after` as in `before`, the
    rows of `changed` being all that differ."""
    walks = 0
    for pair in summary["pairs"]:
        sources, targets, excluded, as_packages = (
            pair["sources"],
            pair["targets"],
            pair.get("excluded", []),
            pair["as_packages"],
        )

        def within(module: str, modules: list[str]) -> bool:
            return any(_member(module, m, as_packages) for m in modules)

        def on_no_chain(importer: str, imported: str) -> bool:
            """A chain's interior avoids the sources, the targets and the excluded modules
            (`domain.chains`, as grimp's chains): no chain leaves a target, enters a source or
            passes through an excluded module."""
            return (
                within(importer, targets)
                or within(imported, sources)
                or within(imported, excluded)
            )

        def leads_to_a_target(imports: StoredImports, module: str) -> bool:
            nonlocal walks
            walks += 1
            found = imports.leads_to(
                module,
                lambda m: within(m, targets),
                lambda m: within(m, sources) or within(m, excluded),
            )
            return walks > MAX_WALKS or found is not False

        reached_before = {m for m in changed if index.holds(pair["down"], m)}
        if not reached_before:
            continue  # the sources reach the same modules as before, by the same imports
        reached_now = set(reached_before)
        for module in reached_before:
            found = after.reached_from(module)
            if found is None:
                return False
            reached_now |= found
        for module in sorted(changed):
            old, new = Counter(before.row(module)), Counter(after.row(module))
            added = [m for m in sorted(new - old) if not on_no_chain(module, m)]
            removed = [m for m in sorted(old - new) if not on_no_chain(module, m)]
            if module in reached_now and any(leads_to_a_target(after, m) for m in added):
                return False
            if module in reached_before and any(leads_to_a_target(before, m) for m in removed):
                return False
    return True


def widened(
    summary: dict[str, Any], changed: set[str], after: StoredImports, index: ModuleIndex
) -> dict[str, Any]:
    """The summary of an unaffected contract in the new graph, without the graph: what its
    sources reach now they reached before or reach through a changed module they reached
    before (a superset, which only makes a later test more careful)."""
    pairs = []
    for pair in summary["pairs"]:
        through = [m for m in changed if index.holds(pair["down"], m)]
        if through:
            pair = {
                **pair,
                "down": index.union(
                    pair["down"], set().union(*(after.reached_from(m) or set() for m in through))
                ),
            }
        pairs.append(pair)
    return {**summary, "pairs": pairs}


def _member(module: str, target: str, as_packages: bool) -> bool:
    return is_within(module, target) if as_packages else module == target


def _reached_from(graph: ImportGraph, modules: Iterable[str], as_packages: bool) -> set[str]:
    reached: set[str] = set()
    for module in modules:
        if module not in graph.modules:
            continue
        reached.add(module)
        if as_packages:
            reached.update(_descendants(graph, module))
        try:
            reached.update(graph.find_upstream_modules(module, as_package=as_packages))
        except ValueError:  # a squashed external package has no descendants
            reached.update(graph.find_upstream_modules(module))
    return reached


def _descendants(graph: ImportGraph, module: str) -> set[str]:
    try:
        return set(graph.find_descendants(module))
    except ValueError:
        return set()
