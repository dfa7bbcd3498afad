"""Chains of imports from one group of modules to another, and the fewest imports that cut them.

A broken graph contract can have thousands of chains, all running through a handful of
imports. What a person needs is that handful: the minimum edge cut between the two groups
(max-flow, unit capacity per importing module pair), each import of it with how many chains
run through it and one example. Everything here is a pure function of a plain mapping from
each module to the modules it imports (a `ChainGraph` of it keeps what its questions share),
so the same code serves every graph contract and is checked against brute force on random
graphs.

Chains are canonical, so reports are the same on every run: one chain per import of a source
module that leads to a target, the alphabetically first of the shortest from there. Their
interior avoids the sources, the targets and the excluded modules, as grimp's chains do. The
cut is the one nearest the targets: unique for a given graph (whichever maximum flow was
found), so it is stable too, and it names the imports that bring the targets in.
"""

from __future__ import annotations

import itertools
from collections import Counter, deque
from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import NamedTuple

from layering.domain.components import strongly_connected

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
    graph: Imports | ChainGraph,
    sources: AbstractSet[str],
    targets: AbstractSet[str],
    excluded: AbstractSet[str] = frozenset(),
    listed: int = 0,
    uncuttable: AbstractSet[str] = frozenset(),
) -> ChainsAndCut:
    """The canonical chains from `sources` to `targets` (counted, `listed` of them built) and
    the minimum cut between them. A caller asking many questions of one graph passes its
    `ChainGraph`, built once, so that they share its walks. The imports of the `uncuttable`
    modules (hops the contract does not check) are in the cut only where no cut without them
    exists."""
    graph = graph if isinstance(graph, ChainGraph) else ChainGraph(graph)
    between = _between(graph, sources, targets, excluded)
    cut = _cut_nearest_targets(between, graph.importers, uncuttable)
    if not cut:  # no import lies on a chain: there is none
        return ChainsAndCut(0, (), {}, {}, (), 0)
    sources, targets = between.sources, between.targets
    routes = _Routes(graph.imports, sources, excluded, between.distance, between.firsts)
    example = _shortest_chains_through(_InOrder(between.on_chains), sources, targets, cut)
    chains = routes.shortest(listed)
    shown = len(set(chains) | {chain for chain in example.values() if routes.is_canonical(chain)})
    return ChainsAndCut(
        routes.count, tuple(cut), example, routes.crossing(cut), tuple(chains), shown
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
        firsts: dict[str, AbstractSet[str]],
    ) -> None:
        self.imports = imports
        self.sources = sources
        self.excluded = excluded
        self.distance = distance
        self.following: dict[str, str] = {}
        self.firsts = firsts
        """The imports of each source on a chain, each the start of one chain."""
        self.count = sum(map(len, self.firsts.values()))

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
        starts = [(s, first) for s, firsts in self.firsts.items() for first in firsts]
        ordered = sorted(starts, key=lambda start: (self.distance[start[1]], start))
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
        passing = Counter(itertools.chain.from_iterable(self.firsts.values()))
        levels: dict[int, list[str]] = {}
        for first in passing:
            levels.setdefault(self.distance[first], []).append(first)
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
                crossing[importer, imported] = int(imported in self.firsts.get(importer, ()))
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


class ChainGraph:
    """A graph as its chains are read: its imports, their reverse, and the walks that several
    questions of it share, each walked once. A contract's questions close the same modules
    (a layers contract's layers, an independence contract's modules) and ask of a few groups
    in turn: on transformers, the 38 questions of a layers and an independence contract walk
    back from 15 groups of targets."""

    def __init__(self, imports: Imports) -> None:
        self.imports = imports
        self.importers = importers_of(imports)
        self._distances: dict[tuple[frozenset[str], frozenset[str]], _Distances] = {}

    def distances(self, targets: frozenset[str], closed: frozenset[str]) -> _Distances:
        """`_distances_to(targets)` with the modules `closed` never inside a chain."""
        key = (targets, closed)
        if key not in self._distances:
            self._distances[key] = _distances_to(self.importers, targets, closed)
        return self._distances[key]


class _Between(NamedTuple):
    """What lies between a question's sources and its targets (those apart from its excluded
    modules): how many imports each module is from the nearest target (`distance`), the
    sources nearest one with theirs (`nearest`), the imports that lie on a chain (`on_chains`;
    `firsts` those of the sources that have any) and the targets they run into (`ends`,
    sorted)."""

    sources: frozenset[str]
    targets: frozenset[str]
    distance: dict[str, int]
    nearest: dict[str, int]
    firsts: dict[str, AbstractSet[str]]
    on_chains: _OnChains
    ends: list[str]


