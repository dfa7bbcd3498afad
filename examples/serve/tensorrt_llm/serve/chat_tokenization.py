"""Import-only model of tensorrt_llm/serve/chat_tokenization.py: its import statements, plus placeholders for the names the model imports from it."""
from __future__ import annotations

import bisect
import os
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Callable, Hashable, Optional, Protocol, TypedDict, cast

from transformers import PretrainedConfig

from tensorrt_llm.logger import logger
from tensorrt_llm.serve.openai_protocol import ChatCompletionRequest

if TYPE_CHECKING:
    from tensorrt_llm.serve.harmony_adapter import HarmonyAdapter


# Placeholders for the names the model imports from this module.
def resolve_model_type_from_config(*args, **kwargs):
    """Placeholder."""


def tokenize_chat_request_for_serving(*args, **kwargs):
    """Placeholder."""


def uses_harmony_tokenization(*args, **kwargs):
    """Placeholder."""


def tokenize_harmony_chat_request(*args, **kwargs):
    from tensorrt_llm.serve import harmony_adapter as harmony_adapter_module
