"""Import-only model of tensorrt_llm/serve/render/chat.py: its import statements, plus placeholders for the names the model imports from it."""
from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional

from pydantic import ValidationError

from tensorrt_llm.inputs.tokenization import tokenize_prompt
from tensorrt_llm.inputs.utils import apply_chat_template, async_apply_chat_template
from tensorrt_llm.sampling_params import SamplingParams
from tensorrt_llm.serve.chat_utils import parse_chat_messages_coroutines

from .prompt_types import RenderedPrompt, UnsupportedRenderError
from .resources import RenderResources

if TYPE_CHECKING:
    from tensorrt_llm.serve.openai_protocol import ChatCompletionRequest


# Placeholders for the names the model imports from this module.
class PreparedChat:
    """Placeholder."""


def arender_chat(*args, **kwargs):
    """Placeholder."""


def legacy_render_enabled(*args, **kwargs):
    """Placeholder."""


def render_chat(*args, **kwargs):
    """Placeholder."""


def render_conversation(*args, **kwargs):
    """Placeholder."""


def prepare_chat_request(*args, **kwargs):
    from tensorrt_llm.serve.openai_protocol import ensure_request_chat_template_allowed


def tokenize_rendered(*args, **kwargs):
    from tensorrt_llm.inputs.registry import DefaultInputProcessor


def _is_passthrough_model(*args, **kwargs):
    from tensorrt_llm.inputs.content_format import ContentFormat
    from tensorrt_llm.inputs.registry import MULTIMODAL_PLACEHOLDER_REGISTRY


def preparation_context(*args, **kwargs):
    if True:
        from tensorrt_llm.llmapi.reasoning_parser import ReasoningParserFactory
