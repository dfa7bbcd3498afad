"""Module patterns: dotted names with `*` (one segment) and `**` (any number of segments)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Generic, TypeVar

from layering.domain.module_classes import EXTERNAL_CLASSES, MODULE_CLASSES, ModuleClasses

_IDENTIFIER = r"[A-Za-z_][A-Za-z0-9_]*"
# A module's name part need not be an identifier: Django's migrations/0001_initial.py is the
# module `<app>.migrations.0001_initial` to grimp and to import-linter.
_SEGMENT = r"[^\s.*]+"
_PATTERN_SEGMENT = re.compile(rf"^(\*\*|\*|{_SEGMENT})$")
_DOTTED_NAME = re.compile(rf"^{_IDENTIFIER}(\.{_IDENTIFIER})*$")


def is_dotted_name(text: str) -> bool:
    """Whether `text` is a plain dotted identifier, safe to hand to an interpreter."""
    return bool(_DOTTED_NAME.match(text))


def is_within(module: str, package: str) -> bool:
    """Whether `module` is `package` or lies below it."""
    return module == package or module.startswith(package + ".")


@dataclass(frozen=True, order=True)
class ModulePattern:
    """A module name, a wildcard expression over module names, or a class of modules
    (`<stdlib>`, `<third-party>`, `<first-party>`), which matches by the run's `classes`."""

    text: str
    classes: ModuleClasses | None = field(default=None, compare=False, repr=False)

    @staticmethod
    def parse(text: str, classes: ModuleClasses | None = None) -> ModulePattern:
        """Validate `text`; raise ValueError with what is wrong. A class of modules is accepted
        only where `classes` says which modules are in it."""
        if not isinstance(text, str) or not text:
            raise ValueError("a module pattern must be a non-empty string")
        if text.startswith("<"):
            return _class_pattern(text, classes)
        segments = text.split(".")
        for segment in segments:
            if not _PATTERN_SEGMENT.match(segment):
                raise ValueError(
                    f"{text!r} is not a module pattern: each dot-separated part must be a "
                    "name, '*' (one part) or '**' (any number of parts)"
                )
        return ModulePattern(text)

    @property
    def is_class(self) -> bool:
        """Whether the pattern is a class of modules (`<stdlib>`) rather than names."""
        return self.classes is not None

    @property
    def names_external_class(self) -> bool:
        """Whether the pattern is `<stdlib>` or `<third-party>`: modules outside the package."""
        return self.is_class and self.text in EXTERNAL_CLASSES

    @property
    def has_wildcard(self) -> bool:
        """Whether the pattern may match more than the one module its text names."""
        return "*" in self.text or self.is_class

    @cached_property
    def _regex(self) -> re.Pattern[str]:
        parts = []
        for segment in self.text.split("."):
            if segment == "**":
                parts.append(rf"{_SEGMENT}(?:\.{_SEGMENT})*")
            elif segment == "*":
                parts.append(_SEGMENT)
            else:
                parts.append(re.escape(segment))
        return re.compile("^" + r"\.".join(parts) + "$")

    def matches(self, module: str) -> bool:
        """Whether `module` is one of the modules this pattern names."""
        if self.classes is not None:
            return self.classes.class_of(module) == self.text
        if not self.has_wildcard:
            return module == self.text
        return bool(self._regex.match(module))

    def covers(self, module: str) -> bool:
        """Whether `module` is a matched module or lies inside one (patterns as packages)."""
        parts = module.split(".")
        return any(self.matches(".".join(parts[:i])) for i in range(1, len(parts) + 1))

    def expand(self, modules: frozenset[str] | set[str]) -> list[str]:
        """The modules of `modules` this pattern matches, sorted."""
        if not self.has_wildcard:
            return [self.text] if self.text in modules else []
        return sorted(m for m in modules if self.matches(m))

    @property
    def top_level(self) -> str:
        return self.text.split(".", 1)[0]

    @property
    def named_head(self) -> str:
        """The parts before the first wildcard (`a.b` of `a.b.*` and of `a.b.**.c`): what every
        module the pattern matches starts with, followed by a dot; "" when a wildcard comes
        first or the pattern is a class of modules."""
        if self.is_class:
            return ""
        segments = self.text.split(".")
        wildcard = next((i for i, s in enumerate(segments) if "*" in s), len(segments))
        return ".".join(segments[:wildcard])

    def __str__(self) -> str:
        return self.text


