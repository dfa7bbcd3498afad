"""Import-only model of tensorrt_llm/serve/tool_parser/poolside_v1_parser.py: its import statements, plus placeholders for the names the model imports from it."""

import json
import re
from typing import Any

from tensorrt_llm.logger import logger
from tensorrt_llm.serve.openai_protocol import ChatCompletionToolsParam as Tool
from tensorrt_llm.serve.tool_parser.base_tool_parser import BaseToolParser
from tensorrt_llm.serve.tool_parser.core_types import (
    StreamingParseResult,
    ToolCallItem,
    _GetInfoFunc,
)
from tensorrt_llm.serve.tool_parser.utils import infer_type_from_json_schema
