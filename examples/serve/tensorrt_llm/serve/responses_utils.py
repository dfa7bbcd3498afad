"""Import-only model of tensorrt_llm/serve/responses_utils.py: its import statements, plus placeholders for the names the model imports from it.

Refactor edits to the recorded imports:
- dropped `from abc import ABC, abstractmethod` and UCompletionRequest/UCompletionResponse (went with ResponseHooks, done_generator, UCompletionResponseOrGenerator to _base/service_types.py)
- added `from tensorrt_llm.serve._base.responses_stream import (STREAM_TERMINATION_CONTEXT_LENGTH_EXCEEDED, _format_sse_event, _response_failed_frame, _stream_terminal_event)`
"""

import asyncio
import json
import os
import time
import uuid

from collections.abc import AsyncGenerator, Mapping
from copy import copy
from dataclasses import dataclass
from typing import (
    Any,
    Callable,
    List,
    Literal,
    Optional,
    OrderedDict,
    Tuple,
    Union,
)

from openai.types.responses import (
    ResponseCompletedEvent,
    ResponseContentPartAddedEvent,
    ResponseContentPartDoneEvent,
    ResponseCreatedEvent,
    ResponseCustomToolCall,
    ResponseErrorEvent,
    ResponseFailedEvent,
    ResponseFunctionToolCall,
    ResponseIncompleteEvent,
    ResponseInProgressEvent,
    ResponseOutputItem,
    ResponseOutputItemAddedEvent,
    ResponseOutputItemDoneEvent,
    ResponseOutputMessage,
    ResponseOutputText,
    ResponseReasoningItem,
    ResponseReasoningTextDeltaEvent,
    ResponseReasoningTextDoneEvent,
    ResponseTextDeltaEvent,
    ResponseTextDoneEvent,
)
from openai.types.responses.response import IncompleteDetails
from openai.types.responses.response_content_part_added_event import (
    PartReasoningText,
)
from openai.types.responses.response_content_part_done_event import (
    Part as ResponseContentPart,
)
from openai.types.responses.response_content_part_done_event import (
    PartReasoningText as PartReasoningTextDone,
)
from openai.types.responses.response_function_web_search import (
    ActionFind,
    ActionOpenPage,
    ActionSearch,
    ResponseFunctionWebSearch,
)
from openai.types.responses.response_reasoning_item import Content
from openai.types.responses.tool import FunctionTool, Tool
from openai_harmony import (
    Author,
    Conversation,
    DeveloperContent,
    HarmonyEncodingName,
    Message,
    ReasoningEffort,
    Role,
    StreamState,
    SystemContent,
    TextContent,
    ToolDescription,
    load_harmony_encoding,
)
from transformers import AutoProcessor, PretrainedConfig

from tensorrt_llm._utils import (
    get_steady_clock_now_in_seconds,
)
from tensorrt_llm._utils import AdjustedSteadyClock
from tensorrt_llm.executor import (
    EngineDeadError,
    GenerationResult,
    RequestError,
)
from tensorrt_llm.inputs.utils import (
    async_apply_chat_template,
    resolve_hf_chat_template,
)
from tensorrt_llm.llmapi import SamplingParams
from tensorrt_llm.llmapi.disagg_utils import get_usage_tokens_from_ctx
from tensorrt_llm.llmapi.llm import RequestOutput
from tensorrt_llm.llmapi.reasoning_parser import (
    BaseReasoningParser,
    ReasoningParserFactory,
    ReasoningParserResult,
)
from tensorrt_llm.llmapi.thinking_budget import (
    add_thinking_budget_logits_processor,
)
from tensorrt_llm.llmapi.tokenizer import TokenizerBase, TransformersTokenizer
from tensorrt_llm.logger import logger
from tensorrt_llm.serve._base.responses_stream import (
    STREAM_TERMINATION_CONTEXT_LENGTH_EXCEEDED,
    _format_sse_event,
    _response_failed_frame,
    _stream_terminal_event,
)
from tensorrt_llm.serve.chat_utils import (
    parse_chat_messages_coroutines,
    resolve_top_level_model_type,
)
from tensorrt_llm.serve.openai_protocol import (
    ChatCompletionMessageParam,
    ChatCompletionToolsParam,
    FunctionDefinition,
    InputTokensDetails,
    OpenAIBaseModel,
    OutputTokensDetails,
    ReasoningAssistantMessage,
    ResponseInputOutputItem,
    ResponsesRequest,
    ResponsesResponse,
    ResponseUsage,
    StreamingResponsesResponse,
    to_disaggregated_params,
)
from tensorrt_llm.serve.responses_web_search import is_web_search_tool
from tensorrt_llm.serve.tool_parser.base_tool_parser import (
    BaseToolParser,
    warn_if_tool_call_unparsed,
)
from tensorrt_llm.serve.tool_parser.core_types import ToolCallItem
from tensorrt_llm.serve.tool_parser.tool_parser_factory import ToolParserFactory
from tensorrt_llm.serve.web_search import load_web_search_config
from tensorrt_llm.tokenizer.deepseek_v4 import DeepseekV4Tokenizer
from tensorrt_llm.tokenizer.deepseek_v32 import DeepseekV32Tokenizer

from .harmony_adapter import HarmonyAdapter, get_harmony_adapter


# Placeholders for the names the model imports from this module.
class ConversationHistoryStore:
    """Placeholder."""


class ResponsesStreamingProcessor:
    """Placeholder."""


class ServerArrivalTimeMiddleware:
    """Placeholder."""


def _random_uuid(*args, **kwargs):
    """Placeholder."""


def create_response(*args, **kwargs):
    """Placeholder."""


def create_response_non_store(*args, **kwargs):
    """Placeholder."""


def rejected_responses_stream(*args, **kwargs):
    """Placeholder."""


def request_preprocess(*args, **kwargs):
    """Placeholder."""


def _create_usage(*args, **kwargs):
    from tensorrt_llm.serve.postprocess_handlers import _ctx_usage_from_outputs
