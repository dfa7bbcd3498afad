"""Import-only model of tensorrt_llm/serve/harmony_adapter.py: its import statements, plus placeholders for the names the model imports from it."""

import json
import re
import time
import traceback
import uuid
from typing import Any, List, Literal, Tuple

from openai_harmony import (
    Author,
    Conversation,
    DeveloperContent,
    HarmonyEncodingName,
    HarmonyError,
    Message,
    ReasoningEffort,
    Role,
    StreamableParser,
    SystemContent,
    TextContent,
    ToolDescription,
    load_harmony_encoding,
)

from tensorrt_llm.executor import GenerationResult
from tensorrt_llm.logger import logger

from .openai_protocol import (
    ChatCompletionMessageParam,
    ChatCompletionResponse,
    ChatCompletionResponseChoice,
    ChatCompletionResponseStreamChoice,
    ChatCompletionStreamResponse,
    ChatCompletionToolsParam,
    ChatMessage,
    DeltaFunctionCall,
    DeltaMessage,
    DeltaToolCall,
    UsageInfo,
    to_disaggregated_params,
)


# Placeholders for the names the model imports from this module.
class HarmonyAdapter:
    """Placeholder."""


def get_harmony_adapter(*args, **kwargs):
    """Placeholder."""


def handle_non_streaming_response(*args, **kwargs):
    """Placeholder."""


def handle_streaming_response(*args, **kwargs):
    """Placeholder."""


def maybe_transform_reasoning_effort(*args, **kwargs):
    """Placeholder."""
