"""What the machine formats share: each finding with its contract, and paths made relative.

A finding is one violation of a contract that did not pass, or of a probed module that did
not pass; `expected` marks findings that are known (`expect = "broken"`, `expect_loaded`) and
so do not fail the run. Findings come in report order, violations sorted as the engine sorted
them, duplicates (a probe contract repeats its modules' violations) dropped.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from layering.domain.codes import NOT_KEPT
from layering.domain.results import ContractResult, Verdict, Violation


@dataclass(frozen=True)
class Finding:
    result: ContractResult
    item: str
    violation: Violation
    expected: bool


def findings(result: ContractResult) -> list[Finding]:
    found: list[Finding] = []
    seen: set[Violation] = set()
    contract_expected = result.verdict is Verdict.EXPECTED_BROKEN
    for item in result.items:
        if item.verdict is Verdict.KEPT:
            continue
        for violation in item.violations:
            if violation not in seen:
                seen.add(violation)
                expected = item.verdict is Verdict.EXPECTED_BROKEN or (
                    contract_expected and item.verdict is Verdict.BROKEN
                )
                found.append(Finding(result, item.key, violation, expected))
    for violation in result.violations:
        if violation not in seen:
            seen.add(violation)
            found.append(Finding(result, "", violation, contract_expected))
    if not result.verdict.passes and not any(not f.expected for f in found):
        # A failing contract always shows at least one finding, at its table in the configuration.
        message = "; ".join(result.notes) or f"contract is {result.verdict.label}"
        violation = Violation(
            path=result.source_path, line=result.source_line, code=NOT_KEPT, message=message
        )
        found.append(Finding(result, "", violation, False))
    return found


def repository_root(start: str) -> str | None:
    """The nearest directory from `start` upwards that holds `.git` (a checkout), or None."""
    directory = os.path.abspath(start)
    while True:
        if os.path.exists(os.path.join(directory, ".git")):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


class PathMapper:
    """Paths of the report (relative to the configuration's directory) made relative to `root`:
    a path under `root` becomes relative to it, one outside stays absolute."""

    def __init__(self, config_path: str, root: str | None = None) -> None:
        self.base = os.path.dirname(os.path.abspath(config_path)) if config_path else os.getcwd()
        self.root = os.path.abspath(root or os.getcwd())

    def absolute(self, path: str) -> str:
        return os.path.normpath(path if os.path.isabs(path) else os.path.join(self.base, path))

    def relative(self, path: str) -> str | None:
        """`path` relative to the root with `/` separators, or None when it lies outside."""
        if not path:
            return None
        full = self.absolute(path)
        try:
            relative = os.path.relpath(full, self.root)
        except ValueError:  # another drive on Windows
            return None
        if relative == ".." or relative.startswith(".." + os.sep):
            return None
        return relative.replace(os.sep, "/")

    def display(self, path: str) -> str:
        relative = self.relative(path)
        return relative if relative is not None else self.absolute(path)


def cut_notes(result: ContractResult) -> dict[Violation, str]:
    """For each finding that is an import of a cut: how many of its group's chains cross it."""
    notes = {}
    for group in result.chain_groups:
        for cut in group.cut:
            crossing = (
                "only longer chains"
                if cut.chains == 0
                else f"{cut.chains} of {group.chains} chain{'s' if group.chains != 1 else ''}"
            )
            which = (
                "the one import" if len(group.cut) == 1 else f"one of the {len(group.cut)} imports"
            )
            text = (
                f"{which} to remove to cut every chain from {group.source} to {group.target} "
                f"({crossing} from {group.source} run through it)"
            )
            notes.update(dict.fromkeys(cut.statements, text))
    return notes


def describe(violation: Violation) -> str:
    """The violation's message with its qualifiers, as the text report shows it."""
    quals = f" [{', '.join(violation.qualifiers)}]" if violation.qualifiers else ""
    return f"{violation.message}{quals}"
