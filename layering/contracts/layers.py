"""`layers`, import-linter's own contract type, run over the shared graph."""

from __future__ import annotations

from layering.contracts._importlinter import ImportLinterContract


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
    importlinter_class = "importlinter.contracts.layers.LayersContract"
    violation_code = "LY011"
