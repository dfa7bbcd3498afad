"""Import-only model of tensorrt_llm/serve/tool_parser/deepseekv41_parser.py: its import statements, plus placeholders for the names the model imports from it."""

from .deepseekv32_parser import DeepSeekV32Parser
