"""Import-only model of tensorrt_llm/serve/tool_parser/glm4_parser.py: its import statements, plus placeholders for the names the model imports from it."""

import ast
import json
import re
from enum import Enum
from typing import Any, Dict, List, Optional, Tuple

from tensorrt_llm.logger import logger
from tensorrt_llm.serve.openai_protocol import ChatCompletionToolsParam as Tool
from tensorrt_llm.serve.tool_parser.base_tool_parser import BaseToolParser
from tensorrt_llm.serve.tool_parser.core_types import (
    StreamingParseResult,
    ToolCallItem,
    _GetInfoFunc,
)

from .utils import infer_type_from_json_schema


# Placeholders for the names the model imports from this module.
class Glm4ToolParser:
    """Placeholder."""
