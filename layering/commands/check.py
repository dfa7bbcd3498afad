"""`layering check`: build the contracts of a configuration, gather evidence, decide each one."""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import gc
import os
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from layering.adapters.package_files import is_single_module
from layering.contracts import CONTRACT_TYPES, contract_class, plugin_contract_class
from layering.deciding.fresh import decide_each, warnings_of
from layering.domain.errors import ConfigError, Problem, UsageError, did_you_mean
from layering.domain.results import ContractResult, RunReport
from layering.engine.config import Settings, with_interpreter_path
from layering.engine.evidence import Evidence
from layering.engine.plan import RunPlan
from layering.engine.ports import DISK_SOURCES, CachedSources

if TYPE_CHECKING:
    from layering.adapters.result_cache import OptionsRead
    from layering.contracts._common import Contract


class ProbeSelection(str, enum.Enum):
    """Which contracts a run checks: all, the static ones only, or the probes only."""

    ALL = "all"
    STATIC = "static"
    PROBES = "probes"


def load_contracts(
    settings: Settings,
    evidence: Evidence,
    contract_ids: Sequence[str] = (),
    probes: ProbeSelection = ProbeSelection.ALL,
) -> tuple[list[Contract], list[Contract]]:
    """The selected contracts of `settings`, built and checked against the package, and the
    ones the probe selection skipped.

    Every problem of the file is raised at once, in one ConfigError: run-wide options, every
    contract's options, duplicate ids, unknown `--contract` ids, and (for the selected
    contracts whose options could be read) module patterns that match nothing.
    """
    problems = list(settings.problems)
    if not settings.contracts and not problems:
        where = (
            "[importlinter:contract:ID] sections"
            if settings.file_format == "ini"
            else "[[contracts]] tables"
        )
        problems.append(
            Problem(
                settings.path,
                0,
                f"no contracts: a configuration without {where} checks nothing",
                hint="add a contract (see the README)",
            )
        )
    contracts = _build(settings, problems)
    options_read = _read_importlinter_options(contracts, settings, evidence.use_cache)
    try:
        selected, skipped = _selection(contracts, contract_ids, probes, settings)
    except UsageError:
        raise
    except ConfigError as error:
        problems.extend(error.problems)
        selected, skipped = [], []
    if settings.roots_known:
        problems.extend(_validate(selected, evidence))
    problems.extend(p for c in contracts for p in c.problems)
    if problems:
        raise ConfigError(problems)
    if options_read is not None:
        options_read.remember()
    return selected, skipped


def _read_importlinter_options(
    contracts: list[Contract], settings: Settings, use_cache: bool
) -> OptionsRead | None:
    """Read the options of import-linter's contract types now, so that every problem of the
    file is said at once; unless a run with the cache already read this very configuration
    without a problem (then each reads them when it is decided, and a run whose verdicts all
    come from the cache never imports import-linter). The record to keep once the whole
    configuration loads, or None."""
    from layering.contracts._importlinter import ImportLinterContract

    readers = [c for c in contracts if isinstance(c, ImportLinterContract)]
    if not readers:
        return None
    record = _options_record(settings) if use_cache else None
    trusted = record is not None and record.read_before()
    for contract in readers:
        if not (trusted and contract.options_read_before_count):
            contract.read_options()
    return None if trusted else record


def _options_record(settings: Settings) -> OptionsRead | None:
    """The record for this configuration file's bytes under the cache's settings digest."""
    from layering.adapters import result_cache
    from layering.deciding.cached import settings_digest

    if not settings.cache_dir:
        return None
    return result_cache.OptionsRead(
        settings.cache_dir,
        result_cache.digest_of([settings_digest(settings), settings.content_digest()]),
    )