def _between(
    graph: ChainGraph,
    sources: AbstractSet[str],
    targets: AbstractSet[str],
    excluded: AbstractSet[str],
) -> _Between:
    sources = frozenset(sources) - excluded
    targets = frozenset(targets) - sources - excluded
    closed = sources | targets | excluded
    if _far_more(targets, sources):
        reached = _reached(graph.imports, sources, closed)
        distance, reaching, levels = _distances_to(graph.importers, targets, closed, reached)
    else:
        distance, reaching, levels = graph.distances(targets, closed)
        reached = _reached(graph.imports, sources, closed, reaching)
    imports = graph.imports
    firsts: dict[str, AbstractSet[str]] = {}
    for source in sources:
        onward = reaching & imports.get(source, frozenset())
        if onward:
            firsts[source] = onward
    # The sources with an import on a chain, and what they reach that reaches a target.
    importing = (reached & reaching).union(firsts) - targets
    return _Between(
        sources,
        targets,
        distance,
        _nearest(firsts, levels),
        firsts,
        _OnChains(imports, importing, reaching, firsts),
        sorted(reached & targets),
    )


def _nearest(
    firsts: dict[str, AbstractSet[str]], levels: list[AbstractSet[str]]
) -> dict[str, int]:
    """The sources nearest a target, with their distance (one more than that of the nearest
    module they import on a chain, `firsts`), in order."""
    imported = set().union(*firsts.values())
    for level, modules in enumerate(levels):
        if not modules.isdisjoint(imported):
            nearest = (s for s, onward in firsts.items() if not modules.isdisjoint(onward))
            return dict.fromkeys(sorted(nearest), level + 1)
    return {}


def _far_more(many: AbstractSet[str], few: AbstractSet[str]) -> bool:
    """Whether a walk from `few` should come first, as the cheaper: where they are outnumbered
    twenty to one, as the 23 modules of `homeassistant.auth` are by the 8,600 of
    `homeassistant.components`, which import each other."""
    return len(many) > 20 * len(few)


def _reached(
    imports: Imports,
    sources: AbstractSet[str],
    closed: AbstractSet[str],
    within: AbstractSet[str] | None = None,
) -> frozenset[str]:
    """The sources and the modules a chain from them can reach, through none of the modules
    `closed`, with those of them it runs into; only through the modules `within`, where given
    (those that reach a target: the walk then finds the modules on a chain)."""
    reached = set(sources)
    frontier: AbstractSet[str] = sources
    while frontier:
        following: set[str] = set()
        for module in frontier:
            found = imports.get(module)
            if found:
                following |= found
        if within is not None:
            following = following & within
        following -= reached
        reached |= following
        frontier = following - closed
    return frozenset(reached)


class _Distances(NamedTuple):
    """How many imports each module is from the nearest target (`distance`; `reaching` holds
    its modules, `levels` them by distance)."""

    distance: dict[str, int]
    reaching: frozenset[str]
    levels: list[AbstractSet[str]]


def _distances_to(
    importers: Importers,
    targets: AbstractSet[str],
    closed: AbstractSet[str],
    within: AbstractSet[str] | None = None,
) -> _Distances:
    """The distances to `targets` through none of the modules `closed` (sources are ends, never
    middles): a level at a time, by set operations. Only of the modules `within`, where given:
    those a chain can reach, whose shortest ways to a target are all there."""
    if within is not None:
        targets = targets & within
    distance = dict.fromkeys(targets, 0)
    levels = [targets]
    seen = set(closed)
    frontier: AbstractSet[str] = targets
    level = 0
    while frontier:
        level += 1
        following: set[str] = set()
        for module in frontier:
            found = importers.get(module)
            if found:
                following |= found
        if within is not None:
            following &= within
        following -= seen
        seen |= following
        frontier = following
        levels.append(frontier)
        distance.update(dict.fromkeys(frontier, level))
    return _Distances(distance, frozenset(distance), levels)


