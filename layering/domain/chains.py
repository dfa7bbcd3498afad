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

from collections import ChainMap, deque
from collections.abc import Callable, Iterable, Mapping, MutableMapping
from collections.abc import Set as AbstractSet
from typing import NamedTuple, cast

Imports = Mapping[str, AbstractSet[str]]
Importers = Mapping[str, AbstractSet[str]]
Edge = tuple[str, str]
Chain = tuple[str, ...]


class ChainsAndCut(NamedTuple):
    """How many canonical chains run from the sources to the targets (`chains`), and a minimum
    cut of them.

    `cut` is sorted. For each import of the cut, `example` is the shortest chain through it
    (it may be none of the canonical chains: those are the shortest per start, and some imports
    of the cut lie only on longer ones) and `through` how many canonical chains cross it (a
    chain may cross several). `listed` holds the first canonical chains, shortest first, as
    many as were asked for; `shown` counts the distinct canonical chains among `listed` and the
    examples. Only those chains are ever built: a count does not need the chains themselves.
    """

    chains: int
    cut: tuple[Edge, ...]
    example: dict[Edge, Chain]
    through: dict[Edge, int]
    listed: tuple[Chain, ...]
    shown: int


def chains_and_cut(
    imports: Imports,
    sources: AbstractSet[str],
    targets: AbstractSet[str],
    excluded: AbstractSet[str] = frozenset(),
    listed: int = 0,
    importers: Importers | None = None,
    uncuttable: AbstractSet[str] = frozenset(),
) -> ChainsAndCut:
    """The canonical chains from `sources` to `targets` (counted, `listed` of them built) and
    the minimum cut between them. A caller asking for many pairs of one graph passes its
    `importers_of(imports)`, built once, so no pair pays for a pass over the whole graph.
    The imports of the `uncuttable` modules (hops the contract does not check) are in the cut
    only where no cut without them exists."""
    sources = frozenset(sources) - excluded
    targets = frozenset(targets) - sources - excluded
    importers = importers if importers is not None else importers_of(imports)
    distance = _distances_to(importers, sources, targets, excluded)
    routes = _Routes(imports, sources, excluded, distance)
    useful = _useful_edges(imports, sources, targets, excluded, distance)
    cut = _cut_nearest_targets(useful, importers, sources, targets, uncuttable)
    if not cut:
        return ChainsAndCut(len(routes.starts), (), {}, {}, (), 0)
    example = {edge: _shortest_chain_through(useful, sources, targets, edge) for edge in cut}
    chains = routes.shortest(listed)
    shown = len(set(chains) | {chain for chain in example.values() if routes.is_canonical(chain)})
    return ChainsAndCut(
        len(routes.starts), tuple(cut), example, routes.crossing(cut), tuple(chains), shown
    )


class _Routes:
    """The canonical chains, without building them: each starts with an import of a source
    module that leads to a target and goes on by the alphabetically first module one step
    nearer a target, so a chain is its start plus a walk the starts share."""

    def __init__(
        self,
        imports: Imports,
        sources: AbstractSet[str],
        excluded: AbstractSet[str],
        distance: dict[str, int],
    ) -> None:
        self.imports = imports
        self.sources = sources
        self.excluded = excluded
        self.distance = distance
        self.following: dict[str, str] = {}
        self.starts = [  # in no order: `shortest` orders those it builds
            (source, first)
            for source in sources
            for first in imports.get(source, ())
            if first in distance and first not in sources
        ]

    def step(self, module: str) -> str:
        if module not in self.following:
            self.following[module] = min(
                m
                for m in self.imports.get(module, ())
                if self.distance.get(m) == self.distance[module] - 1
                and m not in self.sources
                and m not in self.excluded
            )
        return self.following[module]

    def chain(self, start: Edge) -> Chain:
        chain = list(start)
        while self.distance[chain[-1]] > 0:
            chain.append(self.step(chain[-1]))
        return tuple(chain)

    def shortest(self, number: int) -> list[Chain]:
        """The first `number` chains, shortest first, then alphabetically (a chain is decided by
        its start, so ordering the starts orders the chains)."""
        if number <= 0:
            return []
        ordered = sorted(self.starts, key=lambda start: (self.distance[start[1]], start))
        return [self.chain(start) for start in ordered[:number]]

    def is_canonical(self, chain: Chain) -> bool:
        return (
            len(chain) >= 2
            and chain[0] in self.sources
            and chain[1] in self.distance
            and self.chain((chain[0], chain[1])) == chain
        )

    def crossing(self, cut: Iterable[Edge]) -> dict[Edge, int]:
        """How many chains cross each import of `cut`. An import of a source is the start of
        one chain at most; any other is crossed by every chain whose walk reaches its importer
        and steps on to its imported module, and the walks merge, so their counts add up
        level by level, farthest from the targets first."""
        starts = set(self.starts)
        passing: dict[str, int] = {}
        levels: dict[int, list[str]] = {}
        for _, first in self.starts:
            if first not in passing:
                levels.setdefault(self.distance[first], []).append(first)
            passing[first] = passing.get(first, 0) + 1
        for level in range(max(levels, default=0), 0, -1):
            for module in levels.get(level, ()):
                onward = self.step(module)
                if onward not in passing:
                    passing[onward] = 0
                    levels.setdefault(level - 1, []).append(onward)
                passing[onward] += passing[module]
        crossing = {}
        for importer, imported in cut:
            if importer in self.sources:
                crossing[importer, imported] = int((importer, imported) in starts)
            elif (
                importer in passing
                and self.distance[importer] > 0
                and self.step(importer) == imported
            ):
                crossing[importer, imported] = passing[importer]
            else:
                crossing[importer, imported] = 0
        return crossing


