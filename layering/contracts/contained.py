"""`contained`: each matched package imports nothing of an enclosing package outside itself."""

from __future__ import annotations

from typing import TYPE_CHECKING

from layering.contracts._common import Contract, Findings, option, statement_violations
from layering.domain.codes import CONTAINED_IMPORT
from layering.domain.patterns import is_within
from layering.domain.results import Violation

if TYPE_CHECKING:
    from layering.adapters.grimp_graph import ImportGraph
    from layering.engine.evidence import Evidence


class ContainedContract(Contract):
    """Every package matched by `packages` imports nothing of `within` that lies outside itself.

    Each import is read as `<module>.<name>`: inside an endpoint package,
    `from tensorrt_llm.serve import api` is a violation (it names `tensorrt_llm.serve.api`),
    while `from tensorrt_llm.serve.api.ops import system` inside `ops/system` is not.

    Options:
        packages: a pattern naming the contained packages, e.g. "pkg.api.*.*".
        within:   the enclosing package, e.g. "pkg.api".
        allow:    allowances (`"importer -> module"` or tables with `importer`, `module`,
                  `names`); `importer` may be left out to excuse any contained package.

    Example:
        [[contracts]]
        name = "endpoint packages are independent"
        type = "contained"
        packages = "tensorrt_llm.serve.api.*.*"
        within = "tensorrt_llm.serve.api"
    """

    type_name = "contained"
    baseline_option = "allow"
    allowance_needs_importer = False
    options = {
        "packages": option("pattern", "the contained packages", required=True),
        "within": option("pattern", "the enclosing package", required=True),
        "unchecked": option(
            "patterns", "modules that are hops, never the importer of a finding", default=()
        ),
        "allow": option("raw", "imports excused", default=[]),
    }

    def validate(self, evidence: Evidence) -> None:
        if "packages" in self.values and "within" in self.values:
            self.require_matches(evidence, "packages", (self.values["packages"],))
            self.require_matches(evidence, "within", (self.values["within"],))
        self.require_matches(evidence, "unchecked", self.values["unchecked"])

    def find(
        self, evidence: Evidence, found: Findings, graph: ImportGraph | None
    ) -> list[Violation]:
        within = evidence.expand(self.values["within"])
        violations = []
        for package in evidence.expand(self.values["packages"]):
            outside = []
            for module in [package, *evidence.descendants(package)]:
                for fact in evidence.facts_of(module):
                    target = fact.dotted
                    if not any(is_within(target, w) for w in within) or is_within(target, package):
                        continue
                    if self.skips(fact, found, evidence):
                        continue
                    outside.append(fact)
            violations.extend(
                statement_violations(
                    outside, CONTAINED_IMPORT, lambda _: f", outside its package {package}"
                )
            )
        return violations
