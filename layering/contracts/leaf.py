"""`leaf`: a module imports nothing from the named packages except what its allowances name."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from layering.contracts._common import (
    Contract,
    Decision,
    Findings,
    OptionError,
    option,
    statement_violations,
)
from layering.contracts._names import (
    name_findings,
    redundant_targets,
    require_target_modules,
    split_modules_and_names,
    stale_target_notes,
)
from layering.domain.codes import LEAF_IMPORT
from layering.domain.name_targets import NameTarget
from layering.domain.patterns import ModulePattern, index_patterns
from layering.domain.results import Violation

if TYPE_CHECKING:
    from layering.adapters.grimp_graph import ImportGraph
    from layering.engine.evidence import Evidence


class LeafContract(Contract):
    """Each of `modules` imports nothing that lies in `within`, except what `allow` names.

    Options:
        modules: the leaf modules (patterns: `*` one segment, `**` any depth).
        within:  packages the leaf may not import from (the project's own, or external ones),
                 and { module = "...", names = [...] } tables: names it may not take from a
                 module it may otherwise import (by import, or used on the module imported
                 whole: `mod.name`, getattr, a patch; names take `*`).
        allow:   allowances: `"module"` (that module and names from it) or
                 `{ module = "...", names = [...] }` (only those names). `importer` may be
                 given when several modules are leaves. Each must match an import: they only
                 shrink.

    Example:
        [[contracts]]
        name = "responses_stream is a leaf"
        type = "leaf"
        modules = ["tensorrt_llm.serve._base.responses_stream"]
        within = ["tensorrt_llm.serve", "tensorrt_llm.executor"]
        allow = [
          "tensorrt_llm.serve.openai_protocol",
          { module = "tensorrt_llm.executor.utils", names = ["RequestError", "EngineDeadError"] },
        ]

    Every import counts: module level, in functions, under TYPE_CHECKING (unless the run
    excludes those), lazy.
    """

    type_name = "leaf"
    baseline_option = "allow"
    allowance_needs_importer = False
    options = {
        "modules": option("patterns_or_classes", "the leaf modules", required=True),
        "within": option(
            "raw", "the packages it may not import from, or names of a module", required=True
        ),
        "unchecked": option(
            "patterns", "modules that are hops, never the importer of a finding", default=()
        ),
        "allow": option("raw", "the imports it may still make", default=[]),
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.within: tuple[ModulePattern, ...] = ()
        self.name_targets: tuple[NameTarget, ...] = ()
        if "within" in self.spec.options:
            try:
                self.within, self.name_targets = split_modules_and_names(
                    self.spec.options["within"], self.settings.module_classes
                )
            except OptionError as error:
                self.problem("within", f"contract '{self.name}', option 'within': {error}")
            redundant_targets(self, "within", self.within, self.name_targets, as_packages=True)

    def validate(self, evidence: Evidence) -> None:
        self.require_matches(evidence, "modules", self.values["modules"])
        self.require_matches(evidence, "unchecked", self.values["unchecked"])
        self.require_matches(evidence, "within", self.within, external_ok=True)
        require_target_modules(self, evidence, "within", self.name_targets)

    def warnings(self, evidence: Evidence, decision: Decision | None) -> list[str]:
        return super().warnings(evidence, decision) + stale_target_notes(
            self, evidence, "within", self.name_targets
        )

    def find(
        self, evidence: Evidence, found: Findings, graph: ImportGraph | None
    ) -> list[Violation]:
        leaves = evidence.expand_all(self.values["modules"])
        within = index_patterns(self.within)
        taken = []
        for leaf in leaves:
            for fact in evidence.facts_of(leaf):
                if fact.module == "__future__":
                    continue  # a compiler directive, not an import of anything
                if not within.covering(fact.imported) and not within.covering(fact.dotted):
                    continue
                if self.skips(fact, found, evidence):
                    continue
                taken.append(fact)
        violations = statement_violations(taken, LEAF_IMPORT)
        if self.name_targets:
            violations.extend(
                name_findings(
                    evidence,
                    leaves,
                    self.name_targets,
                    LEAF_IMPORT,
                    lambda fact: self.skips(fact, found, evidence),
                )
            )
        return violations