class _OnChains:
    """The imports that lie on some chain: from a module reached from a source, to a module
    that reaches a target (`reaching`, where no source or excluded module is); never out of a
    target. Each module's are found when first asked for: a question's flow asks of few. In
    no order: what needs one sorts (`_InOrder`)."""

    def __init__(
        self,
        imports: Imports,
        importing: AbstractSet[str],
        reaching: frozenset[str],
        found: dict[str, AbstractSet[str]],
    ) -> None:
        self.imports, self.reaching = imports, reaching
        self.importing = importing
        """The modules with an import on a chain."""
        self.found = dict(found)
        """Each module's imports on a chain, those of the sources from the start."""

    def of(self, module: str) -> AbstractSet[str]:
        if module not in self.found:
            self.found[module] = (
                self.imports.get(module, frozenset()) & self.reaching
                if module in self.importing
                else frozenset()
            )
        return self.found[module]


class _InOrder(dict[str, list[str]]):
    """Each module's imports on a chain, alphabetically, sorted when first asked for: the walks
    that find examples take them in that order, so that an example is the same on every run."""

    def __init__(self, on_chains: _OnChains) -> None:
        super().__init__()
        self.on_chains = on_chains

    def __missing__(self, module: str) -> list[str]:
        self[module] = ordered = sorted(self.on_chains.of(module))
        return ordered


def _cut_nearest_targets(
    between: _Between, importers: Importers, uncuttable: AbstractSet[str]
) -> list[Edge]:
    """The fewest imports whose removal leaves no chain from the sources to the targets, sorted.

    A maximum flow over the imports that lie on some chain; of the minimum cuts, the one
    nearest the targets: the imports into the modules from which a target can still be reached
    in the residual graph. Every maximum flow leaves that same cut, and the flow's last walk
    back from the targets finds those modules.
    """
    if not between.on_chains.importing:
        return []
    flow = _Flow(between, importers, uncuttable)
    phase: _Phase | None = _Phase(between.distance, between.nearest)  # no flow yet
    while phase is not None:
        flow.block(phase)
        phase = flow.next_phase()
    return sorted(flow.cut())


class _Phase(NamedTuple):
    """A phase of Dinic's method: how many residual imports each module is from the targets
    (`level`, as far as needed), and the level of each source it sends flow from."""

    level: Mapping[str, int]
    starts: dict[str, int]


