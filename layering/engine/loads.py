"""The load closure of a module, read from the source of the modules it executes, and only those.

Each executed module's import facts (`Evidence.executed_facts`: the file's top-level
statements that can import, parsed with `ast`) become load steps: the statements that run
when the module runs (module level, also inside `if`, `try`, `with` and class bodies; never
in functions, under `if TYPE_CHECKING:` or `lazy`), each after the parent packages it
executes first and, for `from p import x`, before the submodule `p.x`. External packages are
entered but not read: a step into one is a load of
it, and the walk stops there.
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Sequence

from layering.domain.facts import ImportFact
from layering.domain.loads import LoadClosure, LoadStep, ancestors_and_self, walk_loads
from layering.domain.patterns import ModulePattern, index_patterns
from layering.engine.evidence import Evidence


class LoadReader:
    """Load steps of the package's modules, each file read at most once per run.

    One reader per `Evidence` (`LoadReader.of`), so the contracts of a run share its steps.
    """

    @classmethod
    def of(cls, evidence: Evidence) -> LoadReader:
        reader = _READERS.get(evidence)
        if reader is None:
            reader = _READERS[evidence] = cls(evidence)
        return reader

    def __init__(self, evidence: Evidence) -> None:
        self.evidence = evidence
        self._steps: dict[str, tuple[LoadStep, ...]] = {}

    def closure(self, module: str, stop_at: Sequence[ModulePattern] = ()) -> LoadClosure:
        """What `import module` executes, as the source says; modules that `stop_at` covers
        are entered, not followed."""
        stopping = index_patterns(stop_at)
        return walk_loads(module, self.steps_of, lambda name: bool(stopping.covering(name)))

    def steps_of(self, module: str) -> tuple[LoadStep, ...]:
        """The steps executing `module` takes, in execution order (none for an external one).

        The names one statement takes from one module are gathered on a single step.
        """
        if module not in self._steps:
            by_statement: dict[tuple[str, int], list[LoadStep]] = {}
            for fact in self.evidence.executed_facts(module):
                for step in _fact_steps(fact):
                    if step.imported != module:
                        by_statement.setdefault((step.imported, step.line), []).append(step)
            self._steps[module] = tuple(sorted(_merged(steps) for steps in by_statement.values()))
        return self._steps[module]


def _fact_steps(fact: ImportFact) -> list[LoadStep]:
    """`import a.b.c`: a and a.b (parent packages), then a.b.c; `from p import x`: p's
    parents, p, then p.x if it is a submodule. Every step at the statement's first line,
    where the interpreter reports the import running."""
    target = fact.imported if fact.name is None else fact.module
    submodule = fact.name is not None and fact.imported == f"{fact.module}.{fact.name}"
    executed = ancestors_and_self(target)
    names = (fact.name,) if fact.name is not None and not submodule else ()
    steps = [
        LoadStep(
            order=(fact.first_line, 0, depth),
            importer=fact.importer,
            imported=name,
            path=fact.path,
            line=fact.first_line,
            names=names if name == target else (),
            parent_package=name != target,
            conditional=fact.conditional,
        )
        for depth, name in enumerate(executed)
    ]
    if fact.name is not None and submodule:
        steps.append(
            LoadStep(
                order=(fact.first_line, fact.line, len(executed)),
                importer=fact.importer,
                imported=fact.imported,
                path=fact.path,
                line=fact.first_line,
                names=(fact.name,),
                conditional=fact.conditional,
            )
        )
    return steps


def _merged(steps: list[LoadStep]) -> LoadStep:
    first = min(steps)
    if len(steps) == 1:
        return first
    return dataclasses.replace(
        first, names=tuple(sorted({name for step in steps for name in step.names}))
    )


_READERS: weakref.WeakKeyDictionary[Evidence, LoadReader] = weakref.WeakKeyDictionary()
