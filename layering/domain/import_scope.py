"""Which imports a contract counts: `type_checking` and `function_level` ("count" or
"ignore") and `typing_only` ("count" or "allow"), options of every contract decided from the
source."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from layering.domain.facts import ImportFact

COUNT = "count"
IGNORE = "ignore"
ALLOW = "allow"
SCOPE_OPTIONS = ("type_checking", "function_level", "typing_only")
SCOPE_VALUES = {"type_checking": IGNORE, "function_level": IGNORE, "typing_only": ALLOW}
"""Each option's value that leaves imports out; the other is "count", the default."""
TYPING_ONLY_MARK = "typing-only"
"""How `explain` marks a statement only annotations that are not evaluated need."""


class ImportScope(NamedTuple):
    """The kinds of import a contract counts; by default every one (as Python may run each:
    a function's import when it is called, a `TYPE_CHECKING` one under a type checker, one
    whose names only annotations use wherever it stands)."""

    type_checking: bool = True
    function_level: bool = True
    typing_only: bool = True

    @property
    def counts_every_import(self) -> bool:
        return self.type_checking and self.function_level and self.typing_only

    def counts(self, fact: ImportFact, is_typing_only: Callable[[ImportFact], bool]) -> bool:
        """Whether `fact` (an import statement's name, or a use of one) counts;
        `is_typing_only` tells an import only annotations not evaluated at run time need."""
        if fact.type_checking and not self.type_checking:
            return False
        if fact.in_function and not self.function_level:
            return False
        return self.typing_only or not is_typing_only(fact)
