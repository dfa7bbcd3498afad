"""What `layering baseline` says: the entries it added (or would add) to each contract, and
whether every contract is kept afterwards."""

from __future__ import annotations

import json

from layering.domain.baseline import Baseline, EntryValue

SHOWN = 20
"""Entries listed per contract and option: the file holds them all (sympy's polys and solvers
join 1,137 pairs of modules)."""


def render(outcome: Baseline, config: str, file_format: str, dry_run: bool) -> str:
    """The entries as the file holds them (TOML: each with its comment; INI: after one comment
    line, as an INI value cannot hold a comment)."""
    verb = "would add" if dry_run or outcome.refused else "added"
    lines = []
    for entries in outcome.added:
        count = len(entries.values)
        lines.append(
            f"{config}: {verb} {count} {'entry' if count == 1 else 'entries'} to {entries.option} "
            f"of contract '{entries.contract}':"
        )
        shown = entries.values[:SHOWN]
        if file_format == "ini":
            lines.append(f"  # {outcome.comment}")
            lines.extend(f"  {value}" for value in shown)
        else:
            lines.extend(f"  {_toml(value)}, # {outcome.comment}" for value in shown)
        if count > len(shown):
            written = "would be written" if dry_run or outcome.refused else "written"
            lines.append(f"  ... and {count - len(shown)} more, {written} to the file as well")
    if not outcome.added:
        lines.append(
            f"{config}: nothing to baseline: no contract of the selection is broken by an import"
        )
    lines.extend(f"{config}: {note}" for note in outcome.left_alone)
    if outcome.refused:
        lines.append(
            f"{config}: nothing {'would be ' if dry_run else ''}written: with these entries a "
            "baselined contract would still not be kept, for findings no entry excuses:"
        )
        lines.extend(f"  {why}" for why in outcome.refused)
    elif outcome.still_broken:
        lines.append(f"{config}: still not kept: {', '.join(outcome.still_broken)}")
    elif outcome.added:
        lines.append(
            f"{config}: every baselined contract {'would be' if dry_run else 'is'} kept; the "
            "entries only shrink from now on (`layering prune` removes stale ones)"
        )
    return "\n".join(lines) + "\n"


def _toml(value: EntryValue) -> str:
    """An entry as TOML: a string, or an inline table."""
    if isinstance(value, str):
        return json.dumps(value)
    return "{" + ", ".join(f"{key} = {json.dumps(item)}" for key, item in value.items()) + "}"