class _Flow:
    """A maximum flow from the sources to the targets along the imports that lie on some chain
    (`on_chains`), by Dinic's method: each phase sends flow along the ways on which every step
    leads one level nearer a target, until each is blocked; the levels are then walked again
    back from the targets, over the residual graph, only as far as the nearest sources, which
    alone send flow in the next phase. The first phase's levels are the distances to the
    targets, already known: of the 2,597 modules of `transformers.models` with a chain to
    `transformers.pipelines`, the few nearest are walked down to the one import that cuts
    them all, not each of them.

    An import carries one unit, or one of an uncuttable module more than all the others
    together (`limit`), so a minimum cut takes it only where no cut without it exists."""

    def __init__(
        self, between: _Between, importers: Importers, uncuttable: AbstractSet[str]
    ) -> None:
        self.on_chains, self.importers, self.sources = (
            between.on_chains,
            importers,
            between.sources,
        )
        self.ends = between.ends
        self.importing = between.on_chains.importing
        heavy = self.importing & uncuttable
        self.limit: dict[str, int] = {}
        if heavy:  # more than all the imports of the others, on a chain or not
            imports = between.on_chains.imports
            others = sum(len(imports.get(m, ())) for m in self.importing - heavy)
            self.limit = dict.fromkeys(heavy, 1 + others)
        self.carried: dict[Edge, int] = {}
        self.full: set[Edge] = set()
        """The imports that carry all the flow they can."""
        self.sending: dict[str, set[str]] = {}
        """Each importer's imported modules whose import carries flow."""
        self.receiving: dict[str, set[str]] = {}
        """Each imported module's importers whose import of it carries flow."""
        self.entering: dict[str, AbstractSet[str]] = {}
        self.near_targets: set[str] = set()

    def next_phase(self) -> _Phase | None:
        """How many residual imports each module is from the targets, walked back from them
        as far as the level of the nearest sources; None when no source is reached (the flow is
        maximal, and the modules walked are those from which a target can be reached)."""
        sources, full, sending = self.sources, self.full, self.sending
        level = dict.fromkeys(self.ends, 0)
        frontier = self.ends
        depth = 0
        while frontier:
            depth += 1
            following = []
            for module in frontier:
                for importer in self._importers_on_chains(module):
                    if importer not in level and (importer, module) not in full:
                        level[importer] = depth
                        following.append(importer)
                # Against an import that carries flow, a residual way runs from the imported
                # module back to its importer.
                for imported in sending.get(module, ()):
                    if imported not in level:
                        level[imported] = depth
                        following.append(imported)
            starts = sorted(sources.intersection(following))
            if starts:
                return _Phase(level, dict.fromkeys(starts, depth))
            frontier = following
        self.near_targets = set(level)
        return None

    def _importers_on_chains(self, module: str) -> AbstractSet[str]:
        """The importers of `module` whose import of it lies on a chain: those of the graph
        that import on a chain at all (no import runs into a source), found once."""
        if module not in self.entering:
            self.entering[module] = self.importers.get(module, frozenset()) & self.importing
        return self.entering[module]

    def block(self, phase: _Phase) -> None:
        """Send flow from each start along ways whose every step is one level down, until none
        is left; a module found to lead nowhere is passed over from then on."""
        level, carried, full = phase.level, self.carried, self.full
        ways: dict[str, tuple[list[str], int]] = {}
        position: dict[str, int] = {}
        for start, top in phase.starts.items():
            ways[start], position[start] = self._ways(start, top - 1, level), 0
            path: list[tuple[str, str, bool]] = []
            module = start
            while True:
                (onward, along), index = ways[module], position[module]
                while index < len(onward):  # up to the first step that can take more flow
                    if index < along:
                        if (module, onward[index]) not in full:
                            break
                    elif (onward[index], module) in carried:
                        break
                    index += 1
                position[module] = index
                if index == len(onward):
                    if not path:
                        break
                    module, _, _ = path.pop()
                    position[module] += 1
                    continue
                following = onward[index]
                path.append((module, following, index >= along))
                if level[following] == 0:
                    self._send(path)
                    path, module = [], start
                    continue
                if following not in ways:
                    ways[following] = self._ways(following, level[following] - 1, level)
                    position[following] = 0
                module = following

    def _ways(self, module: str, down: int, level: Mapping[str, int]) -> tuple[list[str], int]:
        """The modules of the level `down` that a residual step from `module` reaches: along its
        imports, how many of them those are, then back along the imports of it that carry
        flow."""
        ways = [m for m in self.on_chains.of(module) if level.get(m) == down]
        along = len(ways)
        ways += [m for m in self.receiving.get(module, ()) if level.get(m) == down]
        return ways, along

    def _send(self, path: list[tuple[str, str, bool]]) -> None:
        """Send as much flow along `path` as each of its steps can take."""
        carried = self.carried
        amount = (
            min(
                carried[following, module]
                if back
                else self.limit.get(module, 1) - carried.get((module, following), 0)
                for module, following, back in path
            )
            if self.limit
            else 1  # every import carries one unit
        )
        for module, following, back in path:
            if back:
                carried[following, module] -= amount
                self.full.discard((following, module))
                if not carried[following, module]:
                    del carried[following, module]
                    self.sending[following].discard(module)
                    self.receiving[module].discard(following)
            else:
                carried[module, following] = carried.get((module, following), 0) + amount
                if carried[module, following] == self.limit.get(module, 1):
                    self.full.add((module, following))
                self.sending.setdefault(module, set()).add(following)
                self.receiving.setdefault(following, set()).add(module)

    def cut(self) -> set[Edge]:
        """Once the flow is maximal, the imports into the modules from which a target can be
        reached, from the others (each carries all it can)."""
        near = self.near_targets
        return {(a, b) for a, b in self.carried if a not in near and b in near}


def _shortest_chains_through(
    useful: _InOrder, sources: AbstractSet[str], targets: AbstractSet[str], cut: list[Edge]
) -> dict[Edge, Chain]:
    """The shortest chain that crosses each import of `cut`, the ways to their importers from
    the sources all read off one walk."""
    heads = _shortest_ways_from_sources(useful, sources, {importer for importer, _ in cut})
    return {
        edge: _shortest_chain_through(useful, sources, targets, edge, heads[edge[0]])
        for edge in cut
    }


def _shortest_ways_from_sources(
    useful: _InOrder, sources: AbstractSet[str], modules: set[str]
) -> dict[str, list[str]]:
    """The shortest way from a source to each of `modules` (all on chains), as
    `_shortest_way_from_sources` finds it: one breadth-first walk, as far as the last found."""
    parent: dict[str, str | None] = {s: None for s in sorted(sources)}
    missing = modules - parent.keys()
    queue = deque(parent)
    while queue and missing:
        current = queue.popleft()
        for following in useful[current]:
            if following not in parent:
                parent[following] = current
                missing.discard(following)
                queue.append(following)
    ways = {}
    for module in modules:
        way = [module]
        while (previous := parent[way[-1]]) is not None:
            way.append(previous)
        ways[module] = way[::-1]
    return ways


