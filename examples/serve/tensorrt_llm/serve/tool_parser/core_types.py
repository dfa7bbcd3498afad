"""Import-only model of tensorrt_llm/serve/tool_parser/core_types.py: its import statements, plus placeholders for the names the model imports from it."""

from dataclasses import dataclass
from typing import Callable, List, Optional

from pydantic import BaseModel


# Placeholders for the names the model imports from this module.
class StreamingParseResult:
    """Placeholder."""


class StructureInfo:
    """Placeholder."""


class ToolCallItem:
    """Placeholder."""


class _GetInfoFunc:
    """Placeholder."""
