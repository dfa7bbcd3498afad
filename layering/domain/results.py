"""What a run concluded: violations, verdicts per contract, and the run as a whole."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # a run without probes does not import them (their dataclasses cost 14 ms)
    from layering.domain.probes import ProbeSetting


class Verdict(str, enum.Enum):
    """The outcome of one contract.

    KEPT and EXPECTED_BROKEN leave the exit code at 0; BROKEN and UNEXPECTEDLY_KEPT make it 1;
    ERROR (the contract could not be decided) makes it 2, since a contract that could not be
    checked must never read as kept.
    """

    KEPT = "kept"
    BROKEN = "broken"
    EXPECTED_BROKEN = "expected_broken"
    UNEXPECTEDLY_KEPT = "unexpectedly_kept"
    ERROR = "error"

    @property
    def label(self) -> str:
        return {
            Verdict.KEPT: "KEPT",
            Verdict.BROKEN: "BROKEN",
            Verdict.EXPECTED_BROKEN: "BROKEN (expected)",
            Verdict.UNEXPECTEDLY_KEPT: "KEPT (expected broken)",
            Verdict.ERROR: "ERROR",
        }[self]

    @property
    def passes(self) -> bool:
        return self in (Verdict.KEPT, Verdict.EXPECTED_BROKEN)


class Severity(str, enum.Enum):
    """What a contract that is not kept does to the run: ERROR fails it (exit 1); WARN reports
    it the same way and lets the run pass (exit 0), so a team can bring a rule in before it is
    enforced. A contract that could not be decided fails the run (exit 2) either way."""

    ERROR = "error"
    WARN = "warn"


def shown_names(names: tuple[str, ...] | list[str]) -> str:
    """` (a, b)` for a report line: at most five names, then how many more."""
    if not names:
        return ""
    listed = (
        ", ".join(names)
        if len(names) <= 5
        else f"{', '.join(names[:4])} and {len(names) - 4} more"
    )
    return f" ({listed})"


class Hop(NamedTuple):
    """One import statement of a chain: `importer` imports `imported` at `path:line`."""

    importer: str
    imported: str
    path: str = ""
    line: int = 0
    names: tuple[str, ...] = ()
    qualifiers: tuple[str, ...] = ()

    def describe(self) -> str:
        """`importer -> imported (names) [qualifiers]`."""
        quals = f" [{', '.join(self.qualifiers)}]" if self.qualifiers else ""
        return f"{self.importer} -> {self.imported}{shown_names(self.names)}{quals}"

    def render(self) -> str:
        where = f"{self.path}:{self.line}: " if self.path else ""
        return where + self.describe()


class Violation(NamedTuple):
    """One finding that breaks (or, for `code` E*, prevents deciding) a contract.

    `code` is stable per kind of finding, so that machine formats and suppressions can rely on it.
    """

    path: str
    line: int
    code: str
    message: str
    importer: str = ""
    imported: str = ""
    names: tuple[str, ...] = ()
    qualifiers: tuple[str, ...] = ()
    chain: tuple[Hop, ...] = ()
    column: int = 1
    detail: str = ""
    """What a statement finding says after its import (`statement_message`), kept apart so
    that the statement can be read again at its line after an edit above it."""

    def render(self, with_code: bool = True) -> str:
        where = (
            f"{self.path}:{self.line}: "
            if self.path and self.line
            else (f"{self.path}: " if self.path else "")
        )
        quals = f" [{', '.join(self.qualifiers)}]" if self.qualifiers else ""
        code = f"{self.code} " if with_code else ""
        return f"{where}{code}{self.message}{quals}"


def statement_message(
    importer: str, imported: str, names: tuple[str, ...], detail: str = ""
) -> str:
    """What a finding of one import statement says: `importer imports imported (names)`, then
    its `detail` (", outside its package P")."""
    return f"{importer} imports {imported}{shown_names(names)}{detail}"


class CutImport(NamedTuple):
    """One import of a minimum cut: a module pair, the statements behind it (one finding each),
    how many of the group's chains cross it, and the shortest chain that does."""

    importer: str
    imported: str
    statements: tuple[Violation, ...]
    chains: int
    example: tuple[Hop, ...]


class ChainGroup(NamedTuple):
    """The chains from one group of modules to another and the fewest imports that cut them all.

    `chains` counts them all (one per import of a source module that leads to a target);
    `listed` holds the ones a report lists beyond the examples (`--chains N`), located, and
    `shown` how many of them the examples and the listing show.
    """

    source: str
    target: str
    chains: int
    cut: tuple[CutImport, ...]
    listed: tuple[tuple[Hop, ...], ...] = ()
    shown: int = 0
    ends: tuple[tuple[str, str], ...] = ()
    """The pairs of modules the chains join (start, end), sorted, when the run records them
    (a baseline writes them as known chains) or the contract knows some."""
    beside_known: bool = False
    """Whether the contract knows other chains (`known_chains`) beside these."""


