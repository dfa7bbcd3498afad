"""`private_modules`, import-linter's own contract type, run over the shared graph."""

from __future__ import annotations

from typing import TYPE_CHECKING

from layering.contracts._common import Findings
from layering.contracts._importlinter import ImportLinterContract
from layering.domain.codes import PRIVATE_MODULE_IMPORT
from layering.domain.results import Violation

if TYPE_CHECKING:
    from importlinter.domain.contract import ContractCheck

    from layering.adapters.grimp_graph import ImportGraph
    from layering.engine.evidence import Evidence


class PrivateModulesContract(ImportLinterContract):
    """Private modules: a module whose name starts with `_` is imported only from inside its
    parent package.

    Options and verdicts are import-linter's
    (`importlinter.contracts.private_modules.PrivateModulesContract`,
    import-linter 2.17 and later), with the same names as in its TOML configuration.

    Example:
        [[contracts]]
        name = "Private modules stay private"
        type = "private_modules"
        packages_with_private_modules = ["myapp"]   # optional: default, every root package
    """

    type_name = "private_modules"
    importlinter_class = "importlinter.contracts.private_modules.PrivateModulesContract"
    violation_code = PRIVATE_MODULE_IMPORT
    module_options = ("packages_with_private_modules",)

    def findings(
        self, evidence: Evidence, found: Findings, graph: ImportGraph, check: ContractCheck
    ) -> list[Violation]:
        """Each import of a private module from outside its parent package, statement by
        statement."""
        return self.link_findings(
            evidence,
            found,
            [(link["importer"], link["imported"]) for link in check.metadata["illegal_imports"]],
        )
