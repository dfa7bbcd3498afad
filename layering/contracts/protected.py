"""`protected`, import-linter's own contract type, run over the shared graph."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from layering.contracts._importlinter import ImportLinterContract
from layering.domain.results import Violation

if TYPE_CHECKING:
    from layering.engine.evidence import Evidence


class ProtectedContract(ImportLinterContract):
    """Protected: only allowed importers import the protected modules.

    Options and verdicts are import-linter's (`importlinter.contracts.protected.ProtectedContract`), with
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
    violation_code = "LY014"

    def findings(self, evidence: "Evidence", graph: Any, check: Any) -> list[Violation]:
        """Each import of a protected module by a module not allowed to, statement by statement."""
        links = [(link["importer"], link["imported"]) for found in check.metadata["illegal_imports"] for link in found.illegal_links]
        return self.link_findings(evidence, links)
