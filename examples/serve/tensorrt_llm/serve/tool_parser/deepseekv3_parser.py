"""Import-only model of tensorrt_llm/serve/tool_parser/deepseekv3_parser.py: its import statements, plus placeholders for the names the model imports from it."""

import json
import re
from typing import List

from tensorrt_llm.observability.logging import logger
from tensorrt_llm.serve.openai_protocol import ChatCompletionToolsParam as Tool
from tensorrt_llm.serve.tool_parser.base_tool_parser import BaseToolParser
from tensorrt_llm.serve.tool_parser.core_types import (
    StreamingParseResult,
    StructureInfo,
    ToolCallItem,
    _GetInfoFunc,
)

from .utils import is_complete_json


# Placeholders for the names the model imports from this module.
class DeepSeekV3Parser:
    """Placeholder."""
