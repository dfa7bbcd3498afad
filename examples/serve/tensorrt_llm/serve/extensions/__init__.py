"""Import-only model of tensorrt_llm/serve/extensions/__init__.py: its import statements, plus placeholders for the names the model imports from it."""

from . import gpt_oss, kimi_k3
