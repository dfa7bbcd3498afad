"""Import-only model of tensorrt_llm/serve/openai_client.py: its import statements, plus placeholders for the names the model imports from it.

Refactor edits to the recorded imports:
- responses_utils import -> `_base.service_types` (ResponseHooks, UCompletionResponseOrGenerator) and `from tensorrt_llm._utils import get_steady_clock_now_in_seconds`
"""

import asyncio
import json
import os
import traceback
from abc import ABC, abstractmethod
from typing import (
    Any,
    AsyncGenerator,
    Awaitable,
    Callable,
    List,
    Optional,
    Protocol,
    Tuple,
    Type,
    TypeVar,
)

import aiohttp
import msgspec
from pydantic import BaseModel

from tensorrt_llm._utils import AdjustedSteadyClock
from tensorrt_llm._utils import get_steady_clock_now_in_seconds
from tensorrt_llm.llmapi.disagg_utils import ServerRole
from tensorrt_llm.logger import logger
from tensorrt_llm.serve.disagg_auth import (
    build_internal_disagg_auth_headers,
    build_subagent_affinity_headers,
    request_requires_internal_disagg_auth,
)
from tensorrt_llm.serve.openai_protocol import (
    ChatCompletionRequest,
    ChatCompletionResponse,
    CompletionRequest,
    CompletionResponse,
    UCompletionRequest,
    UCompletionResponse,
)
from tensorrt_llm.serve.perf_metrics import (
    _PERF_METRICS_HEADER_BUDGET_BYTES,
    RETURN_METRICS_HEADER,
    SSE_METRICS_EVENT,
    ClientMetricsCollector,
    adjusted_clock_from_headers,
    build_metrics_record_from_headers,
)
from tensorrt_llm.serve._base.service_types import (
    ResponseHooks,
    UCompletionResponseOrGenerator,
)
from tensorrt_llm.serve.router import Router


# Placeholders for the names the model imports from this module.
class OpenAIClient:
    """Placeholder."""


class OpenAIHttpClient:
    """Placeholder."""
