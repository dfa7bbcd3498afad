"""Import-only model of tensorrt_llm/serve/postprocess_handlers.py: its import statements, plus placeholders for the names the model imports from it."""

import time
from dataclasses import dataclass, field
from typing import Any, List, Literal, Optional, Tuple, Union

from tensorrt_llm.serve.responses_utils import ResponsesStreamingProcessor
from tensorrt_llm.serve.responses_utils import (
    create_response_non_store as responses_api_create_response_non_store,
)

from .._utils import nvtx_range_debug
from ..executor import (
    DetokenizedGenerationResultBase,
    GenerationResult,
    GenerationResultBase,
)
from ..executor.postproc_worker import PostprocArgs
from ..executor.result import Logprob, TokenLogprobs
from ..llmapi import SamplingParams
from ..llmapi.disagg_utils import (
    get_usage_tokens_from_ctx,
    rewrite_usage_info_from_ctx,
    rewrite_usage_response_from_ctx,
)
from ..llmapi.reasoning_parser import (
    BaseReasoningParser,
    ReasoningParserFactory,
    ReasoningParserResult,
)
from ..llmapi.tokenizer import TransformersTokenizer

from .chat_utils import make_tool_call_id
from .harmony_adapter import (
    handle_non_streaming_response,
    handle_streaming_response,
)
from .openai_protocol import (
    ChatCompletionLogProbs,
    ChatCompletionLogProbsContent,
    ChatCompletionNamedToolChoiceParam,
    ChatCompletionRequest,
    ChatCompletionResponse,
    ChatCompletionResponseChoice,
    ChatCompletionResponseStreamChoice,
    ChatCompletionStreamResponse,
    ChatCompletionToolsParam,
    ChatMessage,
    CompletionLogProbs,
    CompletionRequest,
    CompletionResponse,
    CompletionResponseChoice,
    CompletionResponseStreamChoice,
    CompletionStreamResponse,
    DeltaFunctionCall,
    DeltaMessage,
    DeltaToolCall,
    FunctionCall,
    PromptTokensDetails,
    ResponsesRequest,
    ResponsesResponse,
    StreamOptions,
    ToolCall,
    UsageInfo,
    to_disaggregated_params,
)
from .tool_parser.base_tool_parser import BaseToolParser
from .tool_parser.core_types import ToolCallItem
from .tool_parser.tool_parser_factory import ToolParserFactory


# Placeholders for the names the model imports from this module.
class ChatCompletionPostprocArgs:
    """Placeholder."""


class ChatPostprocArgs:
    """Placeholder."""


class CompletionPostprocArgs:
    """Placeholder."""


class ResponsesAPIPostprocArgs:
    """Placeholder."""


def _ctx_usage_from_outputs(*args, **kwargs):
    """Placeholder."""


def chat_harmony_post_processor(*args, **kwargs):
    """Placeholder."""


def chat_harmony_streaming_post_processor(*args, **kwargs):
    """Placeholder."""


def chat_response_post_processor(*args, **kwargs):
    """Placeholder."""


def chat_stream_post_processor(*args, **kwargs):
    """Placeholder."""


def completion_response_post_processor(*args, **kwargs):
    """Placeholder."""


def completion_stream_post_processor(*args, **kwargs):
    """Placeholder."""


def responses_api_post_processor(*args, **kwargs):
    """Placeholder."""


def responses_api_streaming_post_processor(*args, **kwargs):
    """Placeholder."""
