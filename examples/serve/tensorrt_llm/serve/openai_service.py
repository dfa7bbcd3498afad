"""Import-only model of tensorrt_llm/serve/openai_service.py: its import statements, plus placeholders for the names the model imports from it.

Refactor edits to the recorded imports:
- responses_utils import -> `_base.service_types`
"""

from abc import ABC, abstractmethod

from tensorrt_llm.serve.openai_protocol import ChatCompletionRequest, CompletionRequest
from tensorrt_llm.serve._base.service_types import UCompletionResponseOrGenerator


# Placeholders for the names the model imports from this module.
class OpenAIService:
    """Placeholder."""
