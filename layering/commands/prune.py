"""`layering prune`: remove the allowances and expectations that no longer match anything.

Allowances only shrink, so a stale one is a failure that says "remove it"; this does the
removing, in the configuration file itself, keeping every comment.
"""

from __future__ import annotations

from dataclasses import dataclass

from layering.adapters.config_editor import (
    EditFailed,
    edit_lines,
    remove_entries,
    write_atomically,
)
from layering.commands.check import ProbeSelection, check_settings
from layering.domain.errors import ConfigError, Problem
from layering.domain.results import StaleEntry, Verdict
from layering.engine.config import Settings, settings_from_text


@dataclass(frozen=True)
class Removal:
    """One entry taken out of one contract."""

    contract: str
    entry: StaleEntry


def prune(
    settings: Settings, probes: ProbeSelection = ProbeSelection.ALL, jobs: int | None = None
) -> tuple[list[Removal], list[str]]:
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
            skipped.append(
                f"contract '{result.name}' could not be decided; its entries were left alone"
            )
            continue
        for entry in result.stale:
            removals.append((position, entry))
            shown.append(Removal(result.name, entry))
    if removals:
        try:
            if settings.file_format == "ini":
                _remove_ini_entries(settings, removals)
            else:
                remove_entries(
                    settings.path,
                    tuple(settings.table_name.split(".")) if settings.table_name else (),
                    removals,
                )
        except EditFailed as failure:
            raise ConfigError(
                Problem(settings.path, 0, str(failure), hint="the file was left unchanged")
            ) from None
    return shown, skipped


def _remove_ini_entries(settings: Settings, removals: list[tuple[int, StaleEntry]]) -> None:
    """In INI, every entry of a list stands on its own line: remove that line. An entry on
    its key's line keeps the key (`key =`) when other entries continue below it; a value of
    one entry goes with its key."""
    replacements: dict[int, str | None] = {}
    for position, entry in removals:
        spec = settings.contracts[position]
        key_line = spec.line_of(entry.option)
        if entry.position is None or len(spec.entry_lines.get(entry.option, ())) <= 1:
            replacements[key_line] = None
            continue
        line = spec.line_of_entry(entry.option, entry.position)
        replacements[line] = f"{entry.option} =" if line == key_line else None
    text = edit_lines(settings.path, replacements)
    edited = settings_from_text(settings.path, text)
    if edited.problems or len(edited.contracts) != len(settings.contracts):
        raise EditFailed("the edited INI would not read the same (nothing was changed)")
    write_atomically(settings.path, text)
