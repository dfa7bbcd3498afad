"""The JSON report: a documented, versioned document for scripts (`--format json`).

Its JSON Schema is `layering/schema/report-v2.json`; `schema_version` changes only when a
field is removed or changes meaning (new fields may be added within a version). Paths in
violations are as the text report shows them: relative to `base_dir` (the configuration's
directory) when they lie below it, absolute otherwise. Order is the report's: contracts in
configuration order, violations sorted.
"""

from __future__ import annotations

import json
import os
from typing import Any

from layering.domain.errors import ConfigError
from layering.domain.results import (
    ChainGroup,
    ContractResult,
    ItemResult,
    RunReport,
    Verdict,
)
from layering.domain.serialization import hop_to_data, violation_to_data
from layering.domain.version import VERSION

SCHEMA_VERSION = 2
CONTROL_PREFIX = "control:"


def _tool() -> dict[str, str]:
    return {"name": "layering", "version": VERSION}


def document(report: RunReport) -> dict[str, Any]:
    counts = {verdict.value: report.count(verdict) for verdict in Verdict}
    return {
        "schema_version": SCHEMA_VERSION,
        "tool": _tool(),
        "config_path": report.config_path,
        "base_dir": os.path.dirname(report.config_path),
        "exit_code": report.exit_code,
        "summary": {
            "contracts": len(report.results),
            **counts,
            "warn": report.warned,
            "violations": sum(len(r.violations) for r in report.results),
        },
        "warnings": list(report.warnings),
        "contracts": [_contract(r) for r in report.results],
    }


def error_document(error: ConfigError) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "tool": _tool(),
        "exit_code": 2,
        "errors": [
            {
                "path": p.path,
                "line": p.line,
                "column": p.column,
                "message": p.message,
                "hint": p.hint,
            }
            for p in error.problems
        ],
    }


def render(report: RunReport) -> str:
    return _dump(document(report))


def render_error(error: ConfigError) -> str:
    return _dump(error_document(error))


def render_document(data: dict[str, Any]) -> str:
    """A report's document (`document`, with what a run adds to it) as the report prints it."""
    return _dump(data)


def _dump(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _contract(result: ContractResult) -> dict[str, Any]:
    return {
        "id": result.contract_id,
        "name": result.name,
        "type": result.type_name,
        "verdict": result.verdict.value,
        "severity": result.severity.value,
        "passes": result.verdict.passes,
        "source": {"path": result.source_path, "line": result.source_line},
        "violations": [violation_to_data(v) for v in result.violations],
        "notes": list(result.notes),
        "items": [_item(i) for i in result.items],
        "stale": [
            {"option": e.option, "index": e.position, "text": e.text, "name": e.name}
            for e in result.stale
        ],
        "cut": [entry for group in result.chain_groups for entry in cut_entries(group)],
        "contract_cut": [hop_to_data(hop) for hop in result.cut],
        "chain_groups": [
            {
                "source": group.source,
                "target": group.target,
                "chains": group.chains,
                "cut": len(group.cut),
                "listed": [[hop_to_data(h) for h in chain] for chain in group.listed],
            }
            for group in result.chain_groups
        ],
        "ignored_imports": result.ignored_imports,
        "allowances_used": result.allowances_used,
        "probe": _probe_setting(result),
    }


def cut_entries(group: ChainGroup) -> list[dict[str, Any]]:
    return [
        {
            "source": group.source,
            "target": group.target,
            "importer": cut.importer,
            "imported": cut.imported,
            "path": cut.statements[0].path,
            "lines": [v.line for v in cut.statements],
            "names": sorted({n for v in cut.statements for n in v.names}),
            "qualifiers": sorted({q for v in cut.statements for q in v.qualifiers}),
            "chains": cut.chains,
            "chain": [hop_to_data(h) for h in cut.example],
        }
        for cut in group.cut
    ]


def _probe_setting(result: ContractResult) -> dict[str, Any] | None:
    setting = result.probe_setting
    if setting is None:
        return None
    return {"python": setting.python, "env": dict(setting.env), "setup": list(setting.setup)}


def _item(item: ItemResult) -> dict[str, Any]:
    control = item.key.startswith(CONTROL_PREFIX)
    return {
        "key": item.key,
        "kind": "control" if control else "module",
        "module": item.key[len(CONTROL_PREFIX) :] if control else item.key,
        "verdict": item.verdict.value,
        "passes": item.verdict.passes,
        "expected_broken": item.expected_broken,
        "violations": [violation_to_data(v) for v in item.violations],
    }
