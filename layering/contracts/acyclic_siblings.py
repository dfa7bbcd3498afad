"""`acyclic_siblings`, import-linter's own contract type, run over the shared graph."""

from __future__ import annotations

from layering.contracts._importlinter import ImportLinterContract


class AcyclicSiblingsContract(ImportLinterContract):
    """Acyclic siblings: no cycles between the children of a package.

    Options and verdicts are import-linter's (`importlinter.contracts.acyclic_siblings.AcyclicSiblingsContract`), with
    the same names as in its TOML configuration, so a team can paste its contracts in.

    Example:
        [[contracts]]
        name = "No cycles between the subpackages of myapp"
        type = "acyclic_siblings"
        ancestors = ["myapp"]
    """

    type_name = "acyclic_siblings"
    importlinter_class = "importlinter.contracts.acyclic_siblings.AcyclicSiblingsContract"
    violation_code = "LY013"
