"""`leaf`: a module imports nothing from the named packages except what its allowances name."""

from __future__ import annotations

from typing import TYPE_CHECKING

from layering.contracts._common import Contract, option, statement_violations
from layering.domain.allowances import Allowance
from layering.domain.results import Violation

if TYPE_CHECKING:
    from layering.engine.evidence import Evidence

LEAF_IMPORT = "LY003"


class LeafContract(Contract):
    """Each of `modules` imports nothing that lies in `within`, except what `allow` names.

    Options:
        modules: the leaf modules (patterns: `*` one segment, `**` any depth).
        within:  packages the leaf may not import from (the project's own, or external ones).
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
    allowance_needs_importer = False
    options = {
        "modules": option("patterns", "the leaf modules", required=True),
        "within": option("patterns", "the packages it may not import from", required=True),
        "allow": option("raw", "the imports it may still make", default=[]),
    }

    def validate(self, evidence: "Evidence") -> None:
        self.require_matches(evidence, "modules", self.values["modules"])
        self.require_matches(evidence, "within", self.values["within"], external_ok=True)

    def evaluate(self, evidence: "Evidence", used: set[Allowance]) -> list[Violation]:
        leaves = sorted({m for p in self.values["modules"] for m in evidence.expand(p)})
        within = self.values["within"]
        found = []
        for leaf in leaves:
            for fact in evidence.facts_of(leaf):
                if fact.module == "__future__":
                    continue  # a compiler directive, not an import of anything
                if not any(p.covers(fact.imported) or p.covers(fact.dotted) for p in within):
                    continue
                if self.excused(fact, used):
                    continue
                found.append(fact)
        return statement_violations(found, LEAF_IMPORT)
