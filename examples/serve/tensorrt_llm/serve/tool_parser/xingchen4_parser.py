"""Import-only model of tensorrt_llm/serve/tool_parser/xingchen4_parser.py: its import statements, plus placeholders for the names the model imports from it."""

import ast
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, List

from tensorrt_llm.logger import logger
from tensorrt_llm.serve.openai_protocol import ChatCompletionToolsParam as Tool
from tensorrt_llm.serve.tool_parser.base_tool_parser import BaseToolParser
from tensorrt_llm.serve.tool_parser.core_types import (
    StreamingParseResult,
    StructureInfo,
    ToolCallItem,
    _GetInfoFunc,
)
