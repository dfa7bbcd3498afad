"""The report people read: each contract KEPT or BROKEN, its violations, a summary line."""

from __future__ import annotations

import os
from collections.abc import Iterable

from layering.domain.errors import ConfigError
from layering.domain.results import (
    ChainGroup,
    ContractResult,
    CutImport,
    Hop,
    RunReport,
    Verdict,
    Violation,
    shown_names,
)

_COLOURS = {
    Verdict.KEPT: "32",
    Verdict.EXPECTED_BROKEN: "33",
    Verdict.BROKEN: "31",
    Verdict.UNEXPECTEDLY_KEPT: "31",
    Verdict.ERROR: "31;1",
}


CUT_SHOWN = 3
"""Imports of each cut a report shows by default, the most-crossed first (`--chains N` shows
N, `--chains all` every one): a broken layers contract on sympy has cuts of 387 imports, a
report nobody reads to the end."""


def render(report: RunReport, colour: bool = False) -> str:
    """The report, headed by the file read; warnings are not in it (the CLI writes them to
    stderr, see `warning_lines`)."""
    lines: list[str] = [f"Configuration: {relative_path(report.config_path)}"]
    shown = max(report.listed_chains, CUT_SHOWN)
    for result in report.results:
        lines.extend(render_result(paths_from_cwd(result), colour, shown))
    lines.append("")
    lines.append(summary(report))
    return "\n".join(lines) + "\n"


def paths_from_cwd(result: ContractResult) -> ContractResult:
    """`result` with each absolute path below the working directory made relative to it, as
    ruff prints paths: the report's paths are relative to the configuration's directory where
    they lie below it, and a source outside it (import-linter finds packages from the working
    directory) would otherwise read as a path of this machine."""
    return result._replace(
        violations=_violations_from_cwd(result.violations),
        chain_groups=tuple(group_from_cwd(group) for group in result.chain_groups),
        items=tuple(
            item._replace(violations=_violations_from_cwd(item.violations))
            for item in result.items
        ),
    )


def group_from_cwd(group: ChainGroup) -> ChainGroup:
    """`group` with its paths as `paths_from_cwd` shows them."""
    return group._replace(
        cut=tuple(
            cut._replace(
                statements=_violations_from_cwd(cut.statements),
                example=_hops_from_cwd(cut.example),
            )
            for cut in group.cut
        ),
        listed=tuple(_hops_from_cwd(chain) for chain in group.listed),
    )


def _violations_from_cwd(violations: tuple[Violation, ...]) -> tuple[Violation, ...]:
    return tuple(
        v._replace(path=relative_path(v.path), chain=_hops_from_cwd(v.chain)) for v in violations
    )


def _hops_from_cwd(hops: tuple[Hop, ...]) -> tuple[Hop, ...]:
    return tuple(hop._replace(path=relative_path(hop.path)) for hop in hops)


_WARN_COLOUR = "33"


def render_result(
    result: ContractResult, colour: bool = False, shown: int = CUT_SHOWN
) -> list[str]:
    label = result.label
    if colour:
        shade = _WARN_COLOUR if result.warns else _COLOURS[result.verdict]
        label = f"\x1b[{shade}m{label}\x1b[0m"
    ident = (
        f" [{result.contract_id}]"
        if result.contract_id and result.contract_id != result.name
        else ""
    )
    debt = []
    if result.allowances_used:
        debt.append(f"{_count(result.allowances_used, 'allowance')} in use")
    if result.ignored_imports:
        debt.append(_count(result.ignored_imports, "ignored import"))
    excused = f" ({', '.join(debt)})" if debt else ""
    lines = [f"{result.name}{ident} {label}{excused}"]
    if result.probe_setting is not None:
        lines.extend(f"  {line}" for line in result.probe_setting.lines())
    if result.verdict is Verdict.KEPT:
        return lines
    lines.extend(violation_lines(result, shown))
    return lines


def warning_lines(report: RunReport) -> str:
    return warnings_text(report.warnings)


