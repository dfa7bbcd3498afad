"""Name-level targets: names that must not be taken from a module, by import or by use."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from layering.domain.facts import ImportFact
from layering.domain.patterns import ModulePattern

_NAME_PATTERN = re.compile(r"^[A-Za-z_*][A-Za-z0-9_*]*$")


def is_name_pattern(text: str) -> bool:
    """Whether `text` is an identifier, possibly with `*` standing for any run of characters."""
    return bool(_NAME_PATTERN.match(text))


def _regex_text(name: str) -> str:
    """A name pattern as a regular expression: `*` is any run of identifier characters."""
    return "[A-Za-z0-9_]*".join(re.escape(part) for part in name.split("*"))


@dataclass(frozen=True)
class NameTarget:
    """The names of `module` (patterns: `"_*"` is every private name) nobody may take from it.

    Taking a name is importing it (`from module import name`) or using it on the module
    imported whole (`module.name`, `getattr(module, "name")`, a patch of `module.name`).
    """

    module: ModulePattern
    names: tuple[str, ...]

    @cached_property
    def _regex(self) -> re.Pattern[str]:
        return re.compile("^(?:" + "|".join(_regex_text(name) for name in self.names) + ")$")

    def names_match(self, name: str) -> bool:
        return bool(self._regex.match(name))

    def takes(self, fact: ImportFact) -> bool:
        """Whether `fact` takes one of the names from the module (a star import is not read
        here)."""
        return (
            fact.name is not None
            and fact.name != "*"
            and self.module.matches(fact.module)
            and self.names_match(fact.name)
        )

    def undefined(self, defined: frozenset[str] | set[str]) -> tuple[str, ...]:
        """The names (and patterns) that no name of `defined` answers to."""
        missing = []
        for name in self.names:
            regex = re.compile(f"^{_regex_text(name)}$")
            if not any(regex.match(d) for d in defined):
                missing.append(name)
        return tuple(missing)
