"""Import-only model of tensorrt_llm/serve/tool_parser/base_tool_parser.py: its import statements, plus placeholders for the names the model imports from it."""

import json
from abc import ABC, abstractmethod
from typing import Any, Dict, List, Optional

from partial_json_parser.core.exceptions import MalformedJSON
from partial_json_parser.core.options import Allow

from tensorrt_llm.logger import logger

from ..openai_protocol import ChatCompletionToolsParam as Tool
from .core_types import StreamingParseResult, ToolCallItem, _GetInfoFunc
from .utils import find_common_prefix, is_complete_json, partial_json_loads


# Placeholders for the names the model imports from this module.
class BaseToolParser:
    """Placeholder."""


def warn_if_tool_call_unparsed(*args, **kwargs):
    """Placeholder."""
