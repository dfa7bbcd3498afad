"""Import-only model of tensorrt_llm/serve/openai_server.py: its import statements, plus placeholders for the names the model imports from it.

Refactor edits to the recorded imports:
- responses_utils: added rejected_responses_stream to the first import (the other responses_utils imports are unchanged, get_steady_clock_now_in_seconds included); added `_base.msgspec_route` (_MsgspecRoute, moved out of this module), `_base.responses_stream` (ClosingStreamingResponse, guard_responses_stream, keep_responses_stream_alive), `_base.routing` (attach_routers) and `api.ops.system.serving` (SystemServing)
"""

import asyncio
import base64
import os
import re
import signal
import socket
import time
import traceback
import uuid
from collections import deque
from contextlib import asynccontextmanager
from datetime import datetime
from http import HTTPStatus
from pathlib import Path
from typing import (
    Annotated,
    Any,
    AsyncGenerator,
    AsyncIterator,
    List,
    Optional,
    Union,
)

import uvicorn
from fastapi import Body, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import (
    FileResponse,
    JSONResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount
from transformers import AutoProcessor

from tensorrt_llm._tensorrt_engine import LLM
from tensorrt_llm._torch.async_llm import AsyncLLM

from tensorrt_llm.executor import CppExecutorError
from tensorrt_llm.executor.postproc_worker import PostprocParams
from tensorrt_llm.inputs import prompt_inputs
from tensorrt_llm.inputs.data import TokensPrompt, visual_gen_inputs
from tensorrt_llm.inputs.multimodal import MultimodalServerConfig
from tensorrt_llm.inputs.utils import ConversationMessage, apply_chat_template
from tensorrt_llm.llmapi import DisaggregatedParams as LlmDisaggregatedParams
from tensorrt_llm.llmapi import (
    MultimodalEncoder,
    SchedulingParams,
    VisualGen,
    VisualGenParams,
    tracing,
)
from tensorrt_llm.llmapi.disagg_utils import (
    DisaggClusterConfig,
    MetadataServerConfig,
    ServerRole,
)
from tensorrt_llm.llmapi.llm import RequestOutput
from tensorrt_llm.logger import logger
from tensorrt_llm.metrics.collector import MetricsCollector
from tensorrt_llm.serve._base.msgspec_route import _MsgspecRoute
from tensorrt_llm.serve._base.responses_stream import (
    ClosingStreamingResponse,
    guard_responses_stream,
    keep_responses_stream_alive,
)
from tensorrt_llm.serve._base.routing import attach_routers
from tensorrt_llm.serve.api.ops.system.serving import SystemServing
from tensorrt_llm.serve.chat_utils import (
    load_chat_template,
    parse_chat_messages_coroutines,
)
from tensorrt_llm.serve.cluster_storage import create_cluster_storage_client
from tensorrt_llm.serve.disagg_auto_scaling import DisaggClusterWorker
from tensorrt_llm.serve.media_storage import MediaStorage, resolve_video_format
from tensorrt_llm.serve.metadata_server import create_metadata_server
from tensorrt_llm.serve.openai_protocol import (
    ChatCompletionRequest,
    ChatCompletionResponse,
    ChatCompletionResponseChoice,
    ChatMessage,
    CompletionRequest,
    CompletionResponse,
    CompletionResponseChoice,
    ErrorResponse,
    ImageEditRequest,
    ImageGenerationRequest,
    ImageGenerationResponse,
    ImageObject,
    KVCacheHintRequest,
    MemoryUpdateRequest,
    ModelCard,
    ModelList,
    PromptTokensDetails,
    ResponsesRequest,
    ResponsesResponse,
    UpdateWeightsRequest,
    UsageInfo,
    VideoGenerationRequest,
    VideoJob,
    VideoJobList,
    to_llm_disaggregated_params,
)
from tensorrt_llm.serve.postprocess_handlers import (
    ChatCompletionPostprocArgs,
    ChatPostprocArgs,
    CompletionPostprocArgs,
    ResponsesAPIPostprocArgs,
    chat_harmony_post_processor,
    chat_harmony_streaming_post_processor,
    chat_response_post_processor,
    chat_stream_post_processor,
    completion_response_post_processor,
    completion_stream_post_processor,
    responses_api_post_processor,
    responses_api_streaming_post_processor,
)
from tensorrt_llm.serve.responses_utils import (
    ConversationHistoryStore,
    ResponsesStreamingProcessor,
    ServerArrivalTimeMiddleware,
    rejected_responses_stream,
)
from tensorrt_llm.serve.responses_utils import (
    create_response as responses_api_create_response,
)
from tensorrt_llm.serve.responses_utils import get_steady_clock_now_in_seconds
from tensorrt_llm.serve.responses_utils import (
    request_preprocess as responses_api_request_preprocess,
)
from tensorrt_llm.serve.visual_gen_utils import (
    VIDEO_STORE,
    parse_visual_gen_params,
)
from tensorrt_llm.version import __version__ as VERSION

from .._utils import nvtx_mark, set_prometheus_multiproc_dir
from .harmony_adapter import (
    HarmonyAdapter,
    get_harmony_adapter,
    maybe_transform_reasoning_effort,
)


class OpenAIServer:
    def _init_llm(self, *args, **kwargs):
        try:
            from tensorrt_llm._torch.pyexecutor.config_utils import (
                load_pretrained_config,
            )
        except Exception:  # handler not recorded
            pass

    def mount_metrics(self, *args, **kwargs):
        from prometheus_client import (
            CollectorRegistry,
            make_asgi_app,
            multiprocess,
        )
        from prometheus_fastapi_instrumentator import Instrumentator

    def set_kv_cache_hints(self, *args, **kwargs):
        from openai.types.chat import ChatCompletionMessageParam

    def set_kv_cache_hints_harmony(self, *args, **kwargs):
        from openai.types.chat import ChatCompletionMessageParam
