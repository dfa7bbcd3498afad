"""Which imports a contract counts: `type_checking` and `function_level` ("count" or
"ignore"), options of every contract decided from the source."""

from __future__ import annotations

from typing import NamedTuple

from layering.domain.facts import ImportFact

COUNT = "count"
IGNORE = "ignore"
SCOPE_OPTIONS = ("type_checking", "function_level")


class ImportScope(NamedTuple):
    """The kinds of import a contract counts; by default every one (as Python may run each:
    a function's import when it is called, a `TYPE_CHECKING` one under a type checker)."""

    type_checking: bool = True
    function_level: bool = True

    @property
    def counts_every_import(self) -> bool:
        return self.type_checking and self.function_level

    def counts(self, fact: ImportFact) -> bool:
        """Whether `fact` (an import statement's name, or a use of one) counts."""
        if fact.type_checking and not self.type_checking:
            return False
        return self.function_level or not fact.in_function
