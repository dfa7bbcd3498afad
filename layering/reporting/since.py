"""What `check --since REF` adds to a report: the findings new since REF, how many are fixed,
and how each contract's debt changed; as text (after the report) and as the JSON report's
`since` object."""

from __future__ import annotations

from typing import Any

from layering.domain.results import RunReport
from layering.domain.serialization import violation_to_data
from layering.domain.since import DebtChange, Since, exit_code
from layering.reporting.text import relative_path


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def render_report_text(
    report: RunReport, since: Since, new_only: bool, colour: bool = False
) -> str:
    """The text report, then what changed since REF (`render_text`)."""
    from layering.reporting import text

    return text.render(report, colour=colour) + render_text(since)


def render_json(report: RunReport, since: Since, new_only: bool) -> str:
    """The JSON report with its `since` object, its exit code the run's (`--new-only`'s)."""
    from layering.reporting import json as json_report

    data = json_report.document(report)
    data["exit_code"] = exit_code(report, since, new_only)
    data["since"] = document(since)
    return json_report.render_document(data)


def render_sarif(report: RunReport, since: Since, new_only: bool) -> str:
    """The SARIF log of today's report (it has no place for what changed)."""
    from layering.reporting import sarif

    return sarif.render(report)


def render_text(since: Since) -> str:
    """`since REF: N new, M fixed`, each new finding at its place in today's tree, then the
    contracts whose debt changed."""
    lines = [
        "",
        f"since {since.ref} ({since.commit[:12]}): {len(since.new)} new, {since.fixed} fixed",
        f"  {since.config_note}",
    ]
    for finding in since.new:
        violation = finding.violation._replace(path=relative_path(finding.violation.path))
        first, *rest = violation.render().splitlines() or [""]
        lines.append(f"  new [{finding.contract}] {first}")
        lines.extend(f"    {line}" for line in rest)
    for change in since.debt:
        lines.append(f"  debt [{change.contract}] {debt_text(change, since.ref)}")
    return "\n".join(lines) + "\n"


def debt_text(change: DebtChange, ref: str) -> str:
    """`3 allowances added, 5 removed (in use: 4 at REF, 2 now)`."""
    parts = []
    for added, removed, noun in (
        (change.added, change.removed, "allowance"),
        (change.ignores_added, change.ignores_removed, "ignored import"),
    ):
        if added:
            parts.append(
                f"{_count(added, noun)} added" + (f", {removed} removed" if removed else "")
            )
        elif removed:
            parts.append(f"{_count(removed, noun)} removed")
    if change.used_before is None:
        in_use = f"a contract new since {ref}: {change.used_now} in use"
    else:
        in_use = f"in use: {change.used_before} at {ref}, {change.used_now} now"
    return (", ".join(parts) + f" ({in_use})") if parts else in_use


def document(since: Since) -> dict[str, Any]:
    """The JSON report's `since` object."""
    return {
        "ref": since.ref,
        "commit": since.commit,
        "configuration": since.config_note,
        "new": [
            {"contract": finding.contract, **violation_to_data(finding.violation)}
            for finding in since.new
        ],
        "fixed": since.fixed,
        "debt": [
            {
                "contract": change.contract,
                "allowances_added": change.added,
                "allowances_removed": change.removed,
                "ignored_imports_added": change.ignores_added,
                "ignored_imports_removed": change.ignores_removed,
                "allowances_in_use_before": change.used_before,
                "allowances_in_use": change.used_now,
            }
            for change in since.debt
        ],
    }


def render_github(report: RunReport, since: Since, new_only: bool) -> str:
    """The annotations of the report, a notice of what changed since REF before its summary,
    and with `new_only` each finding as old as REF a warning (it does not fail the run)."""
    from layering.reporting import github

    new = {(f.contract, f.violation) for f in since.new}
    notice = github.command(
        "notice",
        "\n".join(
            [
                f"{len(since.new)} new, {since.fixed} fixed; {since.config_note}",
                *(f"new [{f.contract}] {f.violation.render()}" for f in since.new),
                *(f"debt [{c.contract}] {debt_text(c, since.ref)}" for c in since.debt),
            ]
        ),
        title=f"layering: since {since.ref}",
    )
    passing = (lambda contract, violation: (contract, violation) not in new) if new_only else None
    return github.render(report, passing=passing, closing=[notice])
