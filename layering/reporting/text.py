"""The report people read: each contract KEPT or BROKEN, its violations, a summary line."""

from __future__ import annotations

import dataclasses
import os

from layering.domain.errors import ConfigError
from layering.domain.results import ContractResult, RunReport, Verdict

_COLOURS = {
    Verdict.KEPT: "32",
    Verdict.EXPECTED_BROKEN: "33",
    Verdict.BROKEN: "31",
    Verdict.UNEXPECTEDLY_KEPT: "31",
    Verdict.ERROR: "31;1",
}


def render(report: RunReport, colour: bool = False) -> str:
    lines: list[str] = [f"Configuration: {relative_path(report.config_path)}"]
    for warning in report.warnings:
        lines.append(f"warning: {warning}")
    for result in report.results:
        lines.extend(render_result(result, colour))
    lines.append("")
    lines.append(summary(report))
    return "\n".join(lines) + "\n"


def render_result(result: ContractResult, colour: bool = False) -> list[str]:
    label = result.verdict.label
    if colour:
        label = f"\x1b[{_COLOURS[result.verdict]}m{label}\x1b[0m"
    ident = f" [{result.contract_id}]" if result.contract_id and result.contract_id != result.name else ""
    lines = [f"{result.name}{ident} {label}"]
    if result.verdict is Verdict.KEPT:
        return lines
    lines.extend(violation_lines(result))
    return lines


def violation_lines(result: ContractResult) -> list[str]:
    """The violations of one contract, each with its chain, then the contract's notes."""
    lines = []
    for violation in result.violations:
        first, *rest = violation.render().splitlines() or [""]
        lines.append(f"  {first}")
        lines.extend(f"    {line}" for line in rest)
        if len(violation.chain) > 1 or (violation.chain and violation.chain[0].path != violation.path):
            for hop in violation.chain:
                lines.append(f"    {hop.render()}")
    for note in result.notes:
        lines.extend(f"  {line}" for line in note.splitlines())
    return lines


def summary(report: RunReport) -> str:
    parts = [f"{report.count(Verdict.KEPT)} kept", f"{report.count(Verdict.BROKEN) + report.count(Verdict.UNEXPECTEDLY_KEPT)} broken"]
    if report.count(Verdict.EXPECTED_BROKEN):
        parts.append(f"{report.count(Verdict.EXPECTED_BROKEN)} broken as expected")
    if report.count(Verdict.ERROR):
        parts.append(f"{report.count(Verdict.ERROR)} could not be decided")
    return f"Contracts: {', '.join(parts)}."


def render_error(error: ConfigError) -> str:
    """Each problem as `path:line:col: error: message`, paths relative to the working directory."""
    return "\n".join(dataclasses.replace(p, path=relative_path(p.path)).render() for p in error.problems) + "\n"


def relative_path(path: str) -> str:
    """`path` relative to the working directory where it lies below it, for short messages."""
    if not os.path.isabs(path):
        return path
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative.replace(os.sep, "/")
