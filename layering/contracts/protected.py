"""`protected`, import-linter's own contract type, run over the shared graph."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from layering.contracts._common import Findings
from layering.contracts._importlinter import (
    ImportLinterContract,
    entries,
    is_internal_expression,
)
from layering.domain.codes import PROTECTED_IMPORT
from layering.domain.errors import Problem
from layering.domain.results import Violation

if TYPE_CHECKING:
    from importlinter.domain.contract import ContractCheck

    from layering.adapters.grimp_graph import ImportGraph
    from layering.engine.evidence import Evidence


class ProtectedContract(ImportLinterContract):
    """Protected: only allowed importers import the protected modules.

    Options and verdicts are import-linter's
    (`importlinter.contracts.protected.ProtectedContract`), with
    the same names as in its TOML configuration, so a team can paste its contracts in.

    Example:
        [[contracts]]
        name = "Only the repository layer touches the database models"
        type = "protected"
        protected_modules = ["myapp.db.models"]
        allowed_importers = ["myapp.repository"]
    """

    type_name = "protected"
    importlinter_class = "importlinter.contracts.protected.ProtectedContract"
    violation_code = PROTECTED_IMPORT
    module_options = ("protected_modules", "allowed_importers")

    def check_can_fail(self, options: dict[str, Any]) -> None:
        if not entries(options.get("protected_modules")):
            self.refused_in_own_format(
                Problem(
                    self.settings.path,
                    self.spec.line_of("protected_modules"),
                    f"contract '{self.name}': 'protected_modules' lists nothing to protect: a "
                    "contract that cannot fail",
                )
            )

    def _external_names(self, evidence: Evidence) -> list[str]:
        return [
            text.strip()
            for _, text in entries(self.spec.options.get("protected_modules"))
            if "*" not in text and not is_internal_expression(evidence, text)
        ]

    def needs_external_packages(self, evidence: Evidence) -> bool:
        """A protected external package is a node of the graph only when externals are in it."""
        return bool(self._external_names(evidence))

    def before_check(self, graph: ImportGraph, evidence: Evidence) -> None:
        """An external package that nothing imports is not in the graph: add it, with no
        importers (it is protected from everyone), rather than let grimp fail."""
        super().before_check(graph, evidence)
        for name in self._external_names(evidence):
            if name not in graph.modules:
                graph.add_module(name, is_squashed=True)

    def findings(
        self, evidence: Evidence, found: Findings, graph: ImportGraph, check: ContractCheck
    ) -> list[Violation]:
        """Each import of a protected module by a module not allowed to, statement by statement."""
        links = [
            (link["importer"], link["imported"])
            for illegal in check.metadata["illegal_imports"]
            for link in illegal.illegal_links
        ]
        return self.link_findings(evidence, found, links)
