"""Import-only model of tensorrt_llm/serve/tool_parser/__init__.py: its import statements, plus placeholders for the names the model imports from it."""

from .tool_parser_factory import ToolParserFactory