def importers_of(imports: Imports) -> Importers:
    """The reverse of `imports`: for each module, the modules that import it."""
    importers: dict[str, set[str]] = {}
    for importer, imported in imports.items():
        for module in imported:
            importers.setdefault(module, set()).add(importer)
    return importers


def _distances_to(
    importers: Importers,
    sources: AbstractSet[str],
    targets: AbstractSet[str],
    excluded: AbstractSet[str],
) -> dict[str, int]:
    """How many imports each module is from the nearest target, through neither sources nor
    excluded modules (sources are ends, never middles): a level at a time, by set operations."""
    distance = dict.fromkeys(sorted(targets), 0)
    seen = set(targets) | set(sources) | set(excluded)
    frontier = list(distance)
    level = 0
    while frontier:
        level += 1
        following: set[str] = set()
        for module in frontier:
            found = importers.get(module)
            if found:
                following |= found
        following -= seen
        seen |= following
        frontier = sorted(following)
        distance.update(dict.fromkeys(frontier, level))
    return distance


def _cut_nearest_targets(
    useful: dict[str, list[str]],
    importers: Importers,
    sources: AbstractSet[str],
    targets: AbstractSet[str],
    uncuttable: AbstractSet[str] = frozenset(),
) -> list[Edge]:
    """The fewest imports whose removal leaves no chain from `sources` to `targets`, sorted.

    Max-flow with unit capacity per importing module pair over the imports that lie on some
    chain; of the minimum cuts, the one nearest the targets: the imports into the set of
    modules from which a target can still be reached in the residual graph.
    """
    if not useful:
        return []
    if any(m in uncuttable for m in useful):
        useful, importers = _relayed(useful, importers, uncuttable)
    saturated = _maximum_flow(useful, sources, targets)
    near_targets = _reaching_targets(useful, importers, sources, targets, saturated)
    return sorted(
        {_unrelayed(a, b) for a, b in saturated if a not in near_targets and b in near_targets}
    )


_RELAY = "\0"
"""Joins the parts of a relay's name (`_relayed`): no module's name holds it."""


def _relayed(
    useful: dict[str, list[str]], importers: Importers, uncuttable: AbstractSet[str]
) -> tuple[dict[str, list[str]], Importers]:
    """`useful` (and `importers`) with each import of an uncuttable module replaced by more
    parallel relays, each a module of its own, than there are other imports: cutting one
    costs more than cutting all of those, so a minimum cut takes it only where no cut
    without it exists (unit capacities stay: the flow is unchanged elsewhere)."""
    relays = 1 + sum(len(m) for importer, m in useful.items() if importer not in uncuttable)
    relayed = dict(useful)
    changed: dict[str, set[str]] = {}
    for importer in sorted(m for m in useful if m in uncuttable):
        relayed[importer] = []
        for imported in useful[importer]:
            into = changed.setdefault(imported, set(importers.get(imported, ())))
            into.discard(importer)
            for number in range(relays):
                relay = _RELAY.join((importer, imported, str(number)))
                relayed[importer].append(relay)
                relayed[relay] = [imported]
                changed[relay] = {importer}
                into.add(relay)
    overlay: dict[str, AbstractSet[str]] = dict(changed)
    # ChainMap writes only to its first mapping: the graph's importers are read, never copied.
    return relayed, ChainMap(overlay, cast("MutableMapping[str, AbstractSet[str]]", importers))