class StaleEntry(NamedTuple):
    """An allowance or expectation that no longer matches anything: it must go (they only shrink).

    `option` is the contract option that holds it (`allow`, `ignore_imports`, `expect_loaded`,
    `expect`) and `position` where it stands in that list (None for a single value); `name`,
    when set, is the one name of a name-level allowance that has gone stale (the rest are still
    used).
    """

    option: str
    position: int | None
    text: str
    name: str | None = None


class ContractResult(NamedTuple):
    """The verdict on one contract, with the findings behind it, sorted."""

    contract_id: str
    name: str
    type_name: str
    verdict: Verdict
    violations: tuple[Violation, ...] = ()
    notes: tuple[str, ...] = ()
    source_path: str = ""
    source_line: int = 0
    items: tuple[ItemResult, ...] = ()
    stale: tuple[StaleEntry, ...] = ()
    chain_groups: tuple[ChainGroup, ...] = ()
    cut: tuple[Hop, ...] = ()
    """Of a contract with several groups of chains: the statements of the imports that cut
    them all together, never more imports than the groups' cuts hold, fewer where one import
    cuts the chains of several groups; empty for one group (its cut is the contract's)."""
    ignored_imports: int = 0
    allowances_used: int = 0
    """The contract's debt today: its `allow`, `known_chains` and `expect_loaded` entries that
    excused a finding (each counted once, however much it excused)."""
    probe_setting: ProbeSetting | None = None
    """For a probe contract: the interpreter, environment and setup its probes ran under."""
    severity: Severity = Severity.ERROR

    @property
    def warns(self) -> bool:
        """Not kept, on a contract whose severity is "warn": reported, yet the run passes."""
        return self.severity is Severity.WARN and self.verdict in (
            Verdict.BROKEN,
            Verdict.UNEXPECTEDLY_KEPT,
        )

    @property
    def fails_run(self) -> bool:
        """Whether this result makes the run fail (exit 1, or 2 when it could not be decided)."""
        return not self.verdict.passes and not self.warns

    @property
    def label(self) -> str:
        """KEPT, BROKEN, ... as the text report shows it; WARN for a contract that warns."""
        if not self.warns:
            return self.verdict.label
        return "WARN" if self.verdict is Verdict.BROKEN else "WARN (kept, expected broken)"


class ItemResult(NamedTuple):
    """The verdict on one part of a contract that can pass or fail alone (a probed module)."""

    key: str
    verdict: Verdict
    violations: tuple[Violation, ...] = ()
    expected_broken: bool = False


class RunReport(NamedTuple):
    """Every contract's result, in configuration order, plus run-wide warnings."""

    config_path: str
    results: tuple[ContractResult, ...]
    warnings: tuple[str, ...] = ()
    skipped_probes: int = 0
    skipped_static: int = 0
    """Contracts of the selection left out: probes by a static-only run, and the reverse."""
    listed_chains: int = 0
    """How many chains the run was asked to list per group (`--chains`): the text report shows
    as many imports of each cut, and at least `CUT_SHOWN`."""

    @property
    def exit_code(self) -> int:
        if any(r.verdict is Verdict.ERROR for r in self.results):
            return 2
        if any(r.fails_run for r in self.results):
            return 1
        return 0

    def count(self, verdict: Verdict) -> int:
        """How many contracts got `verdict`, whatever their severity."""
        return sum(1 for r in self.results if r.verdict is verdict)

    @property
    def warned(self) -> int:
        """How many contracts are not kept but only warn (severity "warn")."""
        return sum(1 for r in self.results if r.warns)


class ContractCount(NamedTuple):
    """How many of an explanation's chains a contract of the configuration counts, where that
    differs, and why (`reasons`: what it excuses or leaves out)."""

    contract: str
    chains: int
    reasons: tuple[str, ...]


class Explanation(NamedTuple):
    """The chains from `importer` (and its submodules) to `imported` (and its submodules)."""

    importer: str
    imported: str
    groups: tuple[ChainGroup, ...]
    warnings: tuple[str, ...] = ()
    """What the run had to say besides (its cache could not be used, two files claim a module)."""
    contracts: tuple[ContractCount, ...] = ()
    """The configuration's contracts that ask this question and count other chains."""

    @property
    def imports(self) -> bool:
        return bool(self.groups)
