"""`independence`, import-linter's own contract type, run over the shared graph."""

from __future__ import annotations

from layering.contracts._importlinter import ImportLinterContract


class IndependenceContract(ImportLinterContract):
    """Independence: the modules import none of each other.

    Options and verdicts are import-linter's (`importlinter.contracts.independence.IndependenceContract`), with
    the same names as in its TOML configuration, so a team can paste its contracts in.

    Example:
        [[contracts]]
        name = "Endpoint packages are independent"
        type = "independence"
        modules = ["myapp.api.orders", "myapp.api.users"]
    """

    type_name = "independence"
    importlinter_class = "importlinter.contracts.independence.IndependenceContract"
    violation_code = "LY012"
