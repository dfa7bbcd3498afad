"""A baseline is written only when the edited configuration keeps every contract it baselines,
except for entries that were stale before (which `prune` removes, not `baseline`)."""

from __future__ import annotations

from layering.commands.baseline import _why_not_kept
from layering.domain.codes import DIRECT_IMPORT, STALE_ALLOWANCE
from layering.domain.results import ContractResult, Verdict, Violation

STALE = Violation("contracts.toml", 9, STALE_ALLOWANCE, "allowance 'a -> b' matches no import")
FINDING = Violation("src/a.py", 3, DIRECT_IMPORT, "a imports c", importer="a", imported="c")


def result(verdict: Verdict, *violations: Violation) -> ContractResult:
    return ContractResult("c", "The contract", "forbidden", verdict, violations)


def test_a_finding_left_after_the_baseline_refuses_it_and_is_named():
    before = [result(Verdict.BROKEN, FINDING)]
    after = [result(Verdict.BROKEN, FINDING)]
    assert _why_not_kept(after, before) == (
        "The contract (BROKEN); src/a.py:3: LY001 a imports c",
    )


def test_an_entry_stale_before_the_baseline_does_not_refuse_it():
    moved = STALE._replace(line=12)  # the entries added above it moved its line
    assert _why_not_kept([result(Verdict.BROKEN, moved)], [result(Verdict.BROKEN, STALE)]) == ()


def test_an_entry_the_baseline_wrote_that_matches_nothing_refuses_it():
    assert _why_not_kept([result(Verdict.BROKEN, STALE)], [result(Verdict.BROKEN, FINDING)]) == (
        "The contract (BROKEN); contracts.toml:9: LY030 allowance 'a -> b' matches no import",
    )


def test_a_kept_contract_never_refuses_it():
    assert _why_not_kept([result(Verdict.KEPT)], [result(Verdict.BROKEN, FINDING)]) == ()
