"""A package's declared dependencies against its third-party imports: which imports no
declaration covers, and which declarations no import uses. Pure: the readings come in."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import NamedTuple

from layering.domain.facts import ImportFact


class Requirement(NamedTuple):
    """One declared dependency: its distribution's name, the line it is declared on, and the
    extra it belongs to ("" for `[project] dependencies`)."""

    name: str
    line: int
    extra: str = ""


class Declared(NamedTuple):
    """What a pyproject.toml declares: its path, how a message names it, the requirements."""

    path: str
    shown: str
    requirements: tuple[Requirement, ...]

    def declares(self, distribution: str) -> bool:
        return normalized(distribution) in {normalized(r.name) for r in self.requirements}


LATER_STANDARD_LIBRARY = frozenset({"tomllib", "annotationlib", "compression"})
"""Top-level modules of the standard library of a later Python than some a package supports
(`tomllib` from 3.11, `annotationlib` and `compression` from 3.14): code that imports them
behind a version check declares no distribution for them, whichever Python runs the check."""


def normalized(name: str) -> str:
    """A distribution's name as PEP 503 compares them: `PyYAML`, `pyyaml` and `py_yaml`... are
    one when their runs of `-_.` match."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(text: str) -> str | None:
    """The distribution a PEP 508 requirement names (`requests[socks]>=2; python_version<'4'`
    names `requests`); None for text that names none."""
    match = re.match(r"\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)", text)
    return match.group(1) if match else None


def distributions_of(
    module: str, module_map: Mapping[str, str], installed: Mapping[str, Iterable[str]]
) -> tuple[str, ...]:
    """The distributions that may provide the top-level module of `module`: the map's, else the
    installed ones', else the one of the module's own name (as most are named)."""
    top = module.split(".")[0]
    if top in module_map:
        return (module_map[top],)
    return tuple(sorted(set(installed.get(top, ())))) or (top,)


def undeclared_imports(
    facts: Iterable[ImportFact],
    declared: Declared,
    distributions: Callable[[str], tuple[str, ...]],
) -> list[tuple[ImportFact, str]]:
    """Each statement among `facts` whose module no declared distribution provides, with the
    distribution that would, once per statement and module, in order."""
    found: dict[tuple[str, int, str], tuple[ImportFact, str]] = {}
    for fact in sorted(facts):
        candidates = distributions(fact.imported)
        if any(declared.declares(d) for d in candidates):
            continue
        found.setdefault(
            (fact.path, fact.first_line, fact.imported),
            (fact, candidates[0]),
        )
    return list(found.values())


def unused_dependencies(
    facts: Iterable[ImportFact],
    declared: Declared,
    distributions: Callable[[str], tuple[str, ...]],
    installed: Mapping[str, Iterable[str]],
) -> list[tuple[Requirement, tuple[str, ...]]]:
    """Each requirement of `[project] dependencies` that provides no module imported, with the
    top-level modules it provides where installed here."""
    used = {normalized(d) for fact in facts for d in distributions(fact.imported)}
    provides: dict[str, set[str]] = {}
    for module, names in installed.items():
        for name in names:
            provides.setdefault(normalized(name), set()).add(module)
    return [
        (requirement, tuple(sorted(provides.get(normalized(requirement.name), ()))))
        for requirement in declared.requirements
        if not requirement.extra and normalized(requirement.name) not in used
    ]
