"""Import-only model of tensorrt_llm/serve/openai_disagg_server.py: its import statements, plus placeholders for the names the model imports from it.

Refactor edits to the recorded imports:
- responses_utils import: (ServerArrivalTimeMiddleware, get_steady_clock_now_in_seconds) -> (ResponsesStreamingProcessor, ServerArrivalTimeMiddleware, rejected_responses_stream); clock from `tensorrt_llm._utils`; ResponseHooks from `_base.service_types` instead of openai_disagg_service; added `_base.responses_stream` (ClosingStreamingResponse, guard_responses_stream, keep_responses_stream_alive, relay_after_opening, stream_error_event) and `tensorrt_llm.executor.utils` (CONTEXT_LENGTH_EXCEEDED_CODE, is_context_length_exceeded_message)
"""

import asyncio
import signal
import socket
import traceback
from contextlib import asynccontextmanager
from typing import Callable, Optional

import aiohttp
import uvicorn
from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response, StreamingResponse

from tensorrt_llm._utils import get_steady_clock_now_in_seconds
from tensorrt_llm.executor import CppExecutorError
from tensorrt_llm.executor.executor import CppExecutorError
from tensorrt_llm.executor.utils import (
    CONTEXT_LENGTH_EXCEEDED_CODE,
    is_context_length_exceeded_message,
)
from tensorrt_llm.llmapi import tracing
from tensorrt_llm.llmapi.disagg_utils import (
    DisaggServerConfig,
    MetadataServerConfig,
    ServerRole,
)
from tensorrt_llm.logger import logger
from tensorrt_llm.serve._base.responses_stream import (
    ClosingStreamingResponse,
    guard_responses_stream,
    keep_responses_stream_alive,
    relay_after_opening,
    stream_error_event,
)
from tensorrt_llm.serve._base.service_types import ResponseHooks
from tensorrt_llm.serve.cluster_storage import (
    HttpClusterStorageServer,
    create_cluster_storage,
    validate_http_cluster_storage_scope,
)
from tensorrt_llm.serve.conversation_id import resolve_request_conversation_id
from tensorrt_llm.serve.disagg_coordinator import (
    CoordinatorClient,
    DisaggCoordinatorService,
)
from tensorrt_llm.serve.openai_client import OpenAIClient, OpenAIHttpClient
from tensorrt_llm.serve.openai_disagg_service import OpenAIDisaggregatedService
from tensorrt_llm.serve.openai_protocol import (
    ChatCompletionRequest,
    CompletionRequest,
    UCompletionRequest,
    UCompletionResponse,
    ensure_request_chat_template_allowed,
)
from tensorrt_llm.serve.perf_metrics import DisaggPerfMetricsCollector
from tensorrt_llm.serve.responses_utils import (
    ResponsesStreamingProcessor,
    ServerArrivalTimeMiddleware,
    rejected_responses_stream,
)
from tensorrt_llm.serve.router import Router
from tensorrt_llm.version import __version__ as VERSION


class OpenAIDisaggServer:
    def register_routes(self, *args, **kwargs):
        from prometheus_client import (
            CollectorRegistry,
            make_asgi_app,
            multiprocess,
        )
