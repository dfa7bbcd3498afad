"""Import-only model of tensorrt_llm/serve/generator_proxy.py: its import statements, plus placeholders for the names the model imports from it."""
from __future__ import annotations

import asyncio
from collections import deque
from types import SimpleNamespace
from typing import Any, AsyncIterator, Optional

from tensorrt_llm.inputs import create_input_processor
from tensorrt_llm.llmapi.llm import BaseLLM
from tensorrt_llm.llmapi.llm_utils import ModelLoader
from tensorrt_llm.serve.encode_batcher import EncodeBatcher
from tensorrt_llm.serve.generator_ipc import GeneratorIpcClient
from tensorrt_llm.serve.responses_utils import ConversationHistoryStore
from tensorrt_llm.serve.visual_gen_utils import AsyncDictStore


# Placeholders for the names the model imports from this module.
class GeneratorService:
    """Placeholder."""


def _generator_kind(*args, **kwargs):
    from tensorrt_llm import MultimodalEncoder
    from tensorrt_llm.visual_gen import VisualGen


class GeneratorProxy:
    def _load_input_processor(self, *args, **kwargs):
        if True:
            from importlib import import_module
            from tensorrt_llm.llmapi.llm_args import TOKENIZER_ALIASES
