"""What `layering lsp` publishes, as plain data: each finding of a broken contract as a
diagnostic on its file's line, and each problem of a configuration that cannot be used on the
configuration's line. The language server (layering/lsp.py) turns them into LSP messages.

A finding known to the configuration (`expect = "broken"`, `expect_loaded`) is left out, as the
GitHub annotations leave it out of their errors: it does not fail the run. Paths are made
absolute (a report's paths are relative to the configuration's directory where they lie below
it), so that each names one file whatever the server's working directory.
"""

from __future__ import annotations

import os
from typing import NamedTuple

from layering.domain.errors import ConfigError
from layering.domain.results import ContractResult, Hop, RunReport, Violation
from layering.reporting._findings import PathMapper, cut_notes, describe, findings


class Diagnostic(NamedTuple):
    """One diagnostic: `line` is 1-based (0: the file as a whole, shown on its first line)."""

    line: int
    message: str
    code: str
    warns: bool
    """From a contract with `severity = "warn"`: a warning, not an error."""


def report_diagnostics(report: RunReport) -> dict[str, list[Diagnostic]]:
    """The diagnostics of each file that has findings, by absolute path, in report order.

    One import statement is one diagnostic per contract: where it breaks several pairs of a
    contract (one finding per pair), it says the pairs, as the text report does, and the
    shortest of their chains."""
    paths = PathMapper(report.config_path)
    by_file: dict[str, list[Diagnostic]] = {}
    for result in report.results:
        in_cut = cut_notes(result)
        pairs = _pairs(result)
        ident = f" [{result.contract_id}]" if result.contract_id != result.name else ""
        same: dict[tuple[str, int, str, str, str], list[Violation]] = {}
        for finding in findings(result):
            violation = finding.violation
            if finding.expected or not violation.path:
                continue
            key = (
                paths.absolute(violation.path),
                violation.line,
                violation.code,
                describe(violation),
                finding.item,
            )
            same.setdefault(key, []).append(violation)
        for (path, line, code, described, item), violations in same.items():
            lines = [described]
            broken = list(dict.fromkeys(pair for v in violations for pair in pairs.get(v, ())))
            if len(broken) > 1:
                lines.append(f"breaks {len(broken)} pairs: " + ", ".join(broken))
            elif violations[0] in in_cut:
                lines.append(in_cut[violations[0]])
            chain = min((v.chain for v in violations), key=len)
            if len(chain) > 1:
                lines.append("chain: " + " -> ".join(_chain_modules(chain)))
            if item:
                lines.append(f"module: {item}")
            lines.append(f"contract: {result.name}{ident} ({code})")
            by_file.setdefault(path, []).append(
                Diagnostic(line, "\n".join(lines), code, result.warns)
            )
    return by_file


def _pairs(result: ContractResult) -> dict[Violation, list[str]]:
    """For each statement of a cut: the pairs of modules whose chains it cuts."""
    pairs: dict[Violation, list[str]] = {}
    for group in result.chain_groups:
        for cut in group.cut:
            for statement in cut.statements:
                pairs.setdefault(statement, []).append(f"{group.source} -> {group.target}")
    return pairs


def _chain_modules(chain: tuple[Hop, ...]) -> list[str]:
    return [chain[0].importer, *(hop.imported for hop in chain)]


def error_diagnostics(error: ConfigError) -> dict[str, list[Diagnostic]]:
    """The problems of a configuration error on the files they name (a problem without a
    file, such as "no configuration here", has none: the server shows it as a message)."""
    by_file: dict[str, list[Diagnostic]] = {}
    for problem in error.problems:
        if not problem.path or not os.path.isfile(problem.path):
            continue
        message = problem.message + (f"\nhint: {problem.hint}" if problem.hint else "")
        by_file.setdefault(os.path.abspath(problem.path), []).append(
            Diagnostic(problem.line, message, "configuration", False)
        )
    return by_file


def error_summary(error: ConfigError) -> str:
    """One line for the editor's message: the first problem, and how many more."""
    first = error.problems[0] if error.problems else None
    if first is None:
        return "layering: the configuration cannot be used"
    where = os.path.basename(first.path) if first.path else ""
    where += f":{first.line}" if where and first.line else ""
    more = len(error.problems) - 1
    return f"layering: configuration error: {where + ': ' if where else ''}{first.message}" + (
        f" (and {more} more problem{'s' if more != 1 else ''})" if more else ""
    )
