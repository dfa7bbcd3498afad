"""Import-only model of tensorrt_llm/serve/rerank_utils.py: its import statements, plus placeholders for the names the model imports from it."""

from typing import Protocol
