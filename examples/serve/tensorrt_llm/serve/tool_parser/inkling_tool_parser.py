"""Import-only model of tensorrt_llm/serve/tool_parser/inkling_tool_parser.py: its import statements, plus placeholders for the names the model imports from it."""

import json
import re
from collections.abc import Mapping
from typing import List, Optional

from partial_json_parser.core.exceptions import MalformedJSON
from partial_json_parser.core.options import Allow

from tensorrt_llm.llmapi.inkling_tokens import (
    INKLING_CONTROL_TOKENS,
    INKLING_END_MESSAGE,
    INKLING_INVOKE_TOOL_JSON,
    INKLING_MESSAGE_MODEL,
)
from tensorrt_llm.logger import logger

from ..openai_protocol import ChatCompletionToolsParam as Tool
from .base_tool_parser import BaseToolParser
from .core_types import StreamingParseResult, StructureInfo, ToolCallItem, _GetInfoFunc
from .utils import is_complete_json, partial_json_loads
