"""Import-only model of tensorrt_llm/serve/render/serving.py: its import statements, plus placeholders for the names the model imports from it."""
from __future__ import annotations

import asyncio
import copy
import os
from typing import Any, Callable, Dict, List, Optional

from .chat import arender_chat, tokenize_rendered
from .prompt_types import GenerateRequest, UnsupportedRenderError
from .resources import RenderResources


# Placeholders for the names the model imports from this module.
class RenderRequestError(Exception):
    """Placeholder."""


class ServingRender:
    def render_chat(self, *args, **kwargs):
        from pydantic import ValidationError
        from tensorrt_llm.serve.openai_protocol import ChatCompletionRequest

    def render_completion(self, *args, **kwargs):
        from pydantic import ValidationError
        from tensorrt_llm.serve.openai_protocol import CompletionRequest
