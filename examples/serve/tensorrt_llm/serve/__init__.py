"""Import-only model of tensorrt_llm/serve/__init__.py: its import statements, plus placeholders for the names the model imports from it.

Refactor edits to the recorded imports:
- modelled on the newer, lazy (PEP 562) stored version: the servers are only under `if TYPE_CHECKING:` and loaded by `__getattr__` (the recorded version, commit 06255cb, runs `from .openai_server import OpenAIServer` eagerly)
"""

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .openai_disagg_server import OpenAIDisaggServer
    from .openai_server import OpenAIServer

__all__ = ['OpenAIServer', 'OpenAIDisaggServer']

# Public name -> defining module; loaded on first attribute access (PEP 562).
_LAZY_ATTRS = {
    'OpenAIServer': 'tensorrt_llm.serve.openai_server',
    'OpenAIDisaggServer': 'tensorrt_llm.serve.openai_disagg_server',
}


def __getattr__(name):
    module_name = _LAZY_ATTRS.get(name)
    if module_name is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module_name), name)
    globals()[name] = value
    return value
