"""`check --since REF`: which findings of today's tree are new since REF's, which are fixed, and
how each contract's debt (its allowances) changed.

A finding is matched by what it says, never by its line: (contract, code, importer, imported,
names), or its code and message for a finding that names no import. Moving an import to another
line, or editing above it, leaves it old; two statements alike in one file are counted, so a
second one is new.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from layering.domain.results import ContractResult, RunReport, Severity, Verdict, Violation

ALLOWANCE_OPTIONS = ("allow", "known_chains", "expect_loaded")
"""The options whose entries are a contract's debt, as `allowances_used` counts them."""
IGNORE_OPTION = "ignore_imports"


class NewFinding(NamedTuple):
    """A finding of today's tree that REF's tree does not have, with its contract's key."""

    contract: str
    violation: Violation


class DebtChange(NamedTuple):
    """How one contract's debt changed since REF: entries of its allowance options added and
    removed (by their text), ignored imports added and removed, and the allowances in use at
    REF and now (None where the contract was not checked at REF)."""

    contract: str
    added: int
    removed: int
    ignores_added: int
    ignores_removed: int
    used_before: int | None
    used_now: int

    @property
    def changed(self) -> bool:
        """Whether there is anything to say: a contract new since REF without an allowance in
        use or written has no debt to report."""
        return bool(
            self.added
            or self.removed
            or self.ignores_added
            or self.ignores_removed
            or self.used_now != (self.used_before or 0)
        )


class Since(NamedTuple):
    """What changed since REF: its name as given and the commit it named, which configuration
    its tree was checked with, the new findings (in today's report order), how many of REF's
    are fixed, and the contracts whose debt changed."""

    ref: str
    commit: str
    config_note: str
    new: tuple[NewFinding, ...]
    fixed: int
    debt: tuple[DebtChange, ...]


def finding_key(contract: str, violation: Violation) -> tuple[Any, ...]:
    """What a finding is matched by across two trees: never its path or line."""
    if violation.importer or violation.imported:
        return (contract, violation.code, violation.importer, violation.imported, violation.names)
    return (contract, violation.code, violation.message)


def findings(result: ContractResult) -> list[Violation]:
    """Every finding of a contract, once: its own and its items' (a probe contract's modules,
    whose findings it holds too); none for a contract that could not be decided (its errors are
    not findings to match)."""
    if result.verdict is Verdict.ERROR:
        return []
    own = set(result.violations)
    return [
        *result.violations,
        *(v for item in result.items for v in item.violations if v not in own),
    ]


def compare(
    ref: str,
    commit: str,
    config_note: str,
    today: Iterable[ContractResult],
    before: Iterable[ContractResult],
    entries_today: Mapping[str, Mapping[str, list[str]]],
    entries_before: Mapping[str, Mapping[str, list[str]]],
) -> Since:
    """Compare today's results with REF's. `entries_*` give each contract's entries of each
    allowance option (as `option_entries` reads them). Only the contracts checked today count:
    a contract gone since REF fixes nothing, and one new since REF has only new findings."""
    today = tuple(today)
    before_by_key = {r.contract_id: r for r in before}
    left: Counter[tuple[Any, ...]] = Counter(
        finding_key(r.contract_id, v) for r in before_by_key.values() for v in findings(r)
    )
    new = []
    fixed = 0
    for result in today:
        old = before_by_key.get(result.contract_id)
        now_keys: Counter[tuple[Any, ...]] = Counter()
        for violation in findings(result):
            key = finding_key(result.contract_id, violation)
            now_keys[key] += 1
            if left[key] > 0:
                left[key] -= 1
            else:
                new.append(NewFinding(result.contract_id, violation))
        if old is not None:
            before_keys = Counter(finding_key(old.contract_id, v) for v in findings(old))
            fixed += sum((before_keys - now_keys).values())
    debt = []
    for result in today:
        old = before_by_key.get(result.contract_id)
        now = entries_today.get(result.contract_id, {})
        then = entries_before.get(result.contract_id, {}) if old is not None else {}
        added, removed = _difference(now, then, ALLOWANCE_OPTIONS)
        ignores_added, ignores_removed = _difference(now, then, (IGNORE_OPTION,))
        change = DebtChange(
            result.contract_id,
            added,
            removed,
            ignores_added,
            ignores_removed,
            None if old is None else old.allowances_used,
            result.allowances_used,
        )
        if change.changed:
            debt.append(change)
    return Since(ref, commit, config_note, tuple(new), fixed, tuple(debt))


def _difference(
    now: Mapping[str, list[str]], then: Mapping[str, list[str]], options: tuple[str, ...]
) -> tuple[int, int]:
    """How many entries of `options` are in `now` and not in `then`, and the reverse."""
    today = Counter(e for option in options for e in now.get(option, []))
    before = Counter(e for option in options for e in then.get(option, []))
    return sum((today - before).values()), sum((before - today).values())


def option_entries(options: Mapping[str, Any]) -> dict[str, list[str]]:
    """The entries of a contract's allowance options, each as a canonical text (an entry may be
    a string or a table; its comment and place in the file do not matter)."""
    said: dict[str, list[str]] = {}
    for option in (*ALLOWANCE_OPTIONS, IGNORE_OPTION):
        value = options.get(option)
        if value is None:
            continue
        values = value if isinstance(value, list) else [value]
        said[option] = [
            " ".join(v.split()) if isinstance(v, str) else json.dumps(v, sort_keys=True)
            for v in values
        ]
    return said


def exit_code(report: RunReport, since: Since, new_only: bool) -> int:
    """The run's exit code: the report's, or with `new_only` 1 only where a finding is new
    since REF (2 still where a contract could not be decided)."""
    if new_only and report.exit_code != 2:
        return 1 if new_fails(since, report.results) else 0
    return report.exit_code


def new_fails(since: Since, today: Iterable[ContractResult]) -> bool:
    """Whether a new finding fails the run (`--new-only`): any, but of a contract of severity
    "warn" (its new findings are reported, yet pass), however the contract is graded (a new
    finding of an `expect = "broken"` contract is new debt too)."""
    warning = {r.contract_id for r in today if r.severity is Severity.WARN}
    return any(finding.contract not in warning for finding in since.new)
