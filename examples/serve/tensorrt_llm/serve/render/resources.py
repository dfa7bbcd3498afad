"""Import-only model of tensorrt_llm/serve/render/resources.py: its import statements, plus placeholders for the names the model imports from it."""
from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from typing import Any, Optional

from tensorrt_llm.logger import logger
from tensorrt_llm.serve.serving_extensions import ServingExtension, get_serving_extension

from .fingerprint import compute_fingerprint


# Placeholders for the names the model imports from this module.
def harmony_enabled_for(*args, **kwargs):
    """Placeholder."""


class RenderResources:
    def from_server(self, *args, **kwargs):
        from tensorrt_llm.serve.chat_utils import resolve_top_level_model_type

    def load(self, *args, **kwargs):
        from transformers import AutoProcessor
        from tensorrt_llm._torch.pyexecutor.config_utils import load_pretrained_config
        from tensorrt_llm.inputs.registry import create_input_processor
        from tensorrt_llm.llmapi.llm_utils import ModelLoader
        from tensorrt_llm.serve.chat_utils import load_chat_template, resolve_top_level_model_type
        from tensorrt_llm.tokenizer import load_custom_tokenizer