def warnings_text(warnings: Iterable[str]) -> str:
    """Each warning on a line of its own, once, in the order said."""
    return "".join(f"layering: warning: {warning}\n" for warning in dict.fromkeys(warnings))


def violation_lines(result: ContractResult, shown: int = CUT_SHOWN) -> list[str]:
    """The violations of one contract: first each group of chains with the imports that cut
    them, then every other finding with its chain, then the contract's notes."""
    lines = []
    in_groups = {v for group in result.chain_groups for cut in group.cut for v in cut.statements}
    # Known chains beside the groups: cutting these may cut known ones too, to be pruned then.
    only_chains = all(v in in_groups for v in result.violations) and not any(
        group.beside_known for group in result.chain_groups
    )
    alone = len(result.chain_groups) == 1
    if _shares_imports(result.chain_groups):
        lines.extend(_by_import_lines(result.chain_groups, only_chains, max(shown, BY_IMPORT)))
    else:
        for group in result.chain_groups:
            lines.extend(
                group_lines(group, keeps=only_chains and alone, titled=not alone, shown=shown)
            )
    if len(result.chain_groups) > 1 and not _shares_imports(result.chain_groups):
        total = len(
            {(cut.importer, cut.imported) for group in result.chain_groups for cut in group.cut}
        )
        where = (
            "above"
            if all(len(group.cut) <= shown for group in result.chain_groups)
            else "of these cuts"
        )
        lines.append(
            f"  Removing the {_count(total, 'import')} {where} "
            f"{'keeps the contract' if only_chains else 'cuts every chain'}."
        )
    lines.extend(_fewer_lines(result, only_chains, shown))
    for violation in result.violations:
        if violation in in_groups:
            continue
        first, *rest = violation.render().splitlines() or [""]
        lines.append(f"  {first}")
        lines.extend(f"    {line}" for line in rest)
        if len(violation.chain) > 1 or (
            violation.chain and violation.chain[0].path != violation.path
        ):
            for hop in violation.chain:
                lines.append(f"    {hop.render()}")
    for note in result.notes:
        lines.extend(f"  {line}" for line in note.splitlines())
    return lines


def _fewer_lines(result: ContractResult, keeps: bool, shown: int) -> list[str]:
    """Where fewer imports than the groups' cuts hold cut every chain of the contract (one
    import cuts the chains of several groups): those, the first `shown`, each at its first
    statement; said where they are a handful or a quarter fewer at least."""
    union = {(cut.importer, cut.imported) for group in result.chain_groups for cut in group.cut}
    statements: dict[tuple[str, str], list[Hop]] = {}
    for hop in result.cut:
        statements.setdefault((hop.importer, hop.imported), []).append(hop)
    if not statements or len(statements) >= len(union):
        return []
    if len(statements) > shown and 4 * len(statements) > 3 * len(union):
        return []  # a few fewer of many: the JSON says which, the report stays short
    these = "this import" if len(statements) == 1 else f"these {len(statements)} imports"
    outcome = "keeps the contract" if keeps else "cuts every chain"
    lines = [f"  Fewer do: removing {these} {outcome}:"]
    limit = shown
    for hops in list(statements.values())[:limit]:
        lines.append(f"  {hops[0].render()}")
        if len(hops) > 1:
            at = ", ".join(str(hop.line) for hop in hops[1:BY_IMPORT])
            etc = ", ..." if len(hops) > BY_IMPORT else ""
            lines.append(
                f"    and {_count(len(hops) - 1, 'more statement')} of this import, at lines"
                f" {at}{etc}"
            )
    if len(statements) > limit:
        lines.append(
            f"  ... and {_count(len(statements) - limit, 'more import')} (--chains all to list "
            "them)"
        )
    return lines


BY_IMPORT = 10
"""Imports a report shows by default where one import cuts the chains of several groups."""


def _shares_imports(groups: tuple[ChainGroup, ...]) -> bool:
    """Whether an import cuts the chains of more than one group (an independence contract's
    pairs often share them): the report then says each import once, with the pairs it breaks."""
    seen: set[tuple[str, str]] = set()
    for group in groups:
        for cut in group.cut:
            if (cut.importer, cut.imported) in seen:
                return True
            seen.add((cut.importer, cut.imported))
    return False


