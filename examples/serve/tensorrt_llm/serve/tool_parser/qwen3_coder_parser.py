"""Import-only model of tensorrt_llm/serve/tool_parser/qwen3_coder_parser.py: its import statements, plus placeholders for the names the model imports from it."""

import ast
import html
import json
import re
from typing import Any, Dict, List, Tuple

from tensorrt_llm.logger import logger
from tensorrt_llm.serve.openai_protocol import ChatCompletionToolsParam as Tool
from tensorrt_llm.serve.tool_parser.base_tool_parser import BaseToolParser
from tensorrt_llm.serve.tool_parser.core_types import (
    StreamingParseResult,
    ToolCallItem,
    _GetInfoFunc,
)


# Placeholders for the names the model imports from this module.
class Qwen3CoderToolParser:
    """Placeholder."""
