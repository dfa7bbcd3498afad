"""`layering prune`: remove the allowances and expectations that no longer match anything.

Allowances only shrink, so a stale one is a failure that says "remove it"; this does the
removing, in the configuration file itself, keeping every comment.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from layering.adapters.config_editor import EditFailed, remove_entries
from layering.domain.errors import ConfigError, Problem
from layering.domain.results import StaleEntry, Verdict
from layering.engine.config import PYPROJECT_FILE, Settings
from layering.commands.check import ProbeSelection, check_settings


@dataclass(frozen=True)
class Removal:
    """One entry taken out of one contract."""

    contract: str
    entry: StaleEntry


def prune(settings: Settings, probes: ProbeSelection = ProbeSelection.ALL, jobs: int | None = None) -> tuple[list[Removal], list[str]]:
    """Remove every stale entry of the decided contracts; return what went and what was skipped.

    A contract that could not be decided is left alone: whether its entries are stale is not
    known.
    """
    report = check_settings(settings, (), probes, jobs=jobs)
    position_at_line = {spec.line: spec.index for spec in settings.contracts}
    removals: list[tuple[int, StaleEntry]] = []
    shown: list[Removal] = []
    skipped: list[str] = []
    for result in report.results:
        position = position_at_line[result.source_line]
        if result.verdict is Verdict.ERROR:
            skipped.append(f"contract '{result.name}' could not be decided; its entries were left alone")
            continue
        for entry in result.stale:
            removals.append((position, entry))
            shown.append(Removal(result.name, entry))
    if removals:
        try:
            remove_entries(settings.path, os.path.basename(settings.path) == PYPROJECT_FILE, removals)
        except EditFailed as failure:
            raise ConfigError(Problem(settings.path, 0, str(failure), hint="the file was left unchanged")) from None
    return shown, skipped
