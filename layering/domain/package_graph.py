"""The import graph drawn at a depth (`layering graph`): each module squashed to the first N
components of its name, edges weighted by how many module-to-module imports they stand for,
and marked with the contracts whose reported imports they carry.

Pure: the engine hands in the imports (importer -> imported modules) and the broken imports.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

Pair = tuple[str, str]


def squashed(module: str, depth: int) -> str:
    """`module` cut to its first `depth` name components: `django.db.models.base` at depth 2
    is `django.db`; a module with fewer components stays itself."""
    return ".".join(module.split(".")[:depth])


def components(module: str) -> int:
    return module.count(".") + 1


@dataclass(frozen=True, order=True)
class GraphNode:
    """A squashed module: how many modules it stands for, whether it is an external package,
    and the contracts broken by an import between two of its own modules (drawn nowhere else)."""

    name: str
    modules: int
    external: bool = False
    broken_by: tuple[str, ...] = ()


@dataclass(frozen=True, order=True)
class GraphEdge:
    """`importer` imports `imported`: `imports` module-to-module imports squash into it (two
    modules count once however many statements join them); `broken_by` names the contracts
    that report one of them."""

    importer: str
    imported: str
    imports: int
    broken_by: tuple[str, ...] = ()


@dataclass(frozen=True)
class PackageGraph:
    """What `layering graph` draws; `undrawn` counts the imports broken contracts report that
    fall outside the drawing (an importer outside the package, or no import in the graph)."""

    package: str | None
    root_packages: tuple[str, ...]
    depth: int
    nodes: tuple[GraphNode, ...]
    edges: tuple[GraphEdge, ...]
    broken_contracts: tuple[str, ...] = ()
    undrawn: int = 0


def squash(
    imports: Mapping[str, Iterable[str]],
    internal: Iterable[str],
    external: Iterable[str],
    depth: int,
    broken: Mapping[Pair, Iterable[str]],
) -> tuple[tuple[GraphNode, ...], tuple[GraphEdge, ...], int]:
    """Nodes, edges and the number of undrawn broken imports of the graph `imports`, drawing
    the `internal` modules squashed to `depth` and the `external` packages as they are.

    An import between two modules of one node is no edge (no self-loops); if a contract
    reports it, the node carries the contract. Everything comes out sorted.
    """
    node_of = {module: squashed(module, depth) for module in internal}
    externals = set(external)
    node_of.update((package, package) for package in externals)
    weights: dict[Pair, int] = {}
    for importer in node_of:
        for imported in imports.get(importer, ()):
            if imported in node_of and node_of[imported] != node_of[importer]:
                edge = (node_of[importer], node_of[imported])
                weights[edge] = weights.get(edge, 0) + 1
    edge_marks: dict[Pair, set[str]] = {}
    node_marks: dict[str, set[str]] = {}
    undrawn = 0
    for (importer, imported), contracts in broken.items():
        if (
            importer not in node_of
            or imported not in node_of
            or imported not in imports.get(importer, ())
        ):
            undrawn += 1
        elif node_of[importer] == node_of[imported]:
            node_marks.setdefault(node_of[importer], set()).update(contracts)
        else:
            edge_marks.setdefault((node_of[importer], node_of[imported]), set()).update(contracts)
    sizes: dict[str, int] = {}
    for node in node_of.values():
        sizes[node] = sizes.get(node, 0) + 1
    nodes = tuple(
        GraphNode(name, sizes[name], name in externals, tuple(sorted(node_marks.get(name, ()))))
        for name in sorted(sizes)
    )
    edges = tuple(
        GraphEdge(
            importer,
            imported,
            weights[importer, imported],
            tuple(sorted(edge_marks.get((importer, imported), ()))),
        )
        for importer, imported in sorted(weights)
    )
    return nodes, edges, undrawn