def _shortest_chain_through(
    useful: _InOrder,
    sources: AbstractSet[str],
    targets: AbstractSet[str],
    edge: Edge,
    head: list[str],
) -> Chain:
    """The shortest chain that crosses `edge`: `head`, the shortest way to its importer from a
    source, then the shortest way from its imported module to a target, with no module twice
    where the two can be chosen apart (in rare graphs they cannot: the chain then revisits a
    module, every hop still a real import)."""
    importer, imported = edge
    tail = _shortest_way_to_targets(useful, targets, imported, avoid=frozenset(head))
    if tail is None:
        tail = _shortest_way_to_targets(useful, targets, imported, avoid=frozenset())
        apart = _shortest_way_from_sources(useful, sources, importer, avoid=frozenset(tail or ()))
        head = apart or head
    return tuple(head) + tuple(tail or (imported,))


def _shortest_way_from_sources(
    useful: _InOrder, sources: AbstractSet[str], module: str, avoid: AbstractSet[str]
) -> list[str] | None:
    return _shortest_way(useful, sorted(sources), frozenset((module,)), avoid)


def _shortest_way_to_targets(
    useful: _InOrder, targets: AbstractSet[str], module: str, avoid: AbstractSet[str]
) -> list[str] | None:
    return None if module in avoid else _shortest_way(useful, [module], targets, avoid)


def _shortest_way(
    useful: _InOrder, starts: list[str], goals: AbstractSet[str], avoid: AbstractSet[str]
) -> list[str] | None:
    """The shortest way along `useful` from one of `starts` (breadth first, in their order: the
    same way every run) to one of `goals`, through no module of `avoid` after the start; None
    when there is none."""
    for start in starts:
        if start in goals:
            return [start]
    parent: dict[str, str | None] = dict.fromkeys(starts)
    queue = deque(starts)
    while queue:
        current = queue.popleft()
        for following in useful[current]:
            if following in parent or following in avoid:
                continue
            parent[following] = current
            if following in goals:
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
    interior, component by component, each after every one it reaches."""
    reach: dict[str, int] = {}
    starts = sorted({m for source in sources for m in imports.get(source, ()) if m not in blocked})

    def onward(module: str) -> list[str]:
        return [m for m in sorted(imports.get(module, ())) if m not in blocked]

    for component in strongly_connected(starts, onward):
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
    graph: ChainGraph, question: Question, removed: AbstractSet[Edge] = frozenset()
) -> bool:
    """Whether a chain of `question` is left once the imports `removed` are gone: walked back
    from the targets, or on from the sources where they are far fewer (`_far_more`)."""
    sources = frozenset(question.sources) - question.excluded
    targets = frozenset(question.targets) - sources - question.excluded
    if _far_more(targets, sources):
        return _joined_from_sources(graph.imports, sources, targets, question.excluded, removed)
    reached = set(targets)
    frontier = list(targets)
    while frontier:
        module = frontier.pop()
        for importer in graph.importers.get(module, ()):
            if importer in reached or (importer, module) in removed:
                continue
            if importer in sources:
                return True
            if importer in question.excluded:
                continue
            reached.add(importer)
            frontier.append(importer)
    return False


def _joined_from_sources(
    imports: Imports,
    sources: AbstractSet[str],
    targets: AbstractSet[str],
    excluded: AbstractSet[str],
    removed: AbstractSet[Edge],
) -> bool:
    reached = set(sources)
    frontier = list(sources)
    while frontier:
        module = frontier.pop()
        for imported in imports.get(module, ()):
            if imported in reached or (module, imported) in removed:
                continue
            if imported in targets:
                return True
            if imported in excluded:
                continue
            reached.add(imported)
            frontier.append(imported)
    return False


def contract_cut(
    graph: ChainGraph,
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
            between = _between(graph, sources, targets, excluded)
            candidate.update(_cut_nearest_targets(between, graph.importers, uncuttable))
        if any(joined(graph, q, candidate) for q, _ in asked):
            continue  # merging let a chain through (one that ran through another target)
        if len(candidate) < len(best):
            best = candidate
    return tuple(sorted(best))
