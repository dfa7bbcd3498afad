"""`protected`, import-linter's own contract type, run over the shared graph."""

from __future__ import annotations

from layering.contracts._importlinter import ImportLinterContract


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
