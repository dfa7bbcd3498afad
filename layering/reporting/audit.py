"""The audit's reports: text for people, a short table per contract, JSON for scripts.

Text gives, for each disagreement, the statement to look at (`path:line`, its source line)
and the chain of the reading that saw the load; the table says per contract whether a
`loads` contract alone would see what the probe sees.
"""

from __future__ import annotations

import json
from typing import Any

from layering.domain.audit import AuditReport, ContractAudit, Difference
from layering.domain.serialization import hop_to_data
from layering.domain.version import VERSION

AUDIT_VERSION = 1


def render_text(report: AuditReport) -> str:
    lines = [f"warning: {warning}" for warning in report.warnings]
    for contract in report.contracts:
        lines.append(_headline(contract))
        for module in contract.modules:
            if module.error:
                lines.append(f"  {module.module}: could not be probed: {module.error}")
            for difference in module.differences:
                lines.extend(_difference_lines(difference))
    lines.append("")
    lines.append(_summary(report))
    return "\n".join(lines) + "\n"


def _headline(contract: ContractAudit) -> str:
    ident = (
        f" [{contract.contract_id}]"
        if contract.contract_id and contract.contract_id != contract.name
        else ""
    )
    count = len(contract.modules)
    disagreeing = count - contract.agreeing - contract.errors
    if not disagreeing and not contract.errors:
        state = "the probe and the source agree"
    else:
        parts = [f"{disagreeing} disagree"] if disagreeing else []
        parts += [f"{contract.errors} could not be probed"] if contract.errors else []
        state = ", ".join(parts)
    return f"{contract.name}{ident}: {_count(count, 'module')}, {state}: {contract.conclusion}"


def _difference_lines(difference: Difference) -> list[str]:
    where = difference.where
    location = f"{where.path}:{where.line}: " if where is not None and where.path else ""
    if difference.runtime_only:
        what = (
            f"importing {difference.module} loads {difference.loaded} at run time; the source "
            "does not say so"
        )
        by, chain = "loaded by", "runtime chain"
    else:
        what = (
            f"importing {difference.module} would load {difference.loaded} as the source says; at "
            "run time it did not"
        )
        by, chain = "would be loaded by", "chain from the source"
    lines = [f"  {location}{what}"]
    if where is not None and difference.statement:
        marks = f" [{', '.join(where.qualifiers)}]" if where.qualifiers else ""
        lines.append(f"    {by}: {difference.statement}{marks}")
    if len(difference.chain) > 1:
        lines.append(f"    {chain}:")
        lines.extend(f"      {hop.render()}" for hop in difference.chain)
    return lines


def _summary(report: AuditReport) -> str:
    modules = [m for c in report.contracts for m in c.modules]
    agree = sum(1 for m in modules if m.agrees)
    errors = sum(1 for m in modules if m.error)
    parts = [f"{agree} agree", f"{len(modules) - agree - errors} disagree"]
    if errors:
        parts.append(f"{errors} could not be probed")
    contracts = len(report.contracts)
    return (
        f"Audit: {_count(contracts, 'probe contract')}, {_count(len(modules), 'module')}: "
        f"{', '.join(parts)}."
    )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'s' if number != 1 else ''}"


def render_table(report: AuditReport) -> str:
    """One row per probe contract: what each reading says, and whether `loads` would do."""
    header = (
        "contract",
        "modules",
        "agree",
        "runtime only",
        "source only",
        "errors",
        "loads alone",
    )
    rows = [
        (
            contract.contract_id or contract.name,
            str(len(contract.modules)),
            str(contract.agreeing),
            str(contract.count(runtime_only=True)),
            str(contract.count(runtime_only=False)),
            str(contract.errors),
            contract.conclusion,
        )
        for contract in report.contracts
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = (
            [row[0].ljust(widths[0])]
            + [cell.rjust(width) for cell, width in zip(row[1:-1], widths[1:-1])]
            + [row[-1]]
        )
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


def render_json(report: AuditReport) -> str:
    data: dict[str, Any] = {
        "audit_version": AUDIT_VERSION,
        "tool": {"name": "layering", "version": VERSION},
        "config_path": report.config_path,
        "exit_code": report.exit_code,
        "warnings": list(report.warnings),
        "contracts": [
            {
                "id": contract.contract_id,
                "name": contract.name,
                "source": {"path": contract.source_path, "line": contract.source_line},
                "conclusion": contract.conclusion,
                "modules": [
                    {
                        "module": module.module,
                        "agrees": module.agrees,
                        "error": module.error,
                        "runtime": list(module.runtime),
                        "static": list(module.static),
                        "differences": [_difference_data(d) for d in module.differences],
                    }
                    for module in contract.modules
                ],
            }
            for contract in report.contracts
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _difference_data(difference: Difference) -> dict[str, Any]:
    return {
        "loaded": difference.loaded,
        "kind": "runtime_only" if difference.runtime_only else "static_only",
        "where": hop_to_data(difference.where) if difference.where is not None else None,
        "statement": difference.statement,
        "chain": [hop_to_data(hop) for hop in difference.chain],
    }


RENDERERS = {"text": render_text, "table": render_table, "json": render_json}
