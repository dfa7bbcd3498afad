"""Import-only model of tensorrt_llm/serve/openai_protocol.py: its import statements, plus placeholders for the names the model imports from it."""

import base64
import math
import time
import uuid
from typing import Any, Dict, List, Literal, Optional, Union

import torch
import xgrammar
from fastapi import UploadFile
from openai.types.chat import ChatCompletionAssistantMessageParam
from openai.types.chat import (
    ChatCompletionContentPartParam as OpenAIChatCompletionContentPartParam,
)
from openai.types.chat import (
    ChatCompletionMessageParam as OpenAIChatCompletionMessageParam,
)
from openai.types.responses import (
    ResponseCodeInterpreterCallCodeDeltaEvent,
    ResponseCodeInterpreterCallCodeDoneEvent,
    ResponseCodeInterpreterCallCompletedEvent,
    ResponseCodeInterpreterCallInProgressEvent,
    ResponseCodeInterpreterCallInterpretingEvent,
    ResponseCompletedEvent,
    ResponseContentPartAddedEvent,
    ResponseContentPartDoneEvent,
    ResponseCreatedEvent,
    ResponseFormatTextConfig,
    ResponseFunctionToolCall,
    ResponseInProgressEvent,
    ResponseInputItemParam,
    ResponseOutputItem,
    ResponseOutputItemAddedEvent,
    ResponseOutputItemDoneEvent,
    ResponsePrompt,
    ResponseReasoningItem,
    ResponseReasoningTextDeltaEvent,
    ResponseReasoningTextDoneEvent,
    ResponseStatus,
    ResponseTextConfig,
    ResponseWebSearchCallCompletedEvent,
    ResponseWebSearchCallInProgressEvent,
    ResponseWebSearchCallSearchingEvent,
)
from openai.types.responses.response import ToolChoice
from openai.types.responses.tool import Tool
from openai.types.shared import Metadata, Reasoning
from openai_harmony import ReasoningEffort
from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    NonNegativeInt,
    PositiveInt,
    field_validator,
    model_validator,
)
from typing_extensions import Annotated, Required, TypeAlias, TypedDict

from tensorrt_llm.executor.request import LoRARequest
from tensorrt_llm.inputs.media_io import MediaModality
from tensorrt_llm.llmapi import ConversationParams as LlmConversationParams
from tensorrt_llm.llmapi import DisaggregatedParams as LlmDisaggregatedParams
from tensorrt_llm.llmapi import (
    DisaggScheduleStyle,
    GuidedDecodingParams,
    SamplingParams,
)
from tensorrt_llm.llmapi.reasoning_parser import ReasoningParserFactory
from tensorrt_llm.sampling_params import (
    check_logprobs_limit,
    validate_thinking_token_budget,
)
from tensorrt_llm.scheduling_params import AgentHierarchy
from tensorrt_llm.serve.serving_extensions import structured_output_format_for
from tensorrt_llm.visual_gen.params import MediaRole


# Placeholders for the names the model imports from this module.
class ChatCompletionLogProbs:
    """Placeholder."""


class ChatCompletionLogProbsContent:
    """Placeholder."""


class ChatCompletionMessageParam:
    """Placeholder."""


class ChatCompletionNamedToolChoiceParam:
    """Placeholder."""


class ChatCompletionRequest:
    """Placeholder."""


class ChatCompletionResponse:
    """Placeholder."""


class ChatCompletionResponseChoice:
    """Placeholder."""


class ChatCompletionResponseStreamChoice:
    """Placeholder."""


class ChatCompletionStreamResponse:
    """Placeholder."""


class ChatCompletionToolsParam:
    """Placeholder."""


class ChatMessage:
    """Placeholder."""


class CompletionLogProbs:
    """Placeholder."""


class CompletionRequest:
    """Placeholder."""


class CompletionResponse:
    """Placeholder."""


class CompletionResponseChoice:
    """Placeholder."""


class CompletionResponseStreamChoice:
    """Placeholder."""


class CompletionStreamResponse:
    """Placeholder."""


class ConversationParams:
    """Placeholder."""


class DeltaFunctionCall:
    """Placeholder."""


class DeltaMessage:
    """Placeholder."""


class DeltaToolCall:
    """Placeholder."""


class DisaggregatedParams:
    """Placeholder."""


class ErrorResponse:
    """Placeholder."""


class FunctionCall:
    """Placeholder."""


class FunctionDefinition:
    """Placeholder."""


class ImageEditRequest:
    """Placeholder."""


class ImageGenerationRequest:
    """Placeholder."""


class ImageGenerationResponse:
    """Placeholder."""


class ImageObject:
    """Placeholder."""


class InputTokensDetails:
    """Placeholder."""


class KVCacheHintRequest:
    """Placeholder."""


class KVCacheTruncateRequest:
    """Placeholder."""


class KVCacheTruncateTokensRequest:
    """Placeholder."""


class MemoryUpdateRequest:
    """Placeholder."""


class ModelCard:
    """Placeholder."""


class ModelList:
    """Placeholder."""


class OpenAIBaseModel:
    """Placeholder."""


class OutputTokensDetails:
    """Placeholder."""


class PromptTokensDetails:
    """Placeholder."""


class ReasoningAssistantMessage:
    """Placeholder."""


class ResponseInputOutputItem:
    """Placeholder."""


class ResponseUsage:
    """Placeholder."""


class ResponsesRequest:
    """Placeholder."""


class ResponsesResponse:
    """Placeholder."""


class StreamOptions:
    """Placeholder."""


class StreamingResponsesResponse:
    """Placeholder."""


class ToolCall:
    """Placeholder."""


class UCompletionRequest:
    """Placeholder."""


class UCompletionResponse:
    """Placeholder."""


class UpdateWeightsRequest:
    """Placeholder."""


class UsageInfo:
    """Placeholder."""


class VideoGenerationRequest:
    """Placeholder."""


class VideoJob:
    """Placeholder."""


class VideoJobList:
    """Placeholder."""


def ensure_request_chat_template_allowed(*args, **kwargs):
    """Placeholder."""


def to_disaggregated_params(*args, **kwargs):
    """Placeholder."""


def to_llm_disaggregated_params(*args, **kwargs):
    """Placeholder."""


def _deserialize_first_gen_log_probs(*args, **kwargs):
    from tensorrt_llm.executor.result import Logprob


def _deserialize_first_gen_logits(*args, **kwargs):
    import numpy as np
