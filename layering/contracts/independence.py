"""`independence`, import-linter's own contract type, run over the shared graph."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from layering.contracts._importlinter import ImportLinterContract
from layering.domain.results import Violation

if TYPE_CHECKING:
    from layering.engine.evidence import Evidence


class IndependenceContract(ImportLinterContract):
    """Independence: the modules import none of each other.

    Options and verdicts are import-linter's (`importlinter.contracts.independence.IndependenceContract`), with
    the same names as in its TOML configuration, so a team can paste its contracts in.

    Example:
        [[contracts]]
        name = "Endpoint packages are independent"
        type = "independence"
        modules = ["myapp.api.orders", "myapp.api.users"]
    """

    type_name = "independence"
    importlinter_class = "importlinter.contracts.independence.IndependenceContract"
    modules_option = "modules"
    violation_code = "LY012"

    def missing_modules(self, graph: Any) -> list[str]:
        return sorted(e.expression for e in self.delegate.modules if not e.has_wildcard_expression() and e.expression not in graph.modules)

    def findings(self, evidence: "Evidence", graph: Any, check: Any) -> list[Violation]:
        """Per pair import-linter found broken, the cut between the two, the other modules of
        the contract left out (as grimp searches)."""
        from importlinter.domain.helpers import module_expressions_to_modules

        modules = {m.name for m in module_expressions_to_modules(graph, self.delegate.modules)}
        pairs = sorted({(d["downstream_module"], d["upstream_module"]) for d in check.metadata["invalid_chains"]})
        return self.cut_findings(evidence, graph, [(a, b, modules - {a, b}) for a, b in pairs], check)
