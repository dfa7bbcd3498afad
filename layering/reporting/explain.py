"""What `layering explain` prints: the chains from one module to another and the imports that
cut them, as text or JSON."""

from __future__ import annotations

import json

from layering.domain.import_scope import TYPING_ONLY_MARK
from layering.domain.results import Explanation
from layering.domain.serialization import hop_to_data
from layering.domain.version import VERSION
from layering.reporting.json import cut_entries
from layering.reporting.text import group_from_cwd, group_lines

SCHEMA_VERSION = 1


def render_text(explanation: Explanation) -> str:
    importer, imported = explanation.importer, explanation.imported
    if not explanation.imports:
        return f"{importer} does not import {imported}, directly or through a chain.\n"
    lines = [f"{importer} imports {imported}:"]
    for group in explanation.groups:
        lines.extend(group_lines(group_from_cwd(group), keeps=False, titled=True, codes=False))
    total = sum(group.chains for group in explanation.groups)
    for count in explanation.contracts:
        why = "; ".join(count.reasons) or "it reads the graph as its options say"
        lines.append(
            f"contract '{count.contract}' counts "
            + (f"{count.chains} of these {total} chains" if count.chains else "none of them")
            + f": {why}"
        )
    if any(TYPING_ONLY_MARK in line for line in lines):
        lines.append(
            f"[{TYPING_ONLY_MARK}]: the statement's names are used only in annotations that are "
            "not "
            'evaluated at run time; a contract with typing_only = "allow" allows it'
        )
    return "\n".join(lines) + "\n"


def render_json(explanation: Explanation) -> str:
    document = {
        "schema_version": SCHEMA_VERSION,
        "tool": {"name": "layering", "version": VERSION},
        "importer": explanation.importer,
        "imported": explanation.imported,
        "imports": explanation.imports,
        "chains": sum(group.chains for group in explanation.groups),
        "cut": [entry for group in explanation.groups for entry in cut_entries(group)],
        "contracts": [
            {"contract": c.contract, "chains": c.chains, "reasons": list(c.reasons)}
            for c in explanation.contracts
        ],
        "listed": [
            [hop_to_data(hop) for hop in chain]
            for group in explanation.groups
            for chain in group.listed
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
