"""Where a name a module re-exports is defined: the end of its chain of `from D import N`.

A module's top-level names, read statically (`ModuleNames`), are each defined there (a def, a
class, an assignment), bound to a module (`import a.b as m`, `from pkg import sub`), or taken
from another module by `from D import N` (possibly `as`). Following the third kind from module
to module ends at the module that defines the name: its home. Nothing is guessed: a chain that
reaches a module the source cannot tell about (a star import that may bind the name, a
module-level `__getattr__`, a module outside the package), a name bound to a module, or a cycle
has no home.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple


class ModuleNames(NamedTuple):
    """A module's top-level names: `defined` there, bound to `modules`, or `imported[name]`
    = (absolute module, name there). `complete` is False where a name bound by none of them
    may still be bound (a star import, a module-level `__getattr__`, `globals()`)."""

    defined: frozenset[str]
    modules: frozenset[str]
    imported: Mapping[str, tuple[str, str]]
    complete: bool


class Home(NamedTuple):
    """Where a re-exported name is defined: `module`, under `name` there; `through` are the
    modules that re-export it on the way, after the one it was taken from."""

    module: str
    name: str
    through: tuple[str, ...]


def home_of(module: str, name: str, names_of: Callable[[str], ModuleNames | None]) -> Home | None:
    """The home of `name` taken from `module`, when `module` does not define it but re-exports it
    from a module that does (through any chain of re-exports); None when `module` defines it,
    binds it to a module, or the chain cannot be followed to its end statically."""
    names = names_of(module)
    if names is None or name not in names.imported:
        return None
    seen = {module}
    through: list[str] = []
    current, current_name = names.imported[name]
    while True:
        if current in seen:
            return None  # a cycle: no module defines it
        seen.add(current)
        names = names_of(current)
        if names is None:
            return None
        if current_name in names.imported:
            through.append(current)
            current, current_name = names.imported[current_name]
            continue
        if current_name in names.defined:
            return Home(current, current_name, tuple(through))
        return None  # bound to a module, or not bound where the source can tell
