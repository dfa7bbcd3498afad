"""Import-only model of tensorrt_llm/serve/chat_utils.py: its import statements, plus placeholders for the names the model imports from it."""

import json
import uuid
from functools import lru_cache, partial
from pathlib import Path
from typing import (
    Any,
    Callable,
    Coroutine,
    Dict,
    Iterable,
    List,
    Literal,
    Optional,
    Tuple,
    TypeAlias,
    TypedDict,
    Union,
    cast,
)

from openai.types.chat import (
    ChatCompletionContentPartImageParam,
    ChatCompletionContentPartInputAudioParam,
)
from openai.types.chat import (
    ChatCompletionContentPartParam as OpenAIChatCompletionContentPartParam,
)
from openai.types.chat import (
    ChatCompletionContentPartTextParam,
    ChatCompletionMessageParam,
)
from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError
from transformers import AutoConfig
from typing_extensions import Required

from tensorrt_llm.inputs import (
    ContentFormat,
    ConversationMessage,
    MultimodalData,
    MultimodalDataTracker,
    add_multimodal_placeholders,
    load_base64_image_embeds,
)
from tensorrt_llm.inputs.media_io import MEDIA_IO_REGISTRY, BaseMediaIO
from tensorrt_llm.inputs.multimodal import MultimodalServerConfig
from tensorrt_llm.inputs.registry import MULTIMODAL_PLACEHOLDER_REGISTRY
from tensorrt_llm.inputs.utils import interleave_mm_placeholders
from tensorrt_llm.logger import logger


# Placeholders for the names the model imports from this module.
def load_chat_template(*args, **kwargs):
    """Placeholder."""


def make_tool_call_id(*args, **kwargs):
    """Placeholder."""


def parse_chat_messages_coroutines(*args, **kwargs):
    """Placeholder."""


def resolve_top_level_model_type(*args, **kwargs):
    """Placeholder."""