def _build(settings: Settings, problems: list[Problem]) -> list[Contract]:
    """The contracts whose type is known (problems for the others, and for duplicate keys)."""
    plugins = {plugin.name: plugin for plugin in settings.contract_types}
    known_types = sorted(set(CONTRACT_TYPES) | set(plugins))
    contracts: list[Contract] = []
    for spec in settings.contracts:
        type_name = spec.options.get("type")
        if type_name in plugins:
            contracts.append(plugin_contract_class(plugins[type_name])(spec, settings))
            continue
        if type_name not in CONTRACT_TYPES:
            if type_name is None:
                message = f"{spec.label} has no 'type'"
            else:
                message = f"{spec.label}: type {type_name!r} is not a contract type."
                message += (
                    did_you_mean(type_name, known_types) if isinstance(type_name, str) else ""
                )
            problems.append(
                Problem(
                    settings.path,
                    spec.line_of("type"),
                    message,
                    hint="known types: " + ", ".join(known_types),
                )
            )
            continue
        contracts.append(contract_class(type_name)(spec, settings))
    problems.extend(_duplicate_keys(contracts, settings))
    return contracts


def _duplicate_keys(contracts: list[Contract], settings: Settings) -> list[Problem]:
    """Each contract is known by its id, else its name: two with one key cannot be told apart
    (by --contract, by pytest), so both lines are named. In an import-linter configuration,
    which `lint-imports` checks whatever the names, a contract without an id whose name an
    earlier one has is known by its name and place (`same #2`), with a warning."""
    problems = []
    first: dict[str, Contract] = {}
    for contract in contracts:
        earlier = first.setdefault(contract.key, contract)
        if earlier is contract:
            continue
        if settings.is_importlinter and not contract.contract_id:
            contract.numbered_key = f"{contract.name} #{contract.spec.index + 1}"
            first.setdefault(contract.key, contract)
            named = "id" if earlier.contract_id else "name"
            contract.refused_in_own_format(
                Problem(
                    settings.path,
                    contract.spec.line_of("name"),
                    "the contracts on lines "
                    f"{earlier.spec.line_of(named)} "
                    f"and {contract.spec.line_of('name')} are both known as '{contract.name}' (a "
                    "contract "
                    f"without an id is known by its name): this one is '{contract.key}' for "
                    "--contract",
                    hint="give each contract its own id",
                )
            )
            continue
        line = (
            contract.spec.line_of("id") if contract.contract_id else contract.spec.line_of("name")
        )
        earlier_line = (
            earlier.spec.line_of("id") if earlier.contract_id else earlier.spec.line_of("name")
        )
        if contract.contract_id and earlier.contract_id:
            message = (
                f"duplicate contract id '{contract.key}' (first used on "
                f"{settings.place(earlier_line)})"
            )
        else:
            message = (
                f"the contracts on {settings.places(earlier_line, line)} are both known as "
                f"'{contract.key}' "
                "(a contract without an id is known by its name)"
            )
        problems.append(
            Problem(settings.path, line, message, hint="give each contract its own id")
        )
    return problems


def _validate(contracts: list[Contract], evidence: Evidence) -> list[Problem]:
    """Check the options of each contract that could be read against the package."""
    problems: list[Problem] = []
    try:
        problems.extend(_exclude_problems(evidence))
        for contract in contracts:
            if not contract.problems:
                contract.validate(evidence)
        graph_users = [c for c in contracts if c.needs_graph and not c.problems]
        if graph_users:
            problems.extend(_single_module_roots(evidence, graph_users[0]))
    except ConfigError as error:  # a root package that cannot be found
        problems.extend(error.problems)
    return problems