def _by_import_lines(groups: tuple[ChainGroup, ...], keeps: bool, shown: int) -> list[str]:
    """Each import of the cuts once, the one that breaks the most pairs first: its statements,
    the pairs whose chains run through it, and the shortest of those chains."""
    pairs: dict[tuple[str, str], list[tuple[ChainGroup, CutImport]]] = {}
    for group in groups:
        for cut in group.cut:
            pairs.setdefault((cut.importer, cut.imported), []).append((group, cut))
    ordered = sorted(
        pairs.items(),
        key=lambda item: (-len(item[1]), -sum(c.chains for _, c in item[1]), item[0]),
    )
    outcome = "keeps the contract" if keeps else "cuts every chain"
    lines = [
        f"  {_count(sum(g.chains for g in groups), 'chain')} between "
        f"{_count(len(groups), 'pair')}; "
        f"removing {'this import' if len(ordered) == 1 else f'these {len(ordered)} imports'} "
        f"{outcome}:"
    ]
    for _edge, users in ordered[:shown]:
        first = users[0][1]
        lines.extend(_statement_lines(first.statements, True))
        broken = ", ".join(f"{g.source} -> {g.target}" for g, _ in users)
        lines.append(f"    breaks {_count(len(users), 'pair')}: {broken}")
        group, cut = min(users, key=lambda user: (len(user[1].example), user[0].source))
        if len(cut.example) > 1:
            lines.append(f"    the shortest chain through it ({group.source} -> {group.target}):")
            lines.extend(f"      {hop.render()}" for hop in cut.example)
    hidden = ordered[shown:]
    if hidden:
        statements = sum(len(users[0][1].statements) for _, users in hidden)
        lines.append(
            f"  ... and {_count(len(hidden), 'more import')} ({_count(statements, 'statement')})"
            " (--chains all to list them)"
        )
    return lines


def group_lines(
    group: ChainGroup,
    keeps: bool,
    titled: bool,
    codes: bool = True,
    shown: int | None = None,
) -> list[str]:
    """A group of chains: how many, the imports that cut them with an example each (the first
    `shown`, most-crossed first; all when None), the chains listed with --chains, and how many
    more there are. A group of direct imports only needs no title, unless other groups stand
    beside it."""
    these = "this import" if len(group.cut) == 1 else f"these {len(group.cut)} imports"
    outcome = (
        "keeps the contract" if keeps else ("cuts it" if group.chains == 1 else "cuts them all")
    )
    only_direct = group.chains == len(group.cut) and all(
        len(cut.example) == 1 for cut in group.cut
    )
    lines = (
        []
        if only_direct and not titled
        else [
            f"  {_count(group.chains, 'chain')} from {group.source} to {group.target}; removing "
            f"{these} {outcome}:"
        ]
    )
    listed_cut = group.cut if shown is None else group.cut[:shown]
    for cut in listed_cut:
        lines.extend(_statement_lines(cut.statements, codes))
        first = cut.statements[0]
        if len(cut.example) == 1 and (cut.example[0].path, cut.example[0].line) == (
            first.path,
            first.line,
        ):
            continue  # the import is the whole chain
        if cut.chains == 0:
            lines.append("    only chains longer than the shortest run through it, e.g.:")
        elif cut.chains == group.chains == 1:
            lines.append("    the chain:")
        elif cut.chains == group.chains:
            lines.append(f"    all {group.chains} chains run through it; the shortest:")
        else:
            lines.append(
                f"    {cut.chains} of the {_count(group.chains, 'chain')} "
                f"run{'s' if cut.chains == 1 else ''} through it; the shortest:"
            )
        lines.extend(f"      {hop.render()}" for hop in cut.example)
    if group.listed:
        lines.append(
            f"  the {_count(len(group.listed), 'shortest chain')}:"
            if len(group.listed) < group.chains
            else f"  all {group.chains} chains (the shortest from each import of a source module "
            "that leads there):"
            if group.chains > 1
            else "  the chain (the shortest from the only import of a source module that leads "
            "there):"
        )
        for chain in group.listed:
            lines.extend(
                f"    {'- ' if number == 0 else '  '}{hop.render()}"
                for number, hop in enumerate(chain)
            )
    hidden = group.cut[len(listed_cut) :]
    more = group.chains - group.shown
    if hidden:
        statements = sum(len(cut.statements) for cut in hidden)
        chains = f" and {_count(more, 'more chain')}" if more > 0 else ""
        lines.append(
            f"  ... and {_count(len(hidden), 'more import')} of the cut "
            f"({_count(statements, 'statement')}){chains}"
            " (--chains all to list them)"
        )
    elif more > 0:
        lines.append(f"  ... and {_count(more, 'more chain')} (--chains all to list them)")
    return lines


