"""What importing a module executes, as its source says: load steps, the closure, its chains.

Importing `a.b.c` executes `a/__init__.py`, then `a/b/__init__.py`, then `a/b/c.py`, each
running its module-level import statements in source order; a module already executing or
executed is not run again. `walk_loads` replays exactly that over the steps the source
holds, so the module that first loads each module, and the chain of statements behind it,
are the ones Python itself goes through (and that the runtime probe records), whenever the
source says all there is to say (no dynamic imports, every branch taken).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from layering.domain.patterns import ModulePattern, index_patterns, is_within
from layering.domain.results import Hop

PARENT_PACKAGE = "parent package"
CONDITIONAL = "conditional"


@dataclass(frozen=True, order=True)
class LoadStep:
    """`importer` executing the statement at `path:line` loads `imported`.

    `order` is where the step falls in the importer's execution (the statement's first line,
    the imported name's line, then the parent packages before the module they hold).
    `parent_package` marks a package executed because a module inside it was imported;
    `conditional` a statement in a branch that may not run (`if`, `try`, a loop).
    """

    order: tuple[int, int, int]
    importer: str
    imported: str
    path: str
    line: int
    names: tuple[str, ...] = ()
    parent_package: bool = False
    conditional: bool = False

    @property
    def marks(self) -> tuple[str, ...]:
        return tuple(
            mark
            for mark, present in (
                (PARENT_PACKAGE, self.parent_package),
                (CONDITIONAL, self.conditional),
            )
            if present
        )

    def hop(self) -> Hop:
        return Hop(self.importer, self.imported, self.path, self.line, self.names, self.marks)


LoadGraph = dict[str, frozenset[LoadStep]]
"""A plain graph of the closure: each executed module -> the steps its statements take."""


def ancestors_and_self(module: str) -> list[str]:
    """`a`, `a.b`, `a.b.c` for `a.b.c`: what `import a.b.c` executes, in that order."""
    parts = module.split(".")
    return [".".join(parts[:end]) for end in range(1, len(parts) + 1)]


@dataclass
class LoadClosure:
    """The modules that `import module` executes, each with the step that first loaded it.

    `loaders[m]` is None for the module itself and its parent packages (the import runs
    them without a statement of the package's); `graph` holds every step of every executed
    module, not only the first ones, for reports that weigh all the ways in (a minimum cut).
    """

    module: str
    loaders: dict[str, LoadStep | None] = field(default_factory=dict)
    graph: LoadGraph = field(default_factory=dict)

    def chain(self, loaded: str) -> tuple[LoadStep, ...]:
        """The steps from the module (or a parent package of it) down to `loaded`.

        It starts at the last statement run by the module or a parent package of it, as the
        probe's runtime chain does.
        """
        steps = []
        current = self.loaders.get(loaded)
        while current is not None:
            steps.append(current)
            if is_within(self.module, current.importer):
                break
            current = self.loaders.get(current.importer)
        return tuple(reversed(steps))

    def covered(self, patterns: Iterable[ModulePattern]) -> list[str]:
        """Per pattern, the outermost executed modules it covers; sorted, each once."""
        index = index_patterns(patterns)
        by_pattern: dict[ModulePattern, set[str]] = {}
        for name in self.loaders:
            for pattern in index.covering(name):
                by_pattern.setdefault(pattern, set()).add(name)
        found: set[str] = set()
        for covered in by_pattern.values():
            found.update(
                name
                for name in covered
                if not any(ancestor in covered for ancestor in ancestors_and_self(name)[:-1])
            )
        return sorted(found)


def walk_loads(
    module: str,
    steps_of: Callable[[str], Sequence[LoadStep]],
    stop_at: Callable[[str], bool] = lambda name: False,
) -> LoadClosure:
    """Execute `import module` on paper: `steps_of(m)` gives m's steps in execution order.

    Depth first and in order, as the interpreter goes; each module is entered once, the
    first time a step reaches it (even while it is still executing: an import cycle).
    A module for which `stop_at` is true is entered but not followed: what it loads in turn
    is left out (a contract that forbids it needs only the way to it).
    """
    closure = LoadClosure(module)
    for root in ancestors_and_self(module):
        if root in closure.loaders:
            continue
        closure.loaders[root] = None
        stack = [iter(_steps(closure, root, steps_of, stop_at))]
        while stack:
            step = next(stack[-1], None)
            if step is None:
                stack.pop()
                continue
            if step.imported in closure.loaders:
                continue
            closure.loaders[step.imported] = step
            stack.append(iter(_steps(closure, step.imported, steps_of, stop_at)))
    return closure


def _steps(
    closure: LoadClosure,
    module: str,
    steps_of: Callable[[str], Sequence[LoadStep]],
    stop_at: Callable[[str], bool],
) -> Sequence[LoadStep]:
    if stop_at(module):
        return ()
    steps = steps_of(module)
    closure.graph[module] = frozenset(steps)
    return steps


class ExecutedImports:
    """The statements that load closures execute, as chains are read: each executed module's
    imports (`imports`: module -> the modules its statements load, parent packages included),
    and the statements behind each import. A module's steps are the same in every closure
    that executes it (those of one contract stop at the same modules)."""

    def __init__(self, closures: Iterable[LoadClosure]) -> None:
        self._steps: dict[tuple[str, str], list[LoadStep]] = {}
        for closure in closures:
            for module, steps in closure.graph.items():
                for step in steps:
                    self._steps.setdefault((module, step.imported), []).append(step)
        imports: dict[str, set[str]] = {}
        for importer, imported in self._steps:
            imports.setdefault(importer, set()).add(imported)
        self.imports = {module: frozenset(imported) for module, imported in imports.items()}

    def statements(self, importer: str, imported: str) -> list[Hop]:
        """Each statement by which `importer` loads `imported`, in execution order."""
        return [step.hop() for step in sorted(set(self._steps.get((importer, imported), ())))]

    def located(self, chain: Sequence[str]) -> tuple[Hop, ...]:
        """A chain of modules as the statements that run it: for each import, the first."""
        return tuple(self.statements(a, b)[0] for a, b in zip(chain, chain[1:]))


def loaded_through(module: str, chain: Sequence[LoadStep]) -> str:
    """The parent package a chain starts from, when it is not the module itself; else ""."""
    if chain and chain[0].importer != module and is_within(module, chain[0].importer):
        return chain[0].importer
    return ""
