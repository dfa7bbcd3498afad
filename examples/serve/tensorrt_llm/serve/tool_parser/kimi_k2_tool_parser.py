"""Import-only model of tensorrt_llm/serve/tool_parser/kimi_k2_tool_parser.py: its import statements, plus placeholders for the names the model imports from it."""

import json
import re
from typing import List

from tensorrt_llm.logger import logger

from ..openai_protocol import ChatCompletionToolsParam as Tool
from .base_tool_parser import BaseToolParser
from .core_types import StreamingParseResult, StructureInfo, ToolCallItem, _GetInfoFunc


# Placeholders for the names the model imports from this module.
class KimiK2ToolParser:
    """Placeholder."""
