"""Import-only model of tensorrt_llm/serve/tool_parser/glm47_parser.py: its import statements, plus placeholders for the names the model imports from it."""

from typing import Tuple

from tensorrt_llm.serve.tool_parser.glm4_parser import Glm4ToolParser


# Placeholders for the names the model imports from this module.
class Glm47ToolParser:
    """Placeholder."""