def _exclude_problems(evidence: Evidence) -> list[Problem]:
    """An `exclude` pattern that matches no module excludes nothing (misspelt?), and one that
    takes out a whole root package leaves nothing to check: both are errors at their entry."""
    settings = evidence.settings
    if not settings.exclude:
        return []
    evidence.walk()
    walked = evidence.modules | evidence.excluded
    problems = []
    for index, pattern in enumerate(settings.exclude):
        lines = settings.exclude_lines
        line = lines[index] if index < len(lines) else settings.line_of("exclude")
        roots = [r for r in settings.root_packages if pattern.covers(r)]
        if roots:
            message = f"'exclude' entry '{pattern}' excludes the root package '{roots[0]}'"
            hint = "take the package out of root_packages instead"
        elif not pattern.expand(walked):
            message = (
                f"'exclude' entry '{pattern}' matches no module in the package "
                f"{', '.join(settings.root_packages)}"
            )
            hint = "a pattern that matches nothing excludes nothing: fix or remove it"
        else:
            continue
        problems.append(Problem(settings.path, line, message, hint=hint))
    return problems


def _single_module_roots(evidence: Evidence, user: Contract) -> list[Problem]:
    """The import graph (grimp's, as import-linter's) takes packages, not one-file modules."""
    settings = evidence.settings
    return [
        Problem(
            settings.path,
            settings.line_of("root_packages") or settings.line_of("root_package"),
            f"'{root}' is a module, not a package: the import graph that contract '{user.name}' "
            "needs "
            "is built of packages only (as in import-linter)",
            hint="name the package that contains it, or use contracts that read direct imports "
            "only (leaf, "
            "contained, interface, forbidden with allow_indirect_imports = true)",
        )
        for root, locations in sorted(evidence.root_locations.items())
        if is_single_module(locations)
    ]


def select(
    contracts: list[Contract], ids: Sequence[str], probes: ProbeSelection, settings: Settings
) -> list[Contract]:
    """The contracts that `--contract` ids and the probe selection leave."""
    if ids:
        known = {c.key for c in contracts} | {c.name for c in contracts}
        unknown = [i for i in ids if i not in known]
        if unknown:
            raise UsageError(
                "--contract",
                f"{unknown[0]!r} names no contract of {settings.display_path(settings.path)}."
                + did_you_mean(unknown[0], known)
                + " Its contracts: "
                + ", ".join(sorted(c.key for c in contracts)),
            )
        contracts = [c for c in contracts if c.key in ids or c.name in ids]
    if probes is ProbeSelection.STATIC:
        contracts = [c for c in contracts if not c.runs_code]
    elif probes is ProbeSelection.PROBES:
        contracts = [c for c in contracts if c.runs_code]
    return contracts


def _selection(
    contracts: list[Contract], ids: Sequence[str], probes: ProbeSelection, settings: Settings
) -> tuple[list[Contract], list[Contract]]:
    """(selected, skipped): the contracts to check, and those the probe selection leaves out;
    a selection that leaves nothing to check is an error."""
    chosen = select(contracts, ids, ProbeSelection.ALL, settings)
    selected = select(chosen, (), probes, settings)
    if chosen and not selected:
        what = "probe" if probes is ProbeSelection.PROBES else "static"
        raise ConfigError(
            Problem(
                settings.path,
                0,
                f"no {what} contract to check: the selection leaves out all "
                f"{_plural(len(chosen), 'contract')}",
                hint="drop --no-probe or --probe-only, or name other contracts",
            )
        )
    return selected, [c for c in chosen if c not in selected]


