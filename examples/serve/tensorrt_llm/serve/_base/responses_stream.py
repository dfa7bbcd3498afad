"""Import-only model of tensorrt_llm/serve/_base/responses_stream.py (added by the refactor): the Responses stream lifecycle (29 definitions moved verbatim out of responses_utils.py)."""

import asyncio
import json
import os
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any, Callable, Optional

import anyio
import pydantic_core
from fastapi.responses import StreamingResponse
from openai.types.responses import (
    ResponseCreatedEvent,
    ResponseErrorEvent,
    ResponseFailedEvent,
    ResponseInProgressEvent,
)

from tensorrt_llm.executor.utils import (
    CONTEXT_LENGTH_EXCEEDED_CODE,
    EngineDeadError,
    RequestError,
    is_context_length_exceeded_message,
)
from tensorrt_llm.logger import logger
from tensorrt_llm.serve.openai_protocol import (
    ResponsesRequest,
    ResponsesResponse,
    StreamingResponsesResponse,
)


# Placeholders for the names the model imports from this module.
class ClosingStreamingResponse:
    """Placeholder."""


STREAM_TERMINATION_CONTEXT_LENGTH_EXCEEDED = 'STREAM_TERMINATION_CONTEXT_LENGTH_EXCEEDED'  # placeholder


def _format_sse_event(*args, **kwargs):
    """Placeholder."""


def _response_failed_frame(*args, **kwargs):
    """Placeholder."""


def _stream_terminal_event(*args, **kwargs):
    """Placeholder."""


def guard_responses_stream(*args, **kwargs):
    """Placeholder."""


def keep_responses_stream_alive(*args, **kwargs):
    """Placeholder."""


def relay_after_opening(*args, **kwargs):
    """Placeholder."""


def responses_done_generator(*args, **kwargs):
    """Placeholder."""


def stream_error_event(*args, **kwargs):
    """Placeholder."""
