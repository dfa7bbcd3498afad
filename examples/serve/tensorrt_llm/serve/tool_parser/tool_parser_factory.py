"""Import-only model of tensorrt_llm/serve/tool_parser/tool_parser_factory.py: its import statements, plus placeholders for the names the model imports from it."""

import json
from pathlib import Path
from typing import Optional, Type

from .base_tool_parser import BaseToolParser
from .deepseekv3_parser import DeepSeekV3Parser
from .deepseekv31_parser import DeepSeekV31Parser
from .deepseekv32_parser import DeepSeekV32Parser
from .gemma4_parser import Gemma4ToolParser
from .glm4_parser import Glm4ToolParser
from .glm47_parser import Glm47ToolParser
from .kimi_k2_tool_parser import KimiK2ToolParser
from .minimax_m2_parser import MiniMaxM2ToolParser
from .qwen3_coder_parser import Qwen3CoderToolParser
from .qwen3_tool_parser import Qwen3ToolParser


# Placeholders for the names the model imports from this module.
class ToolParserFactory:
    """Placeholder."""