def check_settings(
    settings: Settings,
    contract_ids: Sequence[str] = (),
    probes: ProbeSelection = ProbeSelection.ALL,
    use_cache: bool = True,
    jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    chains: int = 0,
    python: str | None = None,
    cache_results: bool = True,
    kept: list[object] | None = None,
    chain_ends: bool = False,
    draws_graph: bool = False,
) -> RunReport:
    """Decide the selected contracts of `settings`, listing `chains` chains per group of chains
    beyond one example per import of its cut; `python` (`--python`) is the probes' interpreter.
    Without `cache_results` the graph is still cached, the verdicts are not (a one-off question
    must not push a team's contracts out of the cache). `kept`, when given, keeps the run's
    evidence (the graph, what was read) instead of freeing it as the run ends: a process about
    to leave need not free it object by object (homeassistant's layers and independence: 10 ms
    without the cache, 30 ms with it). `chain_ends`: each group of chains records the pairs of
    modules its chains join (what a baseline writes). `draws_graph`: the graph is drawn from
    the evidence `kept` once the run ends (`RunPlan.draws_graph`)."""
    if python is not None:
        settings = with_interpreter_path(settings, python)
    if python is not None and settings.names_external_classes:
        settings = _with_stdlib_of(python, settings)
    with _collector_paused():
        facts = _facts_cache(settings, use_cache)
        evidence = Evidence(
            settings,
            RunPlan(
                keeps_cache=use_cache,
                listed_chains=chains,
                records_chain_ends=chain_ends,
                draws_graph=draws_graph,
            ),
            sources=DISK_SOURCES if facts is None else facts,
        )
        if kept is not None:
            kept.append(evidence)
        contracts, skipped = load_contracts(settings, evidence, contract_ids, probes)
        if python is not None:
            probe_in(python, [c for c in contracts if c.runs_code], settings)

        static = [c for c in contracts if not c.runs_code]
        cache_unusable = _cache_usable(static, settings, use_cache)
        evidence.follow(
            _plan(static, evidence, settings, use_cache and not cache_unusable, chains)
        )
        static_results, warnings = _decide_static(
            static, evidence, settings, use_cache and cache_results, chains, cache_unusable
        )
        results = dict(
            zip((i for i, c in enumerate(contracts) if not c.runs_code), static_results)
        )
        if facts is not None and not cache_unusable:
            warnings.extend(facts.save(evidence.walked_paths))
        probe_contracts = [c for c in contracts if c.runs_code]
        if probe_contracts:
            results.update(_run_probes(contracts, probe_contracts, evidence, jobs, progress))
            warnings.extend(w for c in probe_contracts for w in c.warnings(evidence, None))
        return RunReport(
            config_path=settings.path,
            results=tuple(contract.graded(results[i]) for i, contract in enumerate(contracts)),
            warnings=settings.notes + tuple(evidence.warnings()) + tuple(warnings),
            skipped_probes=sum(1 for c in skipped if c.runs_code),
            skipped_static=sum(1 for c in skipped if not c.runs_code),
            listed_chains=chains,
        )


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector held off while a run decides: the graph's hundreds of thousands
    of tuples and sets hold no cycles to free, yet each collection walks them all (measured on
    homeassistant's layers and independence: 0.17 s of a 3.0 s run without the cache, 0.45 s of
    3.9 s with it, peak memory the same). A collector the caller turned off stays off."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _facts_cache(settings: Settings, use_cache: bool) -> CachedSources | None:
    """Where a run that keeps a cache remembers what it read of each file (None: nowhere)."""
    if not (use_cache and settings.cache_dir):
        return None
    return CachedSources(settings.cache_dir)


