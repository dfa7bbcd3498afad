"""The contracts `layering init` proposes: what a package's imports today justify, and no more.

For a package, its children (the modules and subpackages directly in it) and which child reaches
which (a chain of imports from a module in one to a module in the other, through any modules
but the other children) decide it: when the reach admits an order, a `layers` contract lists
the children highest first, in the topological order of the condensed graph (children that
reach each other share a layer as `a : b`; the children of a level that reach none of each
other, `a | b`); when no child reaches another, an `independence` contract. Either is kept on
today's code, since each chain it forbids would be a reach this graph does not have.

Pure: the command hands in each package's children and their reach.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from layering.domain.components import strongly_connected


@dataclass(frozen=True)
class InferredLayer:
    """One layer: its children, and whether they reach one another (`a : b`) or not (`a | b`)."""

    modules: tuple[str, ...]
    cyclic: bool = False

    @property
    def text(self) -> str:
        """The layer as import-linter writes it."""
        return (" : " if self.cyclic else " | ").join(self.modules)


@dataclass(frozen=True)
class InferredContract:
    """A contract proposed for `package`, and why: `reaches` counts the pairs of children one of
    which reaches another below it (what the order rests on)."""

    package: str
    type_name: str
    layers: tuple[InferredLayer, ...] = ()
    modules: tuple[str, ...] = ()
    reaches: int = 0
    upward: int = 0
    """The pairs of children one of which reaches one above it today (only where import cycles
    were kept apart: a baseline excuses them)."""

    @property
    def contract_id(self) -> str:
        return f"{self.package}-{self.type_name}"

    @property
    def layer_modules(self) -> tuple[str, ...]:
        return tuple(m for layer in self.layers for m in layer.modules)


@dataclass(frozen=True)
class PassedOver:
    """A package that gets no contract, and why (all its children in one import cycle)."""

    package: str
    reason: str


@dataclass(frozen=True)
class Proposal:
    """What the package's imports justify: the contracts, and the packages passed over."""

    package: str
    contracts: tuple[InferredContract, ...]
    passed_over: tuple[PassedOver, ...]
    depth: int


@dataclass(frozen=True)
class Difference:
    """How one proposed contract stands against today's configuration."""

    contract: InferredContract
    existing: str
    """The id of today's contract over the same modules ("" when there is none)."""
    same: bool


def infer(
    package: str, reach: Mapping[str, frozenset[str]], apart: bool = False
) -> InferredContract | PassedOver | None:
    """The contract the reach between `package`'s children (child -> the children it reaches)
    justifies; None for a package of fewer than two children. With `apart`, children in an
    import cycle do not share a layer: each gets one of its own, in the order with the fewest
    children reaching upwards (`_apart`), today's upward reach to be excused (a baseline)."""
    children = sorted(reach)
    if len(children) < 2:
        return None
    pairs = sum(len(reach[c] - {c}) for c in children)
    if not pairs:
        return InferredContract(package, "independence", modules=tuple(children))
    components = _strongly_connected(children, reach)
    if len(components) == 1 and not apart:
        return PassedOver(
            package, f"its {len(children)} children all import each other (an import cycle)"
        )
    component_of = {m: i for i, component in enumerate(components) for m in component}
    below: dict[int, set[int]] = {i: set() for i in range(len(components))}
    for child in children:
        for reached in reach[child]:
            if component_of[reached] != component_of[child]:
                below[component_of[child]].add(component_of[reached])
    level: dict[int, int] = {}

    def level_of(component: int) -> int:
        if component not in level:
            level[component] = 1 + max((level_of(c) for c in below[component]), default=-1)
        return level[component]

    levels: dict[int, list[int]] = {}
    for component in range(len(components)):
        levels.setdefault(level_of(component), []).append(component)
    if len(levels) == 1 and not apart:
        cycles = sum(1 for c in components if len(c) > 1)
        return PassedOver(
            package,
            f"its children admit no order: {cycles} import cycle{'s' if cycles != 1 else ''}, "
            "and nothing else imports between them",
        )
    layers = []
    for height in sorted(levels, reverse=True):
        if apart:
            layers.extend(_apart([components[c] for c in levels[height]], reach))
            continue
        members = sorted(m for c in levels[height] for m in components[c])
        cyclic = any(len(components[c]) > 1 for c in levels[height])
        layers.append(InferredLayer(tuple(members), cyclic))
    upward = sum(
        1
        for i, layer in enumerate(layers)
        for child in layer.modules
        for above in layers[:i]
        for other in above.modules
        if other in reach[child]
    )
    return InferredContract(
        package, "layers", layers=tuple(layers), reaches=pairs - upward, upward=upward
    )


def _apart(
    components: list[tuple[str, ...]], reach: Mapping[str, frozenset[str]]
) -> list[InferredLayer]:
    """The layers of one level whose import cycles stay apart, highest first: each cycle's
    children one per layer, the child that reaches the fewest of the rest lowest; the i-th
    layer holds the i-th child of each cycle, and the first the children in no cycle too
    (children of different components of a level reach none of each other: `a | b`)."""
    orders = []
    for component in components:
        rest, lowest_first = set(component), []
        while rest:
            lowest = min(rest, key=lambda child: (len(reach[child] & rest), child))
            lowest_first.append(lowest)
            rest.discard(lowest)
        orders.append(lowest_first[::-1])
    layers = []
    for depth in range(max(len(order) for order in orders)):
        members = sorted(order[depth] for order in orders if len(order) > depth)
        layers.append(InferredLayer(tuple(members)))
    return layers


def _strongly_connected(
    nodes: Sequence[str], reach: Mapping[str, frozenset[str]]
) -> list[tuple[str, ...]]:
    """The strongly connected components of the reach, each sorted."""
    return [
        tuple(sorted(component))
        for component in strongly_connected(nodes, lambda node: sorted(reach[node]))
    ]


def children_reach(
    package: str, children: Sequence[str], imports: Mapping[str, frozenset[str]]
) -> dict[str, frozenset[str]]:
    """Which children of `package` each child reaches: a chain from a module in it to a module
    in the other, through modules that lie in no other child (a chain through another child is
    that child's reach, found from it)."""
    known = set(children)
    owner: dict[str, str] = {}
    members: dict[str, list[str]] = {child: [] for child in children}
    for module in imports:
        if module.startswith(package + "."):
            child = package + "." + module[len(package) + 1 :].split(".", 1)[0]
            if child in known:
                owner[module] = child
                members[child].append(module)
    reach = {}
    for child in children:
        starts = members[child]
        seen = set(starts)
        frontier = list(starts)
        reached: set[str] = set()
        while frontier:
            module = frontier.pop()
            for imported in imports.get(module, ()):
                if imported in seen:
                    continue
                seen.add(imported)
                other = owner.get(imported)
                if other is not None and other != child:
                    reached.add(other)
                    continue
                frontier.append(imported)
        reach[child] = frozenset(reached)
    return reach
