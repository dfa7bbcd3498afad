"""Deciding contracts: each one's decision, a value, and the result it gives.

A contract that cannot be decided (a file it needs cannot be read, a module it names is not
in the package) gives a result that says so, never one that could pass for kept.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from layering.contracts._common import ContractInvalid
from layering.domain.codes import INVALID_CONTRACT, UNREADABLE_SOURCE
from layering.domain.errors import SourceUnreadable
from layering.domain.results import ContractResult, Violation
from layering.engine.evidence import Evidence, GraphShares

if TYPE_CHECKING:
    from layering.contracts._common import Contract, Decision


class Decided(NamedTuple):
    """A contract's result, and the decision it came from (None: it could not be decided)."""

    result: ContractResult
    decision: Decision | None


def decide_each(contracts: list[Contract], evidence: Evidence) -> list[Decided]:
    """Decide `contracts` in order, each contract that needs the graph on a graph of its own."""
    shares = evidence.graph_shares(sum(1 for contract in contracts if contract.needs_graph))
    return [decide(contract, evidence, shares) for contract in contracts]


def decide(contract: Contract, evidence: Evidence, shares: GraphShares) -> Decided:
    try:
        decision = contract.evaluate(evidence, shares.take() if contract.needs_graph else None)
    except ContractInvalid as invalid:
        reason = str(invalid).rstrip(".")
        path = evidence.settings.display_path(evidence.settings.path)
        return Decided(
            contract.error(
                (
                    Violation(
                        path=path,
                        line=contract.spec.line,
                        code=INVALID_CONTRACT,
                        message=f"{reason}: fix the contract",
                    ),
                )
            ),
            None,
        )
    except SourceUnreadable as unreadable:
        path = evidence.settings.display_path(unreadable.path)
        message = f"{unreadable.reason}; {_what_to_do(unreadable.reason)}"
        return Decided(
            contract.error(
                (
                    Violation(
                        path=path, line=unreadable.line, code=UNREADABLE_SOURCE, message=message
                    ),
                )
            ),
            None,
        )
    return Decided(contract.result(decision), decision)


def warnings_of(
    contracts: list[Contract], evidence: Evidence, decided: list[Decided]
) -> list[list[str]]:
    """Each contract's warnings, said once all are decided (a warning may depend on what the
    run has read: an external name no import read in the run names)."""
    return [contract.warnings(evidence, d.decision) for contract, d in zip(contracts, decided)]


def _what_to_do(reason: str) -> str:
    if reason.startswith("syntax error"):
        return (
            "fix the file to decide this contract (or, if it uses newer syntax, run layering on a "
            "Python that has it)"
        )
    if reason.startswith("was deleted"):
        return "run layering again to decide this contract on the tree as it is now"
    return "fix the file to decide this contract"