def _plural(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _cache_usable(contracts: list[Contract], settings: Settings, use_cache: bool) -> str | None:
    """Why the cache directory cannot be used (said as a warning; the run goes on without it),
    None when it can or the run does not keep verdicts (no graph contract)."""
    if not (use_cache and settings.cache_dir and any(c.needs_graph for c in contracts)):
        return None
    from layering.adapters.cache_files import prepare

    return prepare(settings.cache_dir)


def _plan(
    contracts: list[Contract],
    evidence: Evidence,
    settings: Settings,
    keeps_cache: bool,
    chains: int,
) -> RunPlan:
    """How the run reads the package for the static `contracts`: only what their sources reach
    when every graph contract is about that, external packages where one needs them."""
    graph_contracts = [c for c in contracts if c.needs_graph]
    if graph_contracts:
        # the graph and the result cache walk the whole package: walk it once, first
        evidence.walk()
    reaches = [c.graph_reach(evidence) for c in graph_contracts]
    known = [r for r in reaches if r is not None]
    reach = None
    if known and len(known) == len(reaches):
        reach = (
            frozenset().union(*(starts for starts, _ in known)),
            frozenset().union(*(also for _, also in known)),
        )
    externals = settings.include_external_packages or any(
        c.needs_external_packages(evidence) for c in graph_contracts
    )
    return RunPlan(
        keeps_cache=keeps_cache,
        listed_chains=chains,
        graph_reach=reach,
        include_external_packages=externals,
        records_chain_ends=evidence.records_chain_ends,
        draws_graph=evidence.draws_graph,
    )


def _decide_static(
    contracts: list[Contract],
    evidence: Evidence,
    settings: Settings,
    use_cache: bool,
    chains: int,
    cache_unusable: str | None,
) -> tuple[list[ContractResult], list[str]]:
    """Decide the static contracts: graph contracts from the cache when the package's imports
    are as they were (the lines shown in an edited file read again), the others afresh (they
    read only their own files, faster than the cache's bookkeeping)."""
    graph_contracts = [c for c in contracts if c.needs_graph]
    if cache_unusable or not (use_cache and settings.cache_dir and graph_contracts):
        decided = decide_each(contracts, evidence)
        return [d.result for d in decided], ([cache_unusable] if cache_unusable else []) + [
            w for said in warnings_of(contracts, evidence, decided) for w in said
        ]
    from layering.deciding.cached import decide_with_cache

    cached, cache_warnings, graph_warnings = decide_with_cache(
        graph_contracts, evidence, settings, chains
    )
    others = [c for c in contracts if not c.needs_graph]
    decided_others = decide_each(others, evidence)
    other_warnings = warnings_of(others, evidence, decided_others)
    results = [cached.pop(0) if c.needs_graph else decided_others.pop(0).result for c in contracts]
    # In the contracts' order, as a run without the cache says them.
    warnings = [
        w
        for c in contracts
        for w in (graph_warnings.pop(0) if c.needs_graph else other_warnings.pop(0))
    ]
    return results, cache_warnings + warnings


def _with_stdlib_of(python: str, settings: Settings) -> Settings:
    """`settings` whose `<stdlib>` is the standard library of `--python`, the interpreter that
    runs the code (its modules are the stdlib there, whatever runs layering)."""
    from layering.adapters.probe_runner import (
        InterpreterUnusable,
        find_interpreter,
        stdlib_module_names,
    )

    try:
        names = stdlib_module_names(find_interpreter(python, os.getcwd()))
    except InterpreterUnusable as unusable:
        raise UsageError(
            "--python",
            f"'{python}' {unusable}: name the bin/python of the environment the code runs in: "
            "<stdlib> is its standard library",
        ) from None
    return dataclasses.replace(settings, stdlib_modules=names)


def probe_in(python: str, probe_contracts: list[Contract], settings: Settings) -> None:
    """Check the `--python` interpreter (relative to the working directory) once, and run the
    probe contracts in it (check and audit alike)."""
    if not probe_contracts:
        return
    from layering.adapters.probe_runner import InterpreterUnusable, find_interpreter

    try:
        interpreter = find_interpreter(python, os.getcwd())
    except InterpreterUnusable as unusable:
        raise UsageError(
            "--python",
            f"'{python}' {unusable}: name the bin/python of the environment the project's "
            "dependencies are installed in",
        ) from None
    for contract in probe_contracts:
        contract.run_in(interpreter)


def _run_probes(contracts, probe_contracts, evidence, jobs, progress) -> dict[int, ContractResult]:
    from layering.adapters.probe_runner import run_probes

    requests = sorted(
        {request for contract in probe_contracts for request in contract.requests(evidence)}
    )
    outcomes = dict(zip(requests, run_probes(requests, jobs=jobs, progress=progress)))
    results = {}
    for position, contract in enumerate(contracts):
        if contract.runs_code:
            results[position] = contract.judge(evidence, outcomes)
    return results
