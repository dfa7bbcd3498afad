"""`layers`, import-linter's own contract type, run over the shared graph."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from layering.contracts._common import Findings
from layering.contracts._importlinter import ImportLinterContract, entries
from layering.domain.codes import LAYERS_IMPORT, UNDECLARED_LAYER
from layering.domain.errors import Problem
from layering.domain.results import Violation
from layering.engine.reach import ChainPair

if TYPE_CHECKING:
    from importlinter.domain.contract import ContractCheck

    from layering.adapters.grimp_graph import ImportGraph
    from layering.engine.evidence import Evidence


def layer_modules(layer: str) -> list[tuple[str, bool]]:
    """(module, optional) of each module of one layer as import-linter writes it: modules
    separated by `|` (independent) or `:` (not independent), `(name)` for an optional one."""
    separator = "|" if "|" in layer else ":"
    modules = []
    for part in layer.split(separator):
        part = part.strip()
        optional = part.startswith("(") and part.endswith(")")
        modules.append((part[1:-1].strip() if optional else part, optional))
    return modules


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
    takes_known_chains = True
    importlinter_class = "importlinter.contracts.layers.LayersContract"
    violation_code = LAYERS_IMPORT

    def check_can_fail(self, options: dict[str, Any]) -> None:
        layers = entries(options.get("layers"))
        modules = [m for _, layer in layers for m in layer_modules(layer)]
        exhaustive = str(options.get("exhaustive", "false")).lower() == "true"
        if not layers:
            self.refused_in_own_format(
                Problem(
                    self.settings.path,
                    self.spec.line_of("layers"),
                    f"contract '{self.name}': 'layers' lists no layers: a contract that cannot "
                    "fail",
                    hint='list the layers, highest first, e.g. layers = ["myapp.api", '
                    '"myapp.domain"]',
                )
            )
        elif len(modules) < 2 and not exhaustive:
            self.refused_in_own_format(
                Problem(
                    self.settings.path,
                    self.spec.line_of("layers"),
                    f"contract '{self.name}': one layer of one module cannot be broken",
                    hint="list at least two layers (or two modules in a layer)",
                )
            )

    def validate(self, evidence: Evidence) -> None:
        """Every layer that is not optional exists: in each container, or as written."""
        containers: list[str] = []
        for index, text in entries(self.spec.options.get("containers")):
            containers += self.require_entry_matches(evidence, "containers", index, text)
        if entries(self.spec.options.get("containers")) and not containers:
            return
        for index, layer in entries(self.spec.options.get("layers")):
            for module, optional in layer_modules(layer):
                if optional:
                    continue
                if not containers:
                    self.require_entry_matches(evidence, "layers", index, module)
                for container in containers:
                    self.require_entry_matches(
                        evidence,
                        "layers",
                        index,
                        f"{container}.{module}",
                        f" (layer '{module}' in container '{container}')",
                    )

    def chain_pairs(self, evidence: Evidence, graph: ImportGraph) -> list[ChainPair] | None:
        """In each container, each layer module against each layer module above it (and each
        sibling in an independent layer); the chains of a pair pass through no other layer (as
        grimp searches them)."""
        if self.delegate is None:
            return None
        pairs = []
        for names in self._layer_names(graph):
            every = [m for layer in names for m, _ in layer]
            for position, layer in enumerate(names):
                above = [m for higher in names[:position] for m, _ in higher]
                for module, independent in layer:
                    siblings = [m for m, _ in layer if m != module] if independent else []
                    for target in above + siblings:
                        others = tuple(m for m in every if m not in (module, target))
                        pairs.append(ChainPair((module,), (target,), excluded=others))
        return pairs

    def _layer_names(self, graph: ImportGraph) -> list[list[list[tuple[str, bool]]]]:
        """Per container (one list without containers), each layer's modules in the graph,
        highest layer first, each with whether its layer is independent."""
        from importlinter.domain.helpers import module_expressions_to_modules

        prefixes = [""]
        if self.delegate.containers:
            prefixes = sorted(
                m.name + "."
                for m in module_expressions_to_modules(graph, self.delegate.containers)
            )
        return [
            [
                [
                    (prefix + t.name, getattr(layer, "is_independent", True))
                    for t in sorted(layer.module_tails, key=lambda t: t.name)
                    if prefix + t.name in graph.modules
                ]
                for layer in self.delegate.layers
            ]
            for prefix in prefixes
        ]

    def findings(
        self, evidence: Evidence, found: Findings, graph: ImportGraph, check: ContractCheck
    ) -> list[Violation]:
        """Per pair of layers import-linter found broken (lower imports higher), the cut between
        them with the other layers of that container left out, as grimp searches; then every
        module an exhaustive contract does not list."""
        layer_sets = self._layer_sets(graph)
        pairs = []
        for lower, higher in sorted(
            {(d["importer"], d["imported"]) for d in check.metadata["invalid_dependencies"]}
        ):
            layers = next((s for s in layer_sets if lower in s and higher in s), {lower, higher})
            pairs.append((lower, higher, layers - {lower, higher}))
        violations = self.cut_findings(evidence, found, graph, pairs, check)
        config = evidence.settings.display_path(evidence.settings.path)
        violations.extend(
            Violation(
                path=config,
                line=self.spec.line_of("layers"),
                code=UNDECLARED_LAYER,
                message=f"{module} is not listed as a layer (the contract is exhaustive): list "
                "it, or add it to exhaustive_ignores",
                importer=module,
            )
            for module in sorted(check.metadata.get("undeclared_modules") or ())
        )
        return violations

    def _layer_sets(self, graph: ImportGraph) -> list[set[str]]:
        """The layer modules of each container (one set without containers), as in the graph."""
        from importlinter.domain.helpers import module_expressions_to_modules

        tails = [tail.name for layer in self.delegate.layers for tail in layer.module_tails]
        if not self.delegate.containers:
            return [{t for t in tails if t in graph.modules}]
        containers = sorted(
            m.name for m in module_expressions_to_modules(graph, self.delegate.containers)
        )
        return [{f"{c}.{t}" for t in tails if f"{c}.{t}" in graph.modules} for c in containers]