def _unrelayed(importer: str, imported: str) -> Edge:
    """The import a cut edge stands for: itself, or the one a relay stands in for."""
    if _RELAY in importer:
        start, end, _ = importer.split(_RELAY)
        return start, end
    if _RELAY in imported:
        start, end, _ = imported.split(_RELAY)
        return start, end
    return importer, imported


def _useful_edges(
    imports: Imports,
    sources: AbstractSet[str],
    targets: AbstractSet[str],
    excluded: AbstractSet[str],
    distance: dict[str, int],
) -> dict[str, list[str]]:
    """The imports that lie on some chain: from a module reached from a source, to a module
    that reaches a target; never into a source, never out of a target, never via excluded
    (`distance` holds no excluded module)."""
    ends = set(distance).difference(sources)
    reached = set(sources) - excluded
    frontier = sorted(reached)
    useful: dict[str, list[str]] = {}
    while frontier:
        following: set[str] = set()
        for module in frontier:
            if module in targets:
                continue
            imported = imports.get(module)
            if imported:
                onward = ends.intersection(imported)
                if onward:
                    useful[module] = sorted(onward)
                    following |= onward
        following -= reached
        reached |= following
        frontier = sorted(following)
    return useful


def _maximum_flow(
    useful: dict[str, list[str]], sources: AbstractSet[str], targets: AbstractSet[str]
) -> set[Edge]:
    """A maximum flow, unit capacity per import, from the sources to the targets: the imports
    that carry flow. Any maximum flow leaves the same cut nearest the targets, so it is sent
    from whichever side has fewer modules to start from, backwards along the imports when the
    targets have fewer: each depth-first pass of a phase starts once from every module of its
    side, and `transformers.models` has 2,571 modules with an import on a chain to
    `transformers.pipelines`, whose side has one."""
    starts = [module for module in sorted(sources) if module in useful]
    ends = sorted(
        {module for imported in useful.values() for module in imported if module in targets}
    )
    if len(ends) >= len(starts):
        return _dinic(useful, starts, targets)
    backward: dict[str, list[str]] = {}
    for importer in sorted(useful):
        for module in useful[importer]:
            backward.setdefault(module, []).append(importer)
    return {(importer, imported) for imported, importer in _dinic(backward, ends, sources)}


def _dinic(
    useful: dict[str, list[str]], starts: list[str], targets: AbstractSet[str]
) -> set[Edge]:
    """A maximum flow, unit capacity per edge of `useful`, from `starts` to `targets` (Dinic's
    method: a breadth-first pass layers the residual graph, then depth-first passes send flow
    along it until it is blocked): the edges that carry flow. The edges are imports or, for a
    flow sent backwards, imports turned around; "importer" and "imported" below say which end
    of an edge is which as `useful` has it."""
    saturated: set[Edge] = set()
    flowing_into: dict[str, set[str]] = {}
    while True:
        level = _levels(useful, starts, targets, saturated, flowing_into)
        if level is None:
            return saturated
        onward = _LevelGraph(useful, level, saturated, flowing_into)
        for start in starts:
            while True:
                path = _blocking_path(start, onward, targets, saturated)
                if path is None:
                    break
                for importer, (imported, back) in path:
                    onward.position[importer] += 1  # a unit edge carries one unit: it is used up
                    if back:  # flow sent back along an import cancels the flow on it
                        saturated.discard((imported, importer))
                        flowing_into[importer].discard(imported)
                    else:
                        saturated.add((importer, imported))
                        flowing_into.setdefault(imported, set()).add(importer)


def _levels(
    useful: dict[str, list[str]],
    starts: list[str],
    targets: AbstractSet[str],
    saturated: set[Edge],
    flowing_into: dict[str, set[str]],
) -> dict[str, int] | None:
    """How many residual edges each module is from the sources; None when no target is reached
    (the flow is then maximal). Flow ends at a target: its edges are not followed."""
    level = dict.fromkeys(starts, 0)
    queue = deque(starts)
    reached = False
    while queue:
        module = queue.popleft()
        if module in targets:
            reached = True
            continue
        following = level[module] + 1
        for imported in useful.get(module, ()):
            if imported not in level and (module, imported) not in saturated:
                level[imported] = following
                queue.append(imported)
        for importer in flowing_into.get(module, ()):
            if importer not in level:
                level[importer] = following
                queue.append(importer)
    return level if reached else None


