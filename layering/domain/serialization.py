"""Contract results to and from plain data (dicts of JSON types), for the result cache."""

from __future__ import annotations

from typing import Any

from layering.domain.results import (
    ChainGroup,
    ContractResult,
    CutImport,
    Hop,
    ItemResult,
    StaleEntry,
    Verdict,
    Violation,
)


def violation_to_data(violation: Violation) -> dict[str, Any]:
    return {
        "path": violation.path,
        "line": violation.line,
        "column": violation.column,
        "code": violation.code,
        "message": violation.message,
        "importer": violation.importer,
        "imported": violation.imported,
        "names": list(violation.names),
        "qualifiers": list(violation.qualifiers),
        "chain": [hop_to_data(h) for h in violation.chain],
    }


def hop_to_data(hop: Hop) -> dict[str, Any]:
    return {
        "importer": hop.importer,
        "imported": hop.imported,
        "path": hop.path,
        "line": hop.line,
        "names": list(hop.names),
        "qualifiers": list(hop.qualifiers),
    }


def _violation_record(violation: Violation) -> dict[str, Any]:
    """A finding as a result keeps it (`result_to_data`): as reported, and its `detail`."""
    return {**violation_to_data(violation), "detail": violation.detail}


def result_to_data(result: ContractResult) -> dict[str, Any]:
    """A result as plain data, whole (the result cache keeps it; `result_from_data`)."""
    return {
        "id": result.contract_id,
        "name": result.name,
        "type": result.type_name,
        "verdict": result.verdict.value,
        "violations": [_violation_record(v) for v in result.violations],
        "notes": list(result.notes),
        "source_path": result.source_path,
        "source_line": result.source_line,
        "stale": [[e.option, e.position, e.text, e.name] for e in result.stale],
        "chain_groups": [group_to_data(g) for g in result.chain_groups],
        "cut": [hop_to_data(hop) for hop in result.cut],
        "ignored_imports": result.ignored_imports,
        "allowances_used": result.allowances_used,
        "items": [
            {
                "key": item.key,
                "verdict": item.verdict.value,
                "violations": [_violation_record(v) for v in item.violations],
                "expected_broken": item.expected_broken,
            }
            for item in result.items
        ],
    }


def group_to_data(group: ChainGroup) -> dict[str, Any]:
    return {
        "source": group.source,
        "target": group.target,
        "chains": group.chains,
        "cut": [
            {
                "importer": cut.importer,
                "imported": cut.imported,
                "statements": [_violation_record(v) for v in cut.statements],
                "chains": cut.chains,
                "example": [hop_to_data(h) for h in cut.example],
            }
            for cut in group.cut
        ],
        "listed": [[hop_to_data(h) for h in chain] for chain in group.listed],
        "shown": group.shown,
        "ends": [list(pair) for pair in group.ends],
        "beside_known": group.beside_known,
    }


def _group(data: dict[str, Any]) -> ChainGroup:
    return ChainGroup(
        source=data["source"],
        target=data["target"],
        chains=data["chains"],
        cut=tuple(
            CutImport(
                c["importer"],
                c["imported"],
                tuple(_violation(v) for v in c["statements"]),
                c["chains"],
                tuple(_hop(h) for h in c["example"]),
            )
            for c in data["cut"]
        ),
        listed=tuple(tuple(_hop(h) for h in chain) for chain in data["listed"]),
        shown=data["shown"],
        ends=tuple((start, end) for start, end in data["ends"]),
        beside_known=data["beside_known"],
    )


def _hop(data: dict[str, Any]) -> Hop:
    return Hop(
        data["importer"],
        data["imported"],
        data["path"],
        data["line"],
        tuple(data["names"]),
        tuple(data["qualifiers"]),
    )


def _violation(data: dict[str, Any]) -> Violation:
    return Violation(
        path=data["path"],
        line=data["line"],
        code=data["code"],
        message=data["message"],
        importer=data["importer"],
        imported=data["imported"],
        names=tuple(data["names"]),
        qualifiers=tuple(data["qualifiers"]),
        chain=tuple(_hop(h) for h in data["chain"]),
        column=data["column"],
        detail=data["detail"],
    )


def result_from_data(data: dict[str, Any]) -> ContractResult:
    """The inverse of `result_to_data`; KeyError or ValueError on data of another shape."""
    return ContractResult(
        contract_id=data["id"],
        name=data["name"],
        type_name=data["type"],
        verdict=Verdict(data["verdict"]),
        violations=tuple(_violation(v) for v in data["violations"]),
        notes=tuple(data["notes"]),
        source_path=data["source_path"],
        source_line=data["source_line"],
        items=tuple(
            ItemResult(
                i["key"],
                Verdict(i["verdict"]),
                tuple(_violation(v) for v in i["violations"]),
                i["expected_broken"],
            )
            for i in data["items"]
        ),
        stale=tuple(StaleEntry(*entry) for entry in data["stale"]),
        chain_groups=tuple(_group(g) for g in data["chain_groups"]),
        cut=tuple(_hop(hop) for hop in data["cut"]),
        ignored_imports=data["ignored_imports"],
        allowances_used=data["allowances_used"],
    )
