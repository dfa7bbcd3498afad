"""The contract types, one module each; the registry maps a config `type` to its class.

Classes are imported when a configuration uses them, so a run pays only for its own types
(import-linter's types pull in import-linter; `probe` pulls in the probe runner).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from layering.contracts._common import Contract
    from layering.engine.config import PluginType

CONTRACT_TYPES: dict[str, str] = {
    "forbidden": "layering.contracts.forbidden:ForbiddenContract",
    "leaf": "layering.contracts.leaf:LeafContract",
    "contained": "layering.contracts.contained:ContainedContract",
    "interface": "layering.contracts.interface:InterfaceContract",
    "external": "layering.contracts.external:ExternalContract",
    "probe": "layering.contracts.probe:ProbeContract",
    "loads": "layering.contracts.loads:LoadsContract",
    "layers": "layering.contracts.layers:LayersContract",
    "independence": "layering.contracts.independence:IndependenceContract",
    "acyclic_siblings": "layering.contracts.acyclic_siblings:AcyclicSiblingsContract",
    "protected": "layering.contracts.protected:ProtectedContract",
    "private_modules": "layering.contracts.private_modules:PrivateModulesContract",
    "defining_module": "layering.contracts.defining_module:DefiningModuleContract",
}


def contract_class(type_name: str) -> type[Contract]:
    """The class behind a config `type`; KeyError for an unknown one."""
    module_name, _, class_name = CONTRACT_TYPES[type_name].partition(":")
    contract_type: type[Contract] = getattr(importlib.import_module(module_name), class_name)
    return contract_type


def plugin_contract_class(plugin: PluginType) -> type[Contract]:
    """The class that runs a contract type of the user's own (`contract_types`)."""
    from layering.contracts.plugin import plugin_contract_class as make

    return make(plugin)
