"""`layering baseline`: excuse what the contracts find today, so a legacy code base can adopt them.

Every broken contract gains the entries that excuse its findings (see `domain.baseline`), each
marked with a comment, in the configuration file itself; the edited configuration is checked
before it is written, so a baseline that would not keep its contracts is never written. From
then on the entries only shrink: a stale one breaks its contract and `prune` removes it.
"""

from __future__ import annotations

from collections.abc import Sequence

from layering.adapters.config_editor import (
    DEFAULT_INDENT,
    EditFailed,
    add_entries,
    insert_lines,
    write_atomically,
)
from layering.commands.check import ProbeSelection, check_settings
from layering.contracts import CONTRACT_TYPES, contract_class
from layering.contracts._common import KNOWN_CHAINS
from layering.domain.baseline import (
    ALLOW,
    EXHAUSTIVE_IGNORES,
    IGNORE_IMPORTS,
    Baseline,
    BaselineEntries,
    entries_excusing,
    known_chains_excusing,
    unlisted_layers,
)
from layering.domain.codes import STALE_ALLOWANCE, STALE_EXPECTATION, UNEXPECTEDLY_KEPT
from layering.domain.errors import ConfigError, Problem
from layering.domain.results import ContractResult, Verdict
from layering.engine.config import IMPORTLINTER, Settings, settings_from_text

STALE_CODES = frozenset({STALE_ALLOWANCE, STALE_EXPECTATION, UNEXPECTEDLY_KEPT})
"""Findings of entries that were stale before the baseline: `prune`'s work, not a reason to
refuse one."""


def baseline(
    settings: Settings,
    comment: str,
    contract_ids: Sequence[str] = (),
    probes: ProbeSelection = ProbeSelection.ALL,
    jobs: int | None = None,
    dry_run: bool = False,
) -> Baseline:
    """Add, to every broken contract of the selection, the entries that excuse its findings,
    and write the file unless `dry_run`."""
    by_pairs = settings.dialect != IMPORTLINTER and settings.file_format != "ini"
    report = check_settings(settings, contract_ids, probes, jobs=jobs, chain_ends=by_pairs)
    position_at_line = {spec.line: spec.index for spec in settings.contracts}
    added: list[BaselineEntries] = []
    left_alone: list[str] = []
    undecided = any(r.verdict is Verdict.ERROR for r in report.results)
    for result in report.results:
        if result.verdict is Verdict.ERROR:
            left_alone.append(f"contract '{result.name}' could not be decided: left alone")
            continue
        option = _option_for(result, settings)
        pairs = (
            known_chains_excusing(result)
            if by_pairs
            and result.type_name in CONTRACT_TYPES
            and contract_class(result.type_name).takes_known_chains
            else ()
        )
        values = entries_excusing(
            result,
            option,
            name_level=option == ALLOW and settings.file_format != "ini",
            chains=not pairs,
        )
        position = position_at_line[result.source_line]
        if pairs:
            added.append(BaselineEntries(_key(result), position, KNOWN_CHAINS, pairs))
        if values:
            added.append(BaselineEntries(_key(result), position, option, values))
        unlisted = unlisted_layers(result)
        if unlisted:
            added.append(BaselineEntries(_key(result), position, EXHAUSTIVE_IGNORES, unlisted))
        if result.stale:
            left_alone.append(
                f"contract '{result.name}' has {len(result.stale)} stale entries: `layering "
                "prune` removes them"
            )
    if not added:
        return Baseline((), tuple(left_alone), _not_kept(report.results), None, comment, undecided)
    text = _edited_text(settings, added, comment)
    edited = settings_from_text(settings.path, text)
    if edited.problems or len(edited.contracts) != len(settings.contracts):
        raise ConfigError(
            Problem(
                settings.path,
                0,
                "the baseline would not read back as written (nothing was changed)",
                hint="report this",
            )
        )
    after = check_settings(
        edited, [entries.contract for entries in added], probes, use_cache=False, jobs=jobs
    )
    refused = _why_not_kept(after.results, report.results)
    if refused:
        # A baseline that would not keep what it baselines is not written: the file stays
        # as it was, and the run says which contract and why (exit 1).
        return Baseline(
            tuple(added),
            tuple(left_alone),
            _not_kept(report.results),
            None,
            comment,
            undecided,
            refused,
        )
    if not dry_run:
        try:
            write_atomically(settings.path, text)
        except EditFailed as failure:
            raise ConfigError(
                Problem(settings.path, 0, str(failure), hint="the file was left unchanged")
            ) from None
    rechecked = {_key(r) for r in after.results}
    return Baseline(
        tuple(added),
        tuple(left_alone),
        _not_kept([*after.results, *(r for r in report.results if _key(r) not in rechecked)]),
        text,
        comment,
        undecided,
    )


