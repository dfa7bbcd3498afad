"""`layers`, import-linter's own contract type, run over the shared graph."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from layering.contracts._importlinter import ImportLinterContract
from layering.domain.results import Violation

if TYPE_CHECKING:
    from layering.engine.evidence import Evidence

UNDECLARED_LAYER = "LY015"


class LayersContract(ImportLinterContract):
    """Layers: higher layers may import lower ones, never the reverse.

    Options and verdicts are import-linter's (`importlinter.contracts.layers.LayersContract`), with
    the same names as in its TOML configuration, so a team can paste its contracts in.

    Example:
        [[contracts]]
        name = "Layers"
        type = "layers"
        layers = ["myapp.api", "myapp.domain | myapp.services", "myapp.infra"]
        containers = []            # optional: apply the layers inside each container
        ignore_imports = []        # optional: "importer -> imported" expressions
    """

    type_name = "layers"
    importlinter_class = "importlinter.contracts.layers.LayersContract"
    modules_option = "layers"
    violation_code = "LY011"

    def findings(self, evidence: "Evidence", graph: Any, check: Any) -> list[Violation]:
        """Per pair of layers import-linter found broken (lower imports higher), the cut between
        them with the other layers of that container left out, as grimp searches; then every
        module an exhaustive contract does not list."""
        layer_sets = self._layer_sets(graph)
        pairs = []
        for lower, higher in sorted({(d["importer"], d["imported"]) for d in check.metadata["invalid_dependencies"]}):
            layers = next((s for s in layer_sets if lower in s and higher in s), {lower, higher})
            pairs.append((lower, higher, layers - {lower, higher}))
        violations = self.cut_findings(evidence, graph, pairs, check)
        config = evidence.settings.display_path(evidence.settings.path)
        violations.extend(
            Violation(
                path=config,
                line=self.spec.line_of("layers"),
                code=UNDECLARED_LAYER,
                message=f"{module} is not listed as a layer (the contract is exhaustive): list it, or add it to exhaustive_ignores",
                importer=module,
            )
            for module in sorted(check.metadata.get("undeclared_modules") or ())
        )
        return violations

    def missing_modules(self, graph: Any) -> list[str]:
        from importlinter.domain.helpers import module_expressions_to_modules

        required = [tail.name for layer in self.delegate.layers for tail in layer.module_tails if not tail.is_optional]
        if not self.delegate.containers:
            return sorted(t for t in required if t not in graph.modules)
        containers = sorted(m.name for m in module_expressions_to_modules(graph, self.delegate.containers))
        return sorted(f"{c}.{t}" for c in containers if c in graph.modules for t in required if f"{c}.{t}" not in graph.modules)

    def _layer_sets(self, graph: Any) -> list[set[str]]:
        """The layer modules of each container (one set without containers), as in the graph."""
        from importlinter.domain.helpers import module_expressions_to_modules

        tails = [tail.name for layer in self.delegate.layers for tail in layer.module_tails]
        if not self.delegate.containers:
            return [{t for t in tails if t in graph.modules}]
        containers = sorted(m.name for m in module_expressions_to_modules(graph, self.delegate.containers))
        return [{f"{c}.{t}" for t in tails if f"{c}.{t}" in graph.modules} for c in containers]
