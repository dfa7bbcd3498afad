"""Import-only model of tensorrt_llm/serve/anthropic_protocol.py: its import statements, plus placeholders for the names the model imports from it."""

import time
import uuid
from typing import Annotated, Any, Dict, List, Literal, Optional, Union, get_args

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag


# Placeholders for the names the model imports from this module.
class AnthropicBatchRequestCounts:
    """Placeholder."""


class AnthropicBatchRequestItem:
    """Placeholder."""


class AnthropicContentBlockDeltaEvent:
    """Placeholder."""


class AnthropicContentBlockStartEvent:
    """Placeholder."""


class AnthropicContentBlockStopEvent:
    """Placeholder."""


class AnthropicCountTokensRequest:
    """Placeholder."""


class AnthropicError(Exception):
    """Placeholder."""


class AnthropicErrorEvent:
    """Placeholder."""


class AnthropicErrorResponse:
    """Placeholder."""


class AnthropicErrorType:
    """Placeholder."""


class AnthropicInputJsonDelta:
    """Placeholder."""


class AnthropicMessageBatch:
    """Placeholder."""


class AnthropicMessageDelta:
    """Placeholder."""


class AnthropicMessageDeltaEvent:
    """Placeholder."""


class AnthropicMessageStartEvent:
    """Placeholder."""


class AnthropicMessageStopEvent:
    """Placeholder."""


class AnthropicMessagesRequest:
    """Placeholder."""


class AnthropicMessagesResponse:
    """Placeholder."""


class AnthropicStopReason:
    """Placeholder."""


class AnthropicTextBlock:
    """Placeholder."""


class AnthropicTextDelta:
    """Placeholder."""


class AnthropicThinkingBlock:
    """Placeholder."""


class AnthropicThinkingDelta:
    """Placeholder."""


class AnthropicToolUseBlock:
    """Placeholder."""


class AnthropicUsage:
    """Placeholder."""


def anthropic_sse(*args, **kwargs):
    """Placeholder."""
