"""Import-only model of tensorrt_llm/serve/serving_extensions.py: its import statements, plus placeholders for the names the model imports from it."""

import enum
import importlib
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional

if TYPE_CHECKING:
    from tensorrt_llm.serve.openai_protocol import ChatCompletionRequest


# Placeholders for the names the model imports from this module.
class ServingExtension:
    """Placeholder."""


def get_serving_extension(*args, **kwargs):
    """Placeholder."""


def register_serving_extension(*args, **kwargs):
    """Placeholder."""


def structured_output_format_for(*args, **kwargs):
    """Placeholder."""
