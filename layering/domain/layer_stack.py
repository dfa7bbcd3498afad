"""The declared stack of a `layers` contract (`layering graph --contract ID`): its layers, highest
first, in each container, and the imports that break it, each placed on the layer modules that
hold its two ends.

Pure: the command hands in the layers as written, the containers and modules found, and the
broken import statements of the contract's report.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from layering.domain.patterns import is_within


@dataclass(frozen=True)
class StackLayer:
    """One layer: its modules (full names), and whether they may not import each other
    (`a | b`, independent) or may (`a : b`)."""

    modules: tuple[str, ...]
    independent: bool


@dataclass(frozen=True)
class StackGroup:
    """The layers of one container ("" without containers), highest first."""

    container: str
    layers: tuple[StackLayer, ...]


@dataclass(frozen=True, order=True)
class BrokenImport:
    """One import statement that breaks the contract, at `path:line`, drawn from the layer
    module (or, outside every layer, the module) that holds its importer to the one that holds
    what it imports."""

    importer_node: str
    imported_node: str
    path: str
    line: int
    importer: str
    imported: str

    @property
    def place(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True)
class LayerStack:
    """What `layering graph --contract ID` draws; `outside` are the modules, in no layer, that
    broken imports start or end at (a chain's import off the stack)."""

    contract_id: str
    name: str
    groups: tuple[StackGroup, ...]
    broken: tuple[BrokenImport, ...] = ()
    checked: bool = True
    """Whether the contract was checked (False: `--no-contracts`, nothing is marked)."""

    @property
    def layer_modules(self) -> tuple[str, ...]:
        return tuple(m for g in self.groups for layer in g.layers for m in layer.modules)

    @property
    def outside(self) -> tuple[str, ...]:
        inside = set(self.layer_modules)
        ends = {b.importer_node for b in self.broken} | {b.imported_node for b in self.broken}
        return tuple(sorted(ends - inside))


def stack_groups(
    layers: Sequence[Sequence[tuple[str, bool]]], containers: Sequence[str], present: set[str]
) -> tuple[StackGroup, ...]:
    """The groups of `layers` (each layer's (tail, independent) modules, highest first) in each
    container (one group without containers), keeping the modules in `present` (an optional
    layer module that does not exist is not drawn; a layer left empty neither)."""
    groups = []
    for container in containers or [""]:
        stacked = []
        for layer in layers:
            modules = tuple(
                name
                for name in (f"{container}.{tail}" if container else tail for tail, _ in layer)
                if name in present
            )
            if modules:
                stacked.append(StackLayer(modules, all(i for _, i in layer)))
        groups.append(StackGroup(container, tuple(stacked)))
    return tuple(groups)


def placed(
    groups: Sequence[StackGroup], statements: Iterable[tuple[str, str, str, int]]
) -> tuple[BrokenImport, ...]:
    """Each (importer, imported, path, line) statement with its ends on the deepest layer
    module that holds them (the module itself outside every layer), sorted."""
    modules = sorted(
        (m for g in groups for layer in g.layers for m in layer.modules),
        key=lambda m: -m.count("."),
    )

    def node(module: str) -> str:
        return next((m for m in modules if is_within(module, m)), module)

    return tuple(
        sorted(
            {
                BrokenImport(node(importer), node(imported), path, line, importer, imported)
                for importer, imported, path, line in statements
            }
        )
    )
