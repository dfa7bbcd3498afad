"""`independence`, import-linter's own contract type, run over the shared graph."""

from __future__ import annotations

from typing import TYPE_CHECKING

from layering.contracts._common import Findings
from layering.contracts._importlinter import (
    ImportLinterContract,
    entries,
    is_internal_expression,
)
from layering.domain.codes import INDEPENDENCE_IMPORT
from layering.domain.errors import Problem
from layering.domain.results import Violation
from layering.engine.reach import ChainPair

if TYPE_CHECKING:
    from importlinter.domain.contract import ContractCheck

    from layering.adapters.grimp_graph import ImportGraph
    from layering.engine.evidence import Evidence


class IndependenceContract(ImportLinterContract):
    """Independence: the modules import none of each other.

    Options and verdicts are import-linter's
    (`importlinter.contracts.independence.IndependenceContract`), with
    the same names as in its TOML configuration, so a team can paste its contracts in.

    Example:
        [[contracts]]
        name = "Endpoint packages are independent"
        type = "independence"
        modules = ["myapp.api.orders", "myapp.api.users"]
    """

    type_name = "independence"
    takes_known_chains = True
    importlinter_class = "importlinter.contracts.independence.IndependenceContract"
    violation_code = INDEPENDENCE_IMPORT

    def validate(self, evidence: Evidence) -> None:
        """Each expression matches a module, and together at least two: one cannot import
        another."""
        listed = entries(self.spec.options.get("modules"))
        matched: set[str] = set()
        before = len(self.problems)
        for index, text in listed:
            matched.update(self.require_entry_matches(evidence, "modules", index, text))
        if (
            len(self.problems) == before
            and len(matched) == 1
            and all(is_internal_expression(evidence, text) for _, text in listed)
        ):
            self.refused_in_own_format(
                Problem(
                    self.settings.path,
                    self.spec.line_of("modules"),
                    f"contract '{self.name}': 'modules' names one module ({min(matched)}): a "
                    "contract that cannot fail",
                    hint="list at least two modules that must not import each other",
                )
            )

    def chain_pairs(self, evidence: Evidence, graph: ImportGraph) -> list[ChainPair] | None:
        """Each module against each other one, the rest left out (as grimp searches)."""
        if self.delegate is None:
            return None
        from importlinter.domain.helpers import module_expressions_to_modules

        modules = sorted(
            {m.name for m in module_expressions_to_modules(graph, self.delegate.modules)}
        )
        return [
            ChainPair((m,), (o,), excluded=tuple(x for x in modules if x not in (m, o)))
            for m in modules
            for o in modules
            if o != m
        ]

    def findings(
        self, evidence: Evidence, found: Findings, graph: ImportGraph, check: ContractCheck
    ) -> list[Violation]:
        """Per pair import-linter found broken, the cut between the two, the other modules of
        the contract left out (as grimp searches)."""
        from importlinter.domain.helpers import module_expressions_to_modules

        modules = {m.name for m in module_expressions_to_modules(graph, self.delegate.modules)}
        pairs = sorted(
            {
                (d["downstream_module"], d["upstream_module"])
                for d in check.metadata["invalid_chains"]
            }
        )
        return self.cut_findings(
            evidence, found, graph, [(a, b, modules - {a, b}) for a, b in pairs], check
        )
