"""GitHub Actions annotations (`--format github`): one `::error` workflow command per finding.

Each finding of a failing contract (or probed module) becomes
`::error file=PATH,line=N,col=N,title=CODE contract::message`, with its chain of imports on
the following lines of the message; a contract with `severity = "warn"` gives `::warning`. Findings
that are known (`expect = "broken"`,
`expect_loaded`) become one `::notice` per contract; kept contracts print nothing; the text
summary ends the output. Values are escaped as the Actions toolkit does: `%`, CR and LF
everywhere, and `:` and `,` in properties as well. Paths are relative to the root of the
repository that holds the configuration (as GitHub resolves them), else to the current
directory.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from layering.domain.errors import ConfigError
from layering.domain.results import RunReport, Verdict, Violation
from layering.reporting import text
from layering.reporting._findings import (
    PathMapper,
    cut_notes,
    describe,
    findings,
    repository_root,
)


def escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def command(kind: str, message: str, **properties: object) -> str:
    shown = ",".join(
        f"{key}={escape_property(str(value))}"
        for key, value in properties.items()
        if value not in (None, "", 0)
    )
    return f"::{kind}{' ' + shown if shown else ''}::{escape_data(message)}"


def render(
    report: RunReport,
    root: str | None = None,
    passing: Callable[[str, Violation], bool] | None = None,
    closing: Sequence[str] = (),
) -> str:
    """Annotations with paths relative to `root`: by default the repository that holds the
    configuration (GitHub resolves them there), else the current directory. A finding that
    `passing(contract key, finding)` says does not fail the run (`check --since REF
    --new-only`: one as old as REF) is a warning; `closing` lines come before the summary."""
    base = os.path.dirname(os.path.abspath(report.config_path))
    paths = PathMapper(report.config_path, root or repository_root(base))
    lines: list[str] = []
    for warning in report.warnings:
        lines.append(command("warning", warning, title="layering"))
    for result in report.results:
        found = findings(result)
        known = [f for f in found if f.expected]
        in_cut = cut_notes(result)
        for finding in found:
            if finding.expected:
                continue
            violation = finding.violation
            hops = [
                hop.render()
                for hop in violation.chain
                if len(violation.chain) > 1 or hop.path != violation.path
            ]
            body = [describe(violation)]
            if violation in in_cut:
                body.append(in_cut[violation] + ("; the shortest:" if hops else ""))
            body.extend(hops)
            body.append(
                f"contract: {result.name}"
                + (f" [{result.contract_id}]" if result.contract_id != result.name else "")
            )
            if finding.item:
                body.append(f"module: {finding.item}")
            body.extend(result.notes)
            lines.append(
                command(
                    "warning"
                    if result.warns or (passing and passing(result.contract_id, violation))
                    else "error",
                    "\n".join(body),
                    file=paths.display(violation.path)
                    if violation.path
                    else paths.display(result.source_path),
                    line=violation.line if violation.path else result.source_line,
                    col=violation.column
                    if violation.path and violation.line and violation.column > 1
                    else None,
                    title=f"{violation.code} {result.name}",
                )
            )
        if known and result.verdict in (Verdict.EXPECTED_BROKEN, Verdict.KEPT, Verdict.BROKEN):
            lines.append(
                command(
                    "notice",
                    f'{len(known)} known violation(s) (expect = "broken" / expect_loaded): remove '
                    "the expectation once fixed",
                    file=paths.display(result.source_path),
                    line=result.source_line,
                    title=f"{result.name} is broken as expected",
                )
            )
    lines.extend(closing)
    lines.append(text.summary(report))
    return "\n".join(lines) + "\n"


def render_error(error: ConfigError, root: str | None = None) -> str:
    paths = PathMapper("", root)
    lines = []
    for problem in error.problems:
        message = problem.message + (f"\nhint: {problem.hint}" if problem.hint else "")
        lines.append(
            command(
                "error",
                message,
                file=paths.display(problem.path),
                line=problem.line,
                col=problem.column,
                title="layering: configuration error",
            )
        )
    return "\n".join(lines) + "\n"
