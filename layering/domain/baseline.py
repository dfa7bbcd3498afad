"""What a baseline writes: for each broken contract, the entries that excuse what it finds today.

A contract with chains is excused at its cut (the fewest imports whose removal keeps it), not
chain by chain; a direct finding by the names it takes where it takes names (so a new name
taken later is still a violation), else by the import; a probed or followed module that loads a
forbidden one by `expect_loaded`. Each kind of entry only shrinks afterwards, like any other.
"""

from __future__ import annotations

from dataclasses import dataclass

from layering.domain.codes import UNDECLARED_DEPENDENCY, UNDECLARED_LAYER, UNUSED_DEPENDENCY
from layering.domain.results import ContractResult, Verdict

ALLOW = "allow"
IGNORE_IMPORTS = "ignore_imports"
EXPECT_LOADED = "expect_loaded"
EXHAUSTIVE_IGNORES = "exhaustive_ignores"
IGNORE_DISTRIBUTIONS = "ignore"
"""An `external` contract's: the packages (top-level modules or distributions) it leaves be."""

EntryValue = str | dict[str, str | list[str]]


@dataclass(frozen=True)
class BaselineEntries:
    """The entries one contract's option gains, sorted, in the form the configuration takes."""

    contract: str
    position: int
    option: str
    values: tuple[EntryValue, ...]


def entries_excusing(
    result: ContractResult, option: str, name_level: bool = True, chains: bool = True
) -> tuple[EntryValue, ...]:
    """The entries of `option` that excuse every finding of `result` (none unless it is broken).

    `name_level` is false where the configuration cannot say names (import-linter's own
    `ignore_imports`): every entry is then `importer -> imported`. Without `chains`, the
    imports of the chains' cuts are left out: known chains excuse those (`known_chains_excusing`).
    """
    if result.verdict is not Verdict.BROKEN:
        return ()
    if option == IGNORE_DISTRIBUTIONS:
        return tuple(
            sorted(
                {
                    violation.imported.split(".")[0]
                    for violation in result.violations
                    if violation.code in (UNDECLARED_DEPENDENCY, UNUSED_DEPENDENCY)
                }
            )
        )
    if option == EXPECT_LOADED:
        return tuple(
            sorted(
                {
                    f"{item.key} -> {violation.imported}"
                    for item in result.items
                    if item.verdict is Verdict.BROKEN
                    for violation in item.violations
                    if violation.imported
                }
            )
        )
    whole: set[tuple[str, str]] = (
        {(cut.importer, cut.imported) for group in result.chain_groups for cut in group.cut}
        if chains
        else set()
    )
    in_cut = {v for group in result.chain_groups for cut in group.cut for v in cut.statements}
    names: dict[tuple[str, str], set[str]] = {}
    for violation in result.violations:
        if violation in in_cut or not (violation.importer and violation.imported):
            continue
        pair = (violation.importer, violation.imported)
        if option == ALLOW and name_level and violation.names:
            names.setdefault(pair, set()).update(violation.names)
        else:
            whole.add(pair)
    values: list[tuple[tuple[str, str], EntryValue]] = [
        (pair, f"{pair[0]} -> {pair[1]}") for pair in whole
    ]
    values += [
        (pair, {"importer": pair[0], "module": pair[1], "names": sorted(taken)})
        for pair, taken in names.items()
        if pair not in whole
    ]
    return tuple(value for _, value in sorted(values, key=lambda item: item[0]))


def known_chains_excusing(result: ContractResult) -> tuple[str, ...]:
    """The known chains that excuse every chain of `result` today, and no chain between any
    other pair of modules: each pair its chains join, `start -> end`, sorted."""
    if result.verdict is not Verdict.BROKEN:
        return ()
    return tuple(
        sorted({f"{start} -> {end}" for group in result.chain_groups for start, end in group.ends})
    )


def unlisted_layers(result: ContractResult) -> tuple[str, ...]:
    """The `exhaustive_ignores` entries that excuse an exhaustive `layers` contract's unlisted
    modules: each a child of a container, named as the option names it (by its last part)."""
    if result.verdict is not Verdict.BROKEN:
        return ()
    return tuple(
        sorted(
            {
                v.importer.rsplit(".", 1)[-1]
                for v in result.violations
                if v.code == UNDECLARED_LAYER and v.importer
            }
        )
    )


@dataclass(frozen=True)
class Baseline:
    """What a baseline adds, what it left alone and why, and the contracts still not kept after
    it."""

    added: tuple[BaselineEntries, ...]
    left_alone: tuple[str, ...]
    still_broken: tuple[str, ...]
    text: str | None
    """The configuration's new text (None when nothing is added)."""
    comment: str
    undecided: bool = False
    refused: tuple[str, ...] = ()
    """The baselined contracts the edited configuration would not keep (an entry that excuses
    too little, or one that matches nothing): then nothing is written."""

    @property
    def exit_code(self) -> int:
        """2 when a contract could not be decided, 1 when one is not kept even so, else 0."""
        return 2 if self.undecided else 1 if self.still_broken or self.refused else 0