class _LevelGraph:
    """The residual edges of one phase from each module to one a level further, with whether
    each runs back along an import carrying flow: built for a module when a path first reaches
    it (a phase reaches few of the modules the layering pass saw); `position` is how many of
    them are used up or lead nowhere."""

    def __init__(
        self,
        useful: dict[str, list[str]],
        level: dict[str, int],
        saturated: set[Edge],
        flowing_into: dict[str, set[str]],
    ) -> None:
        self.useful, self.level, self.saturated, self.flowing_into = (
            useful,
            level,
            saturated,
            flowing_into,
        )
        self.edges: dict[str, list[tuple[str, bool]]] = {}
        self.position: dict[str, int] = {}

    def of(self, module: str) -> list[tuple[str, bool]]:
        if module not in self.edges:
            following = self.level[module] + 1
            level = self.level
            edges = [
                (m, False)
                for m in self.useful.get(module, ())
                if level.get(m) == following and (module, m) not in self.saturated
            ]
            edges += [
                (m, True)
                for m in sorted(self.flowing_into.get(module, ()))
                if level.get(m) == following
            ]
            self.edges[module] = edges
            self.position[module] = 0
        return self.edges[module]


def _blocking_path(
    start: str,
    onward: _LevelGraph,
    targets: AbstractSet[str],
    saturated: set[Edge],
) -> list[tuple[str, tuple[str, bool]]] | None:
    """A path from `start` to a target along the level graph's unused edges, as (module,
    (next module, back)) steps; modules found to lead nowhere are skipped from then on."""
    path: list[tuple[str, tuple[str, bool]]] = []
    module = start
    position = onward.position
    while True:
        if module in targets:
            return path
        edges = onward.of(module)
        index = position[module]
        while index < len(edges) and not _usable(module, edges[index], saturated):
            index += 1
        position[module] = index
        if index < len(edges):
            path.append((module, edges[index]))
            module = edges[index][0]
            continue
        if not path:
            return None
        module, _ = path.pop()
        position[module] += 1


def _usable(module: str, edge: tuple[str, bool], saturated: set[Edge]) -> bool:
    following, back = edge
    return (following, module) in saturated if back else (module, following) not in saturated


def _reaching_targets(
    useful: dict[str, list[str]],
    importers: Importers,
    sources: AbstractSet[str],
    targets: AbstractSet[str],
    saturated: set[Edge],
) -> set[str]:
    """The modules from which a target can be reached in the residual graph, walked back from
    the targets on the graph's own importers (an import is useful when its importer is a key of
    `useful` and it runs into no source): no index of the useful imports is built per pair."""
    sending: dict[str, list[str]] = {}
    for importer, imported in saturated:
        sending.setdefault(importer, []).append(imported)
    reaching = set(targets)
    queue = deque(sorted(targets))
    while queue:
        module = queue.popleft()
        if module not in sources:
            for importer in importers.get(module, ()):
                if (
                    importer not in reaching
                    and importer in useful
                    and (importer, module) not in saturated
                ):
                    reaching.add(importer)
                    queue.append(importer)
        # A residual back edge runs against each import that carries flow: from its imported
        # module to its importer, so the importer reaches what the imported module reaches.
        for imported in sending.get(module, ()):
            if imported not in reaching:
                reaching.add(imported)
                queue.append(imported)
    return reaching


def _shortest_chain_through(
    useful: dict[str, list[str]], sources: AbstractSet[str], targets: AbstractSet[str], edge: Edge
) -> Chain:
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


def _shortest_way_from_sources(
    useful: dict[str, list[str]], sources: AbstractSet[str], module: str, avoid: AbstractSet[str]
) -> list[str] | None:
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
                while (previous := parent[way[-1]]) is not None:
                    way.append(previous)
                return way[::-1]
            queue.append(following)
    return None


def _shortest_way_to_targets(
    useful: dict[str, list[str]], targets: AbstractSet[str], module: str, avoid: AbstractSet[str]
) -> list[str] | None:
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
                while (previous := parent[way[-1]]) is not None:
                    way.append(previous)
                return way[::-1]
            queue.append(following)
    return None


def chain_ends(
    imports: Imports,
    sources: AbstractSet[str],
    targets: AbstractSet[str],
    excluded: AbstractSet[str] = frozenset(),
) -> dict[str, frozenset[str]]:
    """For each source module with a chain to a target, the targets its chains end at: the
    pairs of modules a contract's chains join, which a baseline knows a contract by (a new
    chain between a pair that had none is a new violation, whatever imports it reuses).

    Chains as `chains_and_cut` counts them: their interior avoids the sources, the targets and
    `excluded`. Each interior module's targets are found once, as a bit set, over the strongly
    connected components of the interior (an import cycle shares one set): linear in the
    imports, whatever the number of sources.
    """
    sources = frozenset(sources) - excluded
    targets = frozenset(targets) - sources - excluded
    bit = {target: 1 << index for index, target in enumerate(sorted(targets))}
    ends_of = sorted(targets)
    blocked = sources | targets | excluded

    def direct(module: str) -> int:
        found = 0
        for imported in imports.get(module, ()):
            found |= bit.get(imported, 0)
        return found

    reach = _interior_reach(imports, sources, blocked, direct)
    found: dict[str, frozenset[str]] = {}
    for source in sorted(sources):
        bits = direct(source)
        for imported in imports.get(source, ()):
            if imported not in blocked:
                bits |= reach[imported]
        if bits:
            found[source] = frozenset(t for i, t in enumerate(ends_of) if bits >> i & 1)
    return found


