"""A package's public surface (`interface` contracts): what it exports, and which imports from
outside it reach past that.

The surface is a set of entries relative to the package: names (`"Model"`) and submodules
(`"fields"`, `"fields.related"`), a public submodule public with everything under it. It is
given (`public = [...]`) or read from the package's `__all__`, statically: a literal list or
tuple of strings, and sums of such with other modules' `__all__` (as Django builds
`django.db.models.__all__`), followed module by module. What cannot be read so is said, where.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from layering.domain.facts import ImportFact
from layering.domain.patterns import is_within


class ExportsReading(NamedTuple):
    """What one module's source says of its `__all__`, its references resolved to modules.

    `names` are the literal strings; `others` the modules whose `__all__` is added, each with
    the line that adds it. `line` is that of the first binding of `__all__` (0: there is none);
    `unreadable`, the line and what could not be read statically.
    """

    path: str
    names: tuple[str, ...] = ()
    others: tuple[tuple[int, str], ...] = ()
    line: int = 0
    unreadable: tuple[int, str] | None = None


class Unreadable(NamedTuple):
    """Where a package's `__all__` (or one it adds) cannot be read statically, and why."""

    path: str
    line: int
    reason: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.reason}" if where else self.reason


def exported_names(
    module: str, read: Callable[[str], ExportsReading | None]
) -> frozenset[str] | Unreadable:
    """`module`'s `__all__`, with the `__all__` of each module it adds, followed statically
    (each module once: a cycle is unreadable, as it is at run time)."""
    done: dict[str, frozenset[str] | Unreadable] = {}

    def follow(
        name: str, via: tuple[str, int] | None, active: tuple[str, ...]
    ) -> frozenset[str] | Unreadable:
        if name in done:
            return done[name]
        reading = read(name)
        if reading is None:
            if via is None:
                return Unreadable("", 0, f"'{name}' has no source file to read __all__ from")
            return Unreadable(
                via[0], via[1], f"'{name}' is not a module of the package, read statically"
            )
        if name in active:
            return Unreadable(reading.path, reading.line, f"'{name}.__all__' adds itself")
        if reading.unreadable is not None:
            line, reason = reading.unreadable
            return Unreadable(reading.path, line, reason)
        if not reading.line:
            where = via or (reading.path, 0)
            return Unreadable(where[0], where[1], f"'{name}' defines no __all__")
        names = set(reading.names)
        for line, other in reading.others:
            found = follow(other, (reading.path, line), (*active, name))
            if isinstance(found, Unreadable):
                return found
            names |= found
        done[name] = frozenset(names)
        return done[name]

    return follow(module, None, ())


def is_public(entries: Iterable[str], relative: str) -> bool:
    """Whether `relative` (a name or a dotted submodule path, relative to the package) is an
    entry of the surface or lies under a public submodule."""
    return any(relative == e or relative.startswith(e + ".") for e in entries)


def breaches(fact: ImportFact, package: str, entries: frozenset[str]) -> bool:
    """Whether `fact`, an import by a module outside `package`, reaches past its surface:
    a deeper module that lies under no public submodule, or a name the package does not
    export. `import package`, `from package import *` and the package imported from its
    parent are within it."""
    if fact.name is None:
        module = fact.module
        if not is_within(module, package) or module == package:
            return False
        return not is_public(entries, module[len(package) + 1 :])
    if fact.module == package:
        return fact.name != "*" and not is_public(entries, fact.name)
    if is_within(fact.module, package):
        relative = fact.module[len(package) + 1 :]
        return not (is_public(entries, relative) or is_public(entries, f"{relative}.{fact.name}"))
    return False
