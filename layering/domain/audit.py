"""The audit of a probe contract: where the runtime probe and the static load closure disagree.

For each probed module, both readings name the forbidden modules that importing it loads.
A module loaded at run time but not predicted from the source came in by a way the source
does not spell as an import statement (`importlib.import_module`, `__import__`, a module
`__getattr__`, a plugin): the first hop of the runtime chain that the source does not
predict is the statement that did it. A module predicted but not loaded sits behind a branch
not taken, or an import guarded at run time.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from layering.domain.loads import CONDITIONAL
from layering.domain.results import Hop


@dataclass(frozen=True, order=True)
class Difference:
    """One forbidden module that only one reading says `module` loads.

    `runtime_only`: loaded at run time, not predicted (else: predicted, not loaded).
    `where` is the statement to look at, `statement` its text when it could be read,
    `chain` the chain of the reading that saw the load.
    """

    module: str
    loaded: str
    runtime_only: bool
    where: Hop | None
    chain: tuple[Hop, ...]
    statement: str = ""

    @property
    def kind(self) -> str:
        return (
            "loaded at run time, not predicted"
            if self.runtime_only
            else "predicted, not loaded at run time"
        )


@dataclass(frozen=True)
class ModuleAudit:
    """Both readings of one probed module; `error` when the probe could not import it."""

    module: str
    runtime: tuple[str, ...] = ()
    static: tuple[str, ...] = ()
    differences: tuple[Difference, ...] = ()
    error: str = ""

    @property
    def agrees(self) -> bool:
        return not self.error and not self.differences


@dataclass(frozen=True)
class ContractAudit:
    """One probe contract, module by module."""

    contract_id: str
    name: str
    source_path: str
    source_line: int
    modules: tuple[ModuleAudit, ...]

    def count(self, runtime_only: bool) -> int:
        return sum(
            1 for m in self.modules for d in m.differences if d.runtime_only is runtime_only
        )

    @property
    def errors(self) -> int:
        return sum(1 for m in self.modules if m.error)

    @property
    def agreeing(self) -> int:
        return sum(1 for m in self.modules if m.agrees)

    @property
    def conclusion(self) -> str:
        """What the audit says about checking this rule with a `loads` contract alone."""
        if self.errors:
            return "undecided"
        if self.count(runtime_only=True):
            return "needs the probe"
        if self.count(runtime_only=False):
            return "loads is stricter"
        return "loads is enough"


@dataclass(frozen=True)
class AuditReport:
    config_path: str
    contracts: tuple[ContractAudit, ...]
    warnings: tuple[str, ...] = ()

    @property
    def exit_code(self) -> int:
        """0 when both readings agree everywhere, 1 when they do not, 2 when a probe failed."""
        if any(c.errors for c in self.contracts):
            return 2
        return 0 if all(m.agrees for c in self.contracts for m in c.modules) else 1


def compare(
    module: str,
    runtime: Mapping[str, tuple[Hop, ...]],
    static: Mapping[str, tuple[Hop, ...]],
    executed: Collection[str],
    statement: Callable[[Hop], str],
) -> ModuleAudit:
    """Both readings of `module`: forbidden module -> its chain, at run time and from the
    source; `executed` is every module the source says the import executes."""
    differences = []
    for loaded in sorted(set(runtime) - set(static)):
        chain = runtime[loaded]
        where = next(
            (hop for hop in chain if hop.imported not in executed), chain[-1] if chain else None
        )
        differences.append(
            Difference(module, loaded, True, where, chain, statement(where) if where else "")
        )
    for loaded in sorted(set(static) - set(runtime)):
        chain = static[loaded]
        where = next(
            (hop for hop in chain if CONDITIONAL in hop.qualifiers), chain[0] if chain else None
        )
        differences.append(
            Difference(module, loaded, False, where, chain, statement(where) if where else "")
        )
    return ModuleAudit(module, tuple(sorted(runtime)), tuple(sorted(static)), tuple(differences))