def _class_pattern(text: str, classes: ModuleClasses | None) -> ModulePattern:
    known = ", ".join(MODULE_CLASSES)
    if text not in MODULE_CLASSES:
        raise ValueError(f"{text!r} is not a class of modules: the classes are {known}")
    if classes is None:
        raise ValueError(f"{text!r}: a class of modules ({known}) is not accepted here")
    return ModulePattern(text, classes)


Value = TypeVar("Value")


@dataclass(frozen=True)
class _Entry(Generic[Value]):
    position: int
    pattern: ModulePattern
    value: Value


class PatternIndex(Generic[Value]):
    """Values listed by module pattern, found by a module's name in time that does not grow
    with the list, as a contract of thousands of patterns needs: a pattern without a wildcard
    is found by its name, one that starts with names by its `named_head` (`a.b.*`, `a.**.c`),
    and only one that starts with a wildcard (`*.models`) or is a class of modules is tried
    on every module. Each candidate is confirmed by the pattern's own `matches`, so the index
    answers what a scan of the whole list would, in the list's order."""

    def __init__(self, entries: Iterable[tuple[ModulePattern, Value]]) -> None:
        self._by_name: dict[str, list[_Entry[Value]]] = {}
        self._by_head: dict[str, list[_Entry[Value]]] = {}
        self._scanned: list[_Entry[Value]] = []
        for position, (pattern, value) in enumerate(entries):
            entry = _Entry(position, pattern, value)
            if not pattern.has_wildcard:
                self._by_name.setdefault(pattern.text, []).append(entry)
            elif pattern.named_head:
                self._by_head.setdefault(pattern.named_head, []).append(entry)
            else:
                self._scanned.append(entry)
        self._empty = not (self._by_name or self._by_head or self._scanned)

    def matching(self, module: str) -> list[Value]:
        """The values whose pattern matches `module`."""
        if self._empty:
            return []
        found = list(self._by_name.get(module, ()))
        for head in packages_of(module):
            found.extend(e for e in self._by_head.get(head, ()) if e.pattern.matches(module))
        found.extend(e for e in self._scanned if e.pattern.matches(module))
        return _in_order(found)

    def covering(self, module: str) -> list[Value]:
        """The values whose pattern covers `module`: matches it or a package it lies in."""
        if self._empty:
            return []
        found = list(self._by_name.get(module, ()))
        for package in packages_of(module):
            found.extend(self._by_name.get(package, ()))
            found.extend(e for e in self._by_head.get(package, ()) if e.pattern.covers(module))
        found.extend(e for e in self._scanned if e.pattern.covers(module))
        return _in_order(found)


def index_patterns(patterns: Iterable[ModulePattern]) -> PatternIndex[ModulePattern]:
    """The patterns themselves, indexed."""
    return PatternIndex((pattern, pattern) for pattern in patterns)


def expand_each(
    patterns: Iterable[ModulePattern], modules: Iterable[str]
) -> dict[ModulePattern, list[str]]:
    """What `expand` gives each pattern, from one pass over `modules`."""
    expanded: dict[ModulePattern, list[str]] = {pattern: [] for pattern in patterns}
    index = index_patterns(expanded)
    for module in modules:
        for pattern in index.matching(module):
            expanded[pattern].append(module)
    return {pattern: sorted(found) for pattern, found in expanded.items()}


def packages_of(module: str) -> list[str]:
    """The packages `module` lies in, outermost first (`a`, `a.b` of `a.b.c`): the names
    other than its own that `is_within` holds it to be within."""
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _in_order(entries: list[_Entry[Value]]) -> list[Value]:
    return [entry.value for entry in sorted(entries, key=lambda entry: entry.position)]
