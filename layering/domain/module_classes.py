"""Classes of modules a pattern may name: `<stdlib>`, `<third-party>` and `<first-party>`.

A module's class is its top-level package's: the root packages are first-party, the standard
library of the interpreter that runs the code is `<stdlib>`, and every other top-level module,
installed or not, is third-party.
"""

from __future__ import annotations

from dataclasses import dataclass

STDLIB = "<stdlib>"
THIRD_PARTY = "<third-party>"
FIRST_PARTY = "<first-party>"
MODULE_CLASSES = (FIRST_PARTY, STDLIB, THIRD_PARTY)
EXTERNAL_CLASSES = (STDLIB, THIRD_PARTY)

_IN_NO_CLASS = frozenset({"__future__", "__main__"})
"""A compiler directive, and the program being run: neither is a package of any class."""


@dataclass(frozen=True)
class ModuleClasses:
    """Which class each module is in, for one run: its root packages and the names of the
    standard library's top-level modules (`sys.stdlib_module_names` of the code's interpreter)."""

    first_party: tuple[str, ...]
    stdlib: frozenset[str]

    def class_of(self, module: str) -> str | None:
        top_level = module.partition(".")[0]
        if top_level in _IN_NO_CLASS:
            return None
        if any(module == root or module.startswith(root + ".") for root in self.first_party):
            return FIRST_PARTY
        if top_level in self.stdlib:
            return STDLIB
        return THIRD_PARTY
