"""A contract type of the user's own, registered with import-linter's `contract_types`."""

from __future__ import annotations

import importlib
import os
import sys
from typing import TYPE_CHECKING, Any

from layering.contracts._importlinter import (
    ContractTypeUnavailable,
    ImportLinterContract,
)
from layering.domain.codes import PLUGIN_CONTRACT_BROKEN

if TYPE_CHECKING:
    from layering.engine.config import PluginType


class PluginContract(ImportLinterContract):
    """An import-linter `Contract` subclass named in `contract_types = ["name: module.Class"]`,
    run through import-linter's machinery like import-linter's own types.

    Its module is imported from the configuration's directory and the source roots, as
    `lint-imports` imports it from the working directory: this runs that module's code (see
    SECURITY.md).

    Example (INI):
        [importlinter]
        root_package = myapp
        contract_types =
            forbidden_io: myapp_contracts.ForbiddenIOContract
    """

    violation_code = PLUGIN_CONTRACT_BROKEN
    plugin: PluginType
    options_read_before_count = False  # the plugin's module may have changed since

    def _class(self) -> Any:
        from importlinter.domain.contract import Contract as ImportLinterBase

        saved = list(sys.path)
        sys.path[:0] = [self.settings.base_dir, os.getcwd(), *self.settings.source_roots]
        module_name, _, class_name = self.plugin.class_path.rpartition(".")
        try:
            klass = getattr(importlib.import_module(module_name), class_name)
        except Exception as error:  # noqa: BLE001 - importing the user's module may raise anything
            raise ContractTypeUnavailable(
                f"contract type '{self.type_name}' ({self.plugin.class_path}, "
                f"{self.settings.place(self.plugin.line)}) "
                f"cannot be loaded: {type(error).__name__}: {error}"
            ) from None
        finally:
            sys.path[:] = saved
        if not (isinstance(klass, type) and issubclass(klass, ImportLinterBase)):
            raise ContractTypeUnavailable(
                f"contract type '{self.type_name}': {self.plugin.class_path} "
                f"({self.settings.place(self.plugin.line)}) "
                "is not a subclass of importlinter.domain.contract.Contract"
            )
        return klass


def plugin_contract_class(plugin: PluginType) -> type[PluginContract]:
    """The contract class for one registered plugin type."""
    return type(
        f"PluginContract_{plugin.name}",
        (PluginContract,),
        {"type_name": plugin.name, "plugin": plugin},
    )
