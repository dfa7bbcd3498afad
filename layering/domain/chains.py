"""Chains of imports from one group of modules to another, and the fewest imports that cut them.

A broken graph contract can have thousands of chains, all running through a handful of
imports. What a person needs is that handful: the minimum edge cut between the two groups
(max-flow, unit capacity per importing module pair), each import of it with how many chains
run through it and one example. Everything here is a pure function of a plain mapping from
each module to the modules it imports, so the same code serves every graph contract and is
checked against brute force on random graphs.

Chains are canonical, so reports are the same on every run: one chain per import of a source
module that leads to a target, the alphabetically first of the shortest from there. Their
interior avoids the sources, the targets and the excluded modules, as grimp's chains do. The
cut is the one nearest the targets: unique for a given graph (whichever maximum flow was
found), so it is stable too, and it names the imports that bring the targets in.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

Imports = Mapping[str, AbstractSet[str]]
Edge = tuple[str, str]
Chain = tuple[str, ...]


@dataclass(frozen=True)
class ChainsAndCut:
    """The canonical chains from the sources to the targets, and a minimum cut of them.

    `chains` is sorted shortest first, then alphabetically; `cut` is sorted. For each import of
    the cut, `example` is the shortest chain through it (it may be none of `chains`: those are
    the shortest per start, and some imports of the cut lie only on longer ones), and `through`
    how many of `chains` cross it (a chain may cross several).
    """

    chains: tuple[Chain, ...]
    cut: tuple[Edge, ...]
    example: dict[Edge, Chain]
    through: dict[Edge, int]


def chains_and_cut(
    imports: Imports,
    sources: AbstractSet[str],
    targets: AbstractSet[str],
    excluded: AbstractSet[str] = frozenset(),
) -> ChainsAndCut:
    """Every canonical chain from `sources` to `targets` and the minimum cut between them."""
    sources = frozenset(sources) - excluded
    targets = frozenset(targets) - sources - excluded
    distance = _distances_to(imports, sources, targets, excluded)
    chains = sorted(_canonical_chains(imports, sources, targets, excluded, distance), key=lambda c: (len(c), c))
    cut = minimum_cut(imports, sources, targets, excluded, distance)
    if not cut:
        return ChainsAndCut(tuple(chains), (), {}, {})
    useful = _useful_edges(imports, sources, targets, excluded, distance)
    example = {edge: _shortest_chain_through(useful, sources, targets, edge) for edge in cut}
    through = dict.fromkeys(cut, 0)
    for chain in chains:
        for edge in set(zip(chain, chain[1:])):
            if edge in through:
                through[edge] += 1
    return ChainsAndCut(tuple(chains), tuple(cut), example, through)


def _importers_of(imports: Imports) -> dict[str, set[str]]:
    importers: dict[str, set[str]] = {}
    for importer, imported in imports.items():
        for module in imported:
            importers.setdefault(module, set()).add(importer)
    return importers


def _distances_to(imports: Imports, sources: AbstractSet[str], targets: AbstractSet[str], excluded: AbstractSet[str]) -> dict[str, int]:
    """How many imports each module is from the nearest target, through neither sources nor
    excluded modules (sources are ends, never middles)."""
    importers = _importers_of(imports)
    distance = dict.fromkeys(targets, 0)
    frontier = sorted(targets)
    while frontier:
        following = []
        for module in frontier:
            for importer in importers.get(module, ()):
                if importer in distance or importer in sources or importer in excluded:
                    continue
                distance[importer] = distance[module] + 1
                following.append(importer)
        frontier = sorted(following)
    return distance


def _canonical_chains(
    imports: Imports,
    sources: AbstractSet[str],
    targets: AbstractSet[str],
    excluded: AbstractSet[str],
    distance: dict[str, int],
) -> Iterable[Chain]:
    following: dict[str, str] = {}

    def step(module: str) -> str:
        if module not in following:
            following[module] = min(
                m for m in imports.get(module, ()) if distance.get(m) == distance[module] - 1 and m not in sources and m not in excluded
            )
        return following[module]

    for source in sorted(sources - targets - excluded):
        for first in sorted(imports.get(source, ())):
            if first not in distance or first in sources:
                continue
            chain = [source, first]
            while distance[chain[-1]] > 0:
                chain.append(step(chain[-1]))
            yield tuple(chain)


def minimum_cut(
    imports: Imports,
    sources: AbstractSet[str],
    targets: AbstractSet[str],
    excluded: AbstractSet[str] = frozenset(),
    distance: dict[str, int] | None = None,
) -> list[Edge]:
    """The fewest imports whose removal leaves no chain from `sources` to `targets`, sorted.

    Max-flow with unit capacity per importing module pair (augmenting paths, shortest first);
    of the minimum cuts, the one nearest the targets: the imports into the set of modules from
    which a target can still be reached in the residual graph.
    """
    targets = frozenset(targets) - sources - excluded
    if distance is None:
        distance = _distances_to(imports, sources, targets, excluded)
    useful = _useful_edges(imports, sources, targets, excluded, distance)
    if not useful:
        return []
    saturated: set[Edge] = set()
    flowing_into: dict[str, set[str]] = {}
    while True:
        path = _augmenting_path(useful, sources, targets, saturated, flowing_into)
        if path is None:
            break
        for importer, imported in zip(path, path[1:]):
            if (imported, importer) in saturated:  # undo flow along a residual back edge
                saturated.discard((imported, importer))
                flowing_into[importer].discard(imported)
            else:
                saturated.add((importer, imported))
                flowing_into.setdefault(imported, set()).add(importer)
    near_targets = _reaching_targets(useful, targets, saturated, flowing_into)
    return sorted((a, b) for a, b in saturated if a not in near_targets and b in near_targets)


def _useful_edges(
    imports: Imports,
    sources: AbstractSet[str],
    targets: AbstractSet[str],
    excluded: AbstractSet[str],
    distance: dict[str, int],
) -> dict[str, list[str]]:
    """The imports that lie on some chain: from a module reached from a source, to a module
    that reaches a target; never into a source, never out of a target, never via excluded."""
    reached = set(sources) - excluded
    frontier = sorted(reached)
    useful: dict[str, list[str]] = {}
    while frontier:
        following = []
        for module in frontier:
            if module in targets:
                continue
            onward = sorted(m for m in imports.get(module, ()) if m in distance and m not in sources)
            if onward:
                useful[module] = onward
            for imported in onward:
                if imported not in reached:
                    reached.add(imported)
                    following.append(imported)
        frontier = sorted(following)
    return useful


def _augmenting_path(
    useful: dict[str, list[str]],
    sources: AbstractSet[str],
    targets: AbstractSet[str],
    saturated: set[Edge],
    flowing_into: dict[str, set[str]],
) -> list[str] | None:
    """A shortest path from a source to a target in the residual graph, or None."""
    parent: dict[str, str | None] = {s: None for s in sorted(sources)}
    queue = deque(parent)
    while queue:
        module = queue.popleft()
        onward = [m for m in useful.get(module, ()) if (module, m) not in saturated]
        onward.extend(sorted(flowing_into.get(module, ())))
        for following in onward:
            if following in parent:
                continue
            parent[following] = module
            if following in targets:
                path = [following]
                while parent[path[-1]] is not None:
                    path.append(parent[path[-1]])  # type: ignore[arg-type]
                return path[::-1]
            queue.append(following)
    return None


def _reaching_targets(
    useful: dict[str, list[str]],
    targets: AbstractSet[str],
    saturated: set[Edge],
    flowing_into: dict[str, set[str]],
) -> set[str]:
    """The modules from which a target can be reached in the residual graph."""
    importers: dict[str, list[str]] = {}
    for importer, imported in useful.items():
        for module in imported:
            if (importer, module) not in saturated:
                importers.setdefault(module, []).append(importer)
    for imported, importers_with_flow in flowing_into.items():
        # A residual back edge imported -> importer lets `imported` reach what `importer` reaches.
        for importer in importers_with_flow:
            importers.setdefault(importer, []).append(imported)
    reaching = set(targets)
    queue = deque(sorted(targets))
    while queue:
        module = queue.popleft()
        for importer in importers.get(module, ()):
            if importer not in reaching:
                reaching.add(importer)
                queue.append(importer)
    return reaching


def _shortest_chain_through(useful: dict[str, list[str]], sources: AbstractSet[str], targets: AbstractSet[str], edge: Edge) -> Chain:
    """The shortest chain that crosses `edge`: the shortest way to its importer from a source,
    then the shortest way from its imported module to a target, with no module twice where
    the two can be chosen apart (in rare graphs they cannot: the chain then revisits a module,
    every hop still a real import)."""
    importer, imported = edge
    head = _shortest_way_from_sources(useful, sources, importer, avoid=frozenset())
    tail = _shortest_way_to_targets(useful, targets, imported, avoid=frozenset(head or ()))
    if tail is None:
        tail = _shortest_way_to_targets(useful, targets, imported, avoid=frozenset())
        apart = _shortest_way_from_sources(useful, sources, importer, avoid=frozenset(tail or ()))
        head = apart or head
    return tuple(head or (importer,)) + tuple(tail or (imported,))


def _shortest_way_from_sources(useful: dict[str, list[str]], sources: AbstractSet[str], module: str, avoid: AbstractSet[str]) -> list[str] | None:
    if module in sources:
        return [module]
    parent: dict[str, str | None] = {s: None for s in sorted(sources)}
    queue = deque(parent)
    while queue:
        current = queue.popleft()
        for following in useful.get(current, ()):
            if following in parent or following in avoid:
                continue
            parent[following] = current
            if following == module:
                way = [module]
                while parent[way[-1]] is not None:
                    way.append(parent[way[-1]])  # type: ignore[arg-type]
                return way[::-1]
            queue.append(following)
    return None


def _shortest_way_to_targets(useful: dict[str, list[str]], targets: AbstractSet[str], module: str, avoid: AbstractSet[str]) -> list[str] | None:
    if module in avoid:
        return None
    if module in targets:
        return [module]
    parent: dict[str, str | None] = {module: None}
    queue = deque([module])
    while queue:
        current = queue.popleft()
        for following in useful.get(current, ()):
            if following in parent or following in avoid:
                continue
            parent[following] = current
            if following in targets:
                way = [following]
                while parent[way[-1]] is not None:
                    way.append(parent[way[-1]])  # type: ignore[arg-type]
                return way[::-1]
            queue.append(following)
    return None

