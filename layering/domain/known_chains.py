"""Known chains: the pairs of modules a contract's chains join today, excused by a baseline.

A baseline that excuses imports (an `ignore_imports` edge, an `allow` entry) excuses every
future chain through them: a new import that reuses one goes unreported. A known chain names a
pair instead, `start -> end`: the chains from `start` to `end` are known, and a chain between
any other pair breaks the contract, whichever imports it runs through. Like any allowance, a
known chain only shrinks: one whose pair no chain joins any more must be removed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from layering.domain.patterns import ModulePattern


class KnownChain(NamedTuple):
    """Chains from `start` to `end` (module patterns) are known and excused."""

    start: ModulePattern
    end: ModulePattern
    line: int = 0
    position: int = -1
    """The entry's position in its contract's `known_chains` list."""

    def names(self, start: str, end: str) -> bool:
        return self.start.matches(start) and self.end.matches(end)

    def describe(self) -> str:
        return f"{self.start} -> {self.end}"


def parse_known_chain(value: object) -> KnownChain:
    """`"start -> end"`; ValueError saying what is wrong."""
    if not isinstance(value, str) or "->" not in value:
        raise ValueError(f"{value!r}: a known chain is written 'start -> end'")
    start, _, end = value.partition("->")
    return KnownChain(ModulePattern.parse(start.strip()), ModulePattern.parse(end.strip()))


def unknown_pairs(
    ends: Mapping[str, frozenset[str]], known: Sequence[KnownChain], used: set[int]
) -> dict[str, frozenset[str]]:
    """The pairs of `ends` (each start's ends) that no known chain names, by start; the
    positions of the known chains that name a pair are added to `used`."""
    unknown: dict[str, frozenset[str]] = {}
    for start, targets in ends.items():
        left = []
        for end in sorted(targets):
            naming = [chain.position for chain in known if chain.names(start, end)]
            if naming:
                used.update(naming)
            else:
                left.append(end)
        if left:
            unknown[start] = frozenset(left)
    return unknown


def groups_of(pairs: Mapping[str, frozenset[str]]) -> list[tuple[frozenset[str], frozenset[str]]]:
    """The starts grouped by the ends they are paired with, sorted: each (starts, ends) holds
    only pairs of `pairs`, so a group's chains are all of them unknown."""
    by_ends: dict[frozenset[str], set[str]] = {}
    for start, ends in pairs.items():
        by_ends.setdefault(ends, set()).add(start)
    return sorted(
        ((frozenset(starts), ends) for ends, starts in by_ends.items()),
        key=lambda group: (sorted(group[0]), sorted(group[1])),
    )