def _statement_lines(statements: tuple[Violation, ...], codes: bool) -> list[str]:
    """The statements of one import of a cut: one line each, except that a run of statements
    of one module with the same qualifiers (a file importing names one statement at a time) is
    one line that says which lines."""
    runs: list[list[Violation]] = []
    for statement in statements:
        if runs and (runs[-1][0].qualifiers, runs[-1][0].imported) == (
            statement.qualifiers,
            statement.imported,
        ):
            runs[-1].append(statement)
        else:
            runs.append([statement])
    lines = []
    for run in runs:
        first = run[0]
        code = f"{first.code} " if codes else ""
        if len(run) == 1:
            lines.append(f"  {first.render(with_code=codes)}")
            continue
        names = sorted({name for statement in run for name in statement.names})
        quals = f" [{', '.join(first.qualifiers)}]" if first.qualifiers else ""
        ranges = _line_ranges([statement.line for statement in run])
        where = (
            ", ".join(ranges)
            if len(ranges) <= 6
            else f"{', '.join(ranges[:5])} and {len(ranges) - 5} more"
        )
        lines.append(
            f"  {first.path}:{first.line}: {code}{first.importer} imports "
            f"{first.imported}{shown_names(names)}{quals} ({len(run)} statements, lines {where})"
        )
    return lines


def _line_ranges(numbers: list[int]) -> list[str]:
    ranges: list[list[int]] = []
    for number in sorted(numbers):
        if ranges and number == ranges[-1][1] + 1:
            ranges[-1][1] = number
        else:
            ranges.append([number, number])
    return [f"{a}" if a == b else f"{a}-{b}" for a, b in ranges]


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def summary(report: RunReport) -> str:
    broken = sum(
        1
        for r in report.results
        if r.verdict in (Verdict.BROKEN, Verdict.UNEXPECTEDLY_KEPT) and not r.warns
    )
    parts = [f"{report.count(Verdict.KEPT)} kept", f"{broken} broken"]
    if report.warned:
        parts.append(f'{report.warned} WARN (severity = "warn": the run passes)')
    if report.count(Verdict.EXPECTED_BROKEN):
        parts.append(f"{report.count(Verdict.EXPECTED_BROKEN)} broken as expected")
    if report.count(Verdict.ERROR):
        parts.append(f"{report.count(Verdict.ERROR)} could not be decided")
    skipped = [
        _count(number, f"{kind} contract") + " skipped"
        for number, kind in ((report.skipped_probes, "probe"), (report.skipped_static, "static"))
        if number
    ]
    return f"Contracts: {', '.join(parts)}" + (f"; {', '.join(skipped)}" if skipped else "") + "."


def render_error(error: ConfigError) -> str:
    """Each problem as `path:line:col: error: message`, paths relative to the working directory."""
    return (
        "\n".join(p._replace(path=relative_path(p.path)).render() for p in error.problems) + "\n"
    )


def relative_path(path: str) -> str:
    """`path` relative to the working directory where it lies below it, for short messages."""
    if not os.path.isabs(path):
        return path
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative.replace(os.sep, "/")
