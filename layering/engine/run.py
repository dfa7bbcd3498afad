"""One run: read the configuration, build the contracts, gather evidence, decide each contract."""

from __future__ import annotations

import enum
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from layering.adapters.source_facts import SourceUnreadable
from layering.contracts import CONTRACT_TYPES, contract_class
from layering.contracts._common import ContractInvalid
from layering.domain.allowances import Allowance
from layering.domain.errors import ConfigError, Problem, did_you_mean
from layering.domain.results import ContractResult, RunReport, Violation
from layering.engine.config import Settings, find_config, load_settings
from layering.engine.evidence import Evidence

if TYPE_CHECKING:
    from layering.contracts._common import Contract

UNREADABLE_SOURCE = "LY040"
INVALID_CONTRACT = "LY041"


class ProbeSelection(str, enum.Enum):
    """Which contracts a run checks: all, the static ones only, or the probes only."""

    ALL = "all"
    STATIC = "static"
    PROBES = "probes"


def locate_settings(config: str | None = None, start: str = ".") -> Settings:
    """The settings of the named configuration, or of the one found from `start` upwards."""
    if config is not None:
        if not os.path.exists(config):
            raise ConfigError(Problem(os.path.abspath(config), 0, "the configuration file does not exist"))
        return load_settings(config)
    path, notes = find_config(start)
    return load_settings(path, notes)


def build_contracts(settings: Settings) -> list["Contract"]:
    """One contract object per [[contracts]] table; every option problem raised at once."""
    problems: list[Problem] = []
    contracts: list[Contract] = []
    seen_ids: dict[str, int] = {}
    for spec in settings.contracts:
        type_name = spec.options.get("type")
        if type_name not in CONTRACT_TYPES:
            shown = repr(type_name) if type_name is not None else "missing"
            problems.append(
                Problem(
                    settings.path,
                    spec.line_of("type"),
                    f"contract #{spec.index + 1}: type {shown} is not a contract type."
                    + (did_you_mean(type_name, CONTRACT_TYPES) if isinstance(type_name, str) else ""),
                    hint="known types: " + ", ".join(sorted(CONTRACT_TYPES)),
                )
            )
            continue
        contract = contract_class(type_name)(spec, settings)
        problems.extend(contract.problems)
        if contract.contract_id:
            if contract.contract_id in seen_ids:
                problems.append(
                    Problem(
                        settings.path,
                        spec.line_of("id"),
                        f"duplicate contract id '{contract.contract_id}' (first used on line {seen_ids[contract.contract_id]})",
                        hint="give each contract its own id",
                    )
                )
            else:
                seen_ids[contract.contract_id] = spec.line_of("id")
        contracts.append(contract)
    if problems:
        raise ConfigError(problems)
    return contracts


def select(contracts: list["Contract"], ids: Sequence[str], probes: ProbeSelection, settings: Settings) -> list["Contract"]:
    if ids:
        known = {c.key for c in contracts} | {c.name for c in contracts}
        unknown = [i for i in ids if i not in known]
        if unknown:
            raise ConfigError(
                Problem(
                    settings.path,
                    0,
                    f"--contract {unknown[0]!r} names no contract.{did_you_mean(unknown[0], known)}",
                    hint="ids: " + ", ".join(sorted(c.key for c in contracts)),
                )
            )
        contracts = [c for c in contracts if c.key in ids or c.name in ids]
    if probes is ProbeSelection.STATIC:
        contracts = [c for c in contracts if c.type_name != "probe"]
    elif probes is ProbeSelection.PROBES:
        contracts = [c for c in contracts if c.type_name == "probe"]
    return contracts


def check_settings(
    settings: Settings,
    contract_ids: Sequence[str] = (),
    probes: ProbeSelection = ProbeSelection.ALL,
    use_cache: bool = True,
    jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> RunReport:
    """Decide the selected contracts of `settings`."""
    contracts = select(build_contracts(settings), contract_ids, probes, settings)
    evidence = Evidence(settings, use_cache=use_cache)
    for contract in contracts:
        contract.validate(evidence)
    problems = [p for c in contracts for p in c.problems]
    if problems:
        raise ConfigError(problems)

    results: dict[int, ContractResult] = {}
    probe_contracts = [c for c in contracts if c.type_name == "probe"]
    for position, contract in enumerate(contracts):
        if contract.type_name != "probe":
            results[position] = _decide(contract, evidence)
    if probe_contracts:
        results.update(_run_probes(contracts, probe_contracts, evidence, jobs, progress))
    return RunReport(
        config_path=settings.path,
        results=tuple(results[i] for i in range(len(contracts))),
        warnings=settings.notes + tuple(w for c in contracts for w in c.warnings(evidence)),
    )


def _decide(contract: "Contract", evidence: Evidence) -> ContractResult:
    used: set[Allowance] = set()
    try:
        violations = contract.evaluate(evidence, used)
    except ContractInvalid as invalid:
        reason = str(invalid).rstrip(".")
        return contract.error(
            (Violation(path=evidence.settings.display_path(evidence.settings.path), line=contract.spec.line, code=INVALID_CONTRACT, message=f"{reason}: fix the contract"),),
        )
    except SourceUnreadable as unreadable:
        path = evidence.settings.display_path(unreadable.path)
        return contract.error(
            (Violation(path=path, line=unreadable.line, code=UNREADABLE_SOURCE, message=f"{unreadable.reason}; fix the file to decide this contract"),),
        )
    return contract.result(violations, used, contract.notes())


def _run_probes(contracts, probe_contracts, evidence, jobs, progress) -> dict[int, ContractResult]:
    from layering.adapters.probe_runner import run_probes

    requests = {}
    for contract in probe_contracts:
        for request in contract.requests(evidence):
            requests.setdefault((request.module, request.forbidden, request.stubs, request.timeout), request)
    ordered = sorted(requests)
    outcomes = run_probes([requests[k] for k in ordered], jobs=jobs, progress=progress)
    by_key = dict(zip(ordered, outcomes))
    results = {}
    for position, contract in enumerate(contracts):
        if contract.type_name != "probe":
            continue
        mine = {
            request.module: by_key[(request.module, request.forbidden, request.stubs, request.timeout)]
            for request in contract.requests(evidence)
        }
        results[position] = contract.judge(evidence, mine)
    return results
