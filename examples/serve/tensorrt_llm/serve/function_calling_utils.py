"""Import-only model of tensorrt_llm/serve/function_calling_utils.py: its import statements, plus placeholders for the names the model imports from it."""

import json
import re
from typing import List

from .openai_protocol import ToolCall, FunctionCall, ChatCompletionToolsParam
