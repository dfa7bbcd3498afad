"""Allowances: known exceptions to a contract, at module or name level, that may only shrink."""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import NamedTuple

from layering.domain.facts import ImportFact
from layering.domain.patterns import ModulePattern, PatternIndex


class Allowance(NamedTuple):
    """Excuses the imports of `module` by `importer` (any importer the contract names when None).

    With `names`, only `from <module> import <name>` of those names is excused: an import of any
    other name, or of the module itself, is still a violation.
    """

    module: ModulePattern
    importer: ModulePattern | None = None
    names: tuple[str, ...] | None = None
    line: int = 0
    position: int = -1
    """The allowance's position in its contract's `allow` list."""
    whole_package: bool = False
    """`module` names an external package, which the graph keeps whole: an import of any of its
    submodules is an import of it (`"a -> pygments"` excuses `import pygments.lexers`), as a
    report of the graph spells it."""

    def excuses(self, fact: ImportFact) -> bool:
        if self.importer is not None and not self.importer.matches(fact.importer):
            return False
        if self.names is None:
            return self._names_module(fact.imported) or (
                fact.name is not None and self._names_module(fact.dotted)
            )
        return fact.name in self.names and self._names_module(fact.module)

    def _names_module(self, module: str) -> bool:
        if self.whole_package:
            return self.module.covers(module)
        return self.module.matches(module)

    def excuses_edge(self, importer: str, imported: str) -> bool:
        """Whether a module-level allowance covers a whole import edge of the graph."""
        if self.names is not None:
            return False
        if self.importer is not None and not self.importer.matches(importer):
            return False
        return self.module.matches(imported)

    def describe(self) -> str:
        """`importer -> module (names)`, as a report writes an import."""
        importer = f"{self.importer} -> " if self.importer else ""
        names = f" ({', '.join(self.names)})" if self.names is not None else ""
        return f"{importer}{self.module}{names}"


class AllowanceIndex:
    """A contract's allowances found by what they name, for a contract of thousands of them (a
    baseline's): each answer is what asking every allowance would give, in their order."""

    def __init__(self, allowances: Sequence[Allowance]) -> None:
        self._allowances = tuple(allowances)
        self._by_module = PatternIndex((a.module, i) for i, a in enumerate(self._allowances))
        self._by_importer = PatternIndex(
            (a.importer, i) for i, a in enumerate(self._allowances) if a.importer is not None
        )
        self._of_any_importer = [i for i, a in enumerate(self._allowances) if a.importer is None]

    def excusing(self, fact: ImportFact) -> list[Allowance]:
        """The allowances that excuse `fact`."""
        found = {*self._by_module.covering(fact.imported), *self._by_module.covering(fact.module)}
        if fact.name is not None:
            found.update(self._by_module.covering(fact.dotted))
        return [self._allowances[i] for i in sorted(found) if self._allowances[i].excuses(fact)]

    def of_importer(self, importer: str) -> list[Allowance]:
        """The allowances that may excuse an import by `importer`: those that name it, and
        those that name no importer."""
        found = {*self._by_importer.matching(importer), *self._of_any_importer}
        return [self._allowances[i] for i in sorted(found)]


AllowanceUse = Allowance | tuple[Allowance, str]
"""What `record_use` records: an allowance that excused an import, or (allowance, name) for
each name a name-level one excused."""


def record_use(used: set[AllowanceUse], allowance: Allowance, fact: ImportFact) -> None:
    """Mark `allowance` as used by `fact`, and for a name-level one, the name it excused."""
    used.add(allowance)
    if allowance.names is not None and fact.name is not None:
        used.add((allowance, fact.name))


def unused(allowances: Sequence[Allowance], used: AbstractSet[AllowanceUse]) -> list[Allowance]:
    """The allowances that excused nothing: each must be removed, since allowances only shrink."""
    return sorted((a for a in allowances if a not in used), key=lambda a: (a.line, a.describe()))


def unused_names(
    allowances: Sequence[Allowance], used: AbstractSet[AllowanceUse]
) -> list[tuple[Allowance, str]]:
    """The names of used name-level allowances that no import takes: they shrink name by name."""
    return [
        (a, name)
        for a in sorted(allowances, key=lambda a: (a.line, a.describe()))
        if a in used and a.names is not None
        for name in a.names
        if (a, name) not in used
    ]