def _interior_reach(
    imports: Imports,
    sources: AbstractSet[str],
    blocked: AbstractSet[str],
    direct: Callable[[str], int],
) -> dict[str, int]:
    """The targets (as bits) each interior module the sources import reaches through the
    interior: Tarjan's components, iteratively, each finished after every one it reaches."""
    reach: dict[str, int] = {}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    counter = 0
    starts = sorted({m for source in sources for m in imports.get(source, ()) if m not in blocked})
    for start in starts:
        if start in index:
            continue
        work = [(start, iter(sorted(imports.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            module, onward = work[-1]
            advanced = False
            for imported in onward:
                if imported in blocked:
                    continue
                if imported not in index:
                    index[imported] = low[imported] = counter
                    counter += 1
                    stack.append(imported)
                    on_stack.add(imported)
                    work.append((imported, iter(sorted(imports.get(imported, ())))))
                    advanced = True
                    break
                if imported in on_stack:
                    low[module] = min(low[module], index[imported])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[module])
            if low[module] == index[module]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == module:
                        break
                members = set(component)
                bits = 0
                for member in component:
                    bits |= direct(member)
                    for imported in imports.get(member, ()):
                        if imported not in blocked and imported not in members:
                            bits |= reach[imported]
                for member in component:
                    reach[member] = bits
    return reach


class Question(NamedTuple):
    """One group of chains a contract asks about: from `sources` to `targets`, the `excluded`
    modules never on a chain (as `chains_and_cut` takes them)."""

    sources: AbstractSet[str]
    targets: AbstractSet[str]
    excluded: AbstractSet[str]


def joined(
    importers: Importers, question: Question, removed: AbstractSet[Edge] = frozenset()
) -> bool:
    """Whether a chain of `question` is left once the imports `removed` are gone."""
    sources = frozenset(question.sources) - question.excluded
    targets = frozenset(question.targets) - sources - question.excluded
    reached = set(targets)
    frontier = list(targets)
    while frontier:
        module = frontier.pop()
        for importer in importers.get(module, ()):
            if importer in reached or (importer, module) in removed:
                continue
            if importer in sources:
                return True
            if importer in question.excluded:
                continue
            reached.add(importer)
            frontier.append(importer)
    return False


def contract_cut(
    imports: Imports,
    importers: Importers,
    questions: Iterable[tuple[Question, Iterable[Edge]]],
    uncuttable: AbstractSet[str] = frozenset(),
) -> tuple[Edge, ...]:
    """One cut for a contract that asks several questions, each with its own cut: the fewest of
    the union of their cuts and the cuts of the questions merged where they share their sources
    (or their targets), one minimum cut per merged question, where that cuts every question's
    chains. Never larger than the union; smaller where one import cuts the chains of several
    questions, as one import a whole contract's chains run through. Sorted. Each candidate
    costs a cut per merged question and one walk per question (never one per import)."""
    asked = [(question, tuple(cut)) for question, cut in questions]
    union = sorted({edge for _, cut in asked for edge in cut})
    best = set(union)
    for side in ("sources", "targets"):
        merged: dict[frozenset[str], list[Question]] = {}
        for question, _ in asked:
            merged.setdefault(frozenset(getattr(question, side)), []).append(question)
        if len(merged) == len(asked):
            continue  # no two questions share that side
        candidate: set[Edge] = set()
        for shared, group in merged.items():
            other = "targets" if side == "sources" else "sources"
            others = frozenset().union(*(getattr(q, other) for q in group))
            # What every question of the group leaves out, less what the group now reaches.
            excluded = frozenset.intersection(*(frozenset(q.excluded) for q in group)) - others
            sources, targets = (shared, others) if side == "sources" else (others, shared)
            found = chains_and_cut(
                imports, sources, targets, excluded, importers=importers, uncuttable=uncuttable
            )
            candidate.update(found.cut)
        if any(joined(importers, q, candidate) for q, _ in asked):
            continue  # merging let a chain through (one that ran through another target)
        if len(candidate) < len(best):
            best = candidate
    return tuple(sorted(best))
