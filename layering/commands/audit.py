"""`layering audit`: each probe contract decided both ways, by its probe and by the static load
closure of the same modules, and where the two disagree.

A team reads it to decide whether a rule needs the probe (which runs the code) or whether a
`loads` contract (which only reads it) sees the same.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from layering.adapters.source_facts import SourceLines, read_source
from layering.commands.check import load_contracts, probe_in
from layering.domain.audit import AuditReport, ContractAudit, ModuleAudit, compare
from layering.domain.errors import ConfigError, Problem, SourceUnreadable
from layering.domain.loads import PARENT_PACKAGE
from layering.domain.probes import (
    LoadedBefore,
    ProbeOutcome,
    ProbeOutcomeKind,
    ProbeRequest,
    RuntimeHop,
)
from layering.domain.results import Hop
from layering.engine.config import Settings, with_interpreter_path
from layering.engine.evidence import Evidence
from layering.engine.loads import LoadReader

if TYPE_CHECKING:
    from layering.contracts._common import Contract


def audit(
    settings: Settings,
    contract_ids: Sequence[str] = (),
    jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    python: str | None = None,
) -> AuditReport:
    """Probe each selected probe contract's modules and read their load closures; compare.
    `python` (`--python`) is the probes' interpreter, as for `check`."""
    from layering.adapters.probe_runner import run_probes

    if python is not None:
        settings = with_interpreter_path(settings, python)
    evidence = Evidence(settings)
    selected, _ = load_contracts(settings, evidence, contract_ids)
    contracts = [c for c in selected if c.runs_code]
    if python is not None:
        probe_in(python, contracts, settings)
    if not contracts:
        named = f" among {', '.join(repr(i) for i in contract_ids)}" if contract_ids else ""
        raise ConfigError(
            Problem(
                settings.path,
                0,
                f"no probe contract to audit{named}",
                hint="the audit compares probe contracts with the source",
            )
        )

    probed = {contract.key: _probed_requests(contract, evidence) for contract in contracts}
    requests = sorted({request for mine in probed.values() for request in mine})
    outcomes = dict(zip(requests, run_probes(requests, jobs=jobs, progress=progress)))

    reading = _Reading(settings, evidence)
    audits = [
        ContractAudit(
            contract.key,
            contract.name,
            settings.path,
            contract.spec.line,
            tuple(
                reading.audit_module(contract, outcomes[request])
                for request in probed[contract.key]
            ),
        )
        for contract in contracts
    ]
    return AuditReport(settings.path, tuple(audits), settings.notes + tuple(reading.warnings))


def _probed_requests(contract: Contract, evidence: Evidence) -> list[ProbeRequest]:
    """The contract's requests for its probed modules (its positive controls are not compared)."""
    probed = set(contract.probed_modules(evidence))
    return [
        request
        for request in contract.requests(evidence)
        if request.module in probed and not request.fallbacks
    ]


class _Reading:
    """The static side of the audit, and the statements the report quotes."""

    def __init__(self, settings: Settings, evidence: Evidence) -> None:
        self.settings = settings
        self.evidence = evidence
        self.reader = LoadReader.of(evidence)
        self._outside: list[str] = []
        self._loaded_before: dict[tuple[str, str, str], list[str]] = {}
        self._lines: dict[str, SourceLines] = {}

    @property
    def warnings(self) -> list[str]:
        """What the comparison leaves out: modules whose source is not read, and forbidden
        modules loaded before the probed import (which the probe never counts)."""
        before = [
            f"contract '{name}': {loaded} loaded before the probe imported {', '.join(modules)} "
            f"({how}): not compared there"
            for (name, loaded, how), modules in self._loaded_before.items()
        ]
        return self._outside + before

    def audit_module(self, contract: Contract, outcome: ProbeOutcome) -> ModuleAudit:
        module = outcome.module
        if outcome.kind not in (ProbeOutcomeKind.CLEAN, ProbeOutcomeKind.LOADED):
            detail = outcome.detail.strip().splitlines()
            return ModuleAudit(
                module,
                error=f"importing {module} {outcome.kind.value.replace('_', ' ')}"
                + (f": {detail[-1]}" if detail else ""),
            )
        if outcome.module_before is not None:
            return ModuleAudit(
                module,
                error=f"{module} was loaded before the probe imported it "
                f"({_loaded_by(outcome.module_before)}): the probe saw nothing",
            )
        if not self.evidence.is_internal(module):
            self._outside.append(
                f"contract '{contract.name}': {module} is outside the root packages; its source "
                "is not read, "
                "so whatever it loads counts as not predicted"
            )
        try:
            closure = self.reader.closure(module)
        except SourceUnreadable as unreadable:
            where = self.settings.display_path(unreadable.path)
            return ModuleAudit(module, error=f"{where}:{unreadable.line}: {unreadable.reason}")
        before = {loaded.module for loaded in outcome.forbidden_before}
        if before:
            how = "; ".join(sorted({_loaded_by(b) for b in outcome.forbidden_before}))
            self._loaded_before.setdefault(
                (contract.name, ", ".join(sorted(before)), how), []
            ).append(module)
        static = {
            loaded: tuple(step.hop() for step in closure.chain(loaded))
            for loaded in closure.covered(contract.values["forbidden"])
            if loaded not in before
        }
        runtime = {
            loaded.module: tuple(self._hop(hop) for hop in loaded.chain)
            for loaded in outcome.loaded
        }
        return compare(module, runtime, static, closure.loaders, self.statement)

    def _hop(self, hop: RuntimeHop) -> Hop:
        path = self.settings.display_path(hop.path) if hop.path else ""
        return Hop(
            hop.importer or "<probe>",
            hop.imported,
            path,
            hop.line,
            (),
            (PARENT_PACKAGE,) if hop.via_parent else (),
        )

    def statement(self, hop: Hop) -> str:
        """The text of the line `hop` names, stripped; "" when it cannot be read."""
        if not hop.path or hop.line < 1:
            return ""
        path = (
            hop.path if os.path.isabs(hop.path) else os.path.join(self.settings.base_dir, hop.path)
        )
        if path not in self._lines:
            try:
                self._lines[path] = SourceLines(read_source(path))
            except SourceUnreadable:
                self._lines[path] = SourceLines("")
        lines = self._lines[path]
        return lines[hop.line - 1].strip() if hop.line <= len(lines) else ""


def _loaded_by(before: LoadedBefore) -> str:
    return f"by setup {before.setup}" if before.setup else "at interpreter start"