def _option_for(result: ContractResult, settings: Settings) -> str:
    """The option that excuses a finding of the contract's type; in import-linter's own
    configuration a forbidden import is excused as import-linter would, by `ignore_imports`."""
    if result.type_name not in CONTRACT_TYPES:
        return IGNORE_IMPORTS
    option = contract_class(result.type_name).baseline_option
    if option == ALLOW and settings.dialect == IMPORTLINTER and result.type_name == "forbidden":
        return IGNORE_IMPORTS
    return option


def _key(result: ContractResult) -> str:
    """The key `--contract` knows a contract by: its id, else its name."""
    return result.contract_id or result.name


def _why_not_kept(
    after: Sequence[ContractResult], before: Sequence[ContractResult]
) -> tuple[str, ...]:
    """Each baselined contract the edited configuration would not keep for a finding that was
    not there before as a stale entry (which `prune` removes), with its first such findings:
    what a refused baseline says."""
    stale_before = {
        (_key(r), v.code, v.message) for r in before for v in r.violations if v.code in STALE_CODES
    }
    why = []
    for result in after:
        new = [
            v for v in result.violations if (_key(result), v.code, v.message) not in stale_before
        ]
        if result.verdict.passes or not new:
            continue
        shown = [v.render() for v in new[:3]]
        more = len(new) - len(shown)
        why.append(
            "; ".join(
                [f"{result.name} ({result.verdict.label})", *shown]
                + ([f"{more} more"] if more > 0 else [])
            )
        )
    return tuple(why)


def _not_kept(results: Sequence[ContractResult]) -> tuple[str, ...]:
    return tuple(
        f"{r.name} ({r.verdict.label})"
        for r in results
        if not r.verdict.passes and r.verdict is not Verdict.ERROR
    )


def _edited_text(settings: Settings, added: list[BaselineEntries], comment: str) -> str:
    try:
        if settings.file_format == "ini":
            return _ini_text(settings, added, comment)
        table = tuple(settings.table_name.split(".")) if settings.table_name else ()
        return add_entries(
            settings.path, table, [(e.position, e.option, e.values) for e in added], comment
        )
    except EditFailed as failure:
        raise ConfigError(
            Problem(settings.path, 0, str(failure), hint="the file was left unchanged")
        ) from None


def _ini_text(settings: Settings, added: list[BaselineEntries], comment: str) -> str:
    """INI values cannot hold a comment on an entry's line: a comment line leads the entries."""
    insertions: dict[int, list[str]] = {}
    for entries in added:
        spec = settings.contracts[entries.position]
        lines = [
            f"{DEFAULT_INDENT}# {comment}",
            *(f"{DEFAULT_INDENT}{value}" for value in entries.values),
        ]
        if entries.option in spec.option_lines:
            after = max(spec.entry_lines.get(entries.option) or (spec.line_of(entries.option),))
        else:
            after = max(
                [
                    *spec.option_lines.values(),
                    *(line for lines_ in spec.entry_lines.values() for line in lines_),
                ]
            )
            lines.insert(0, f"{entries.option} =")
        insertions.setdefault(after, []).extend(lines)
    return insert_lines(settings.path, insertions)
