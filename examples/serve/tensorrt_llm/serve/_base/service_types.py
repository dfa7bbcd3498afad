"""Import-only model of tensorrt_llm/serve/_base/service_types.py (added by the refactor): ResponseHooks, done_generator and UCompletionResponseOrGenerator, moved verbatim out of responses_utils.py (#21510)."""

from abc import ABC, abstractmethod
from typing import Any, AsyncGenerator, Union

from tensorrt_llm.serve.openai_protocol import UCompletionRequest, UCompletionResponse


# Placeholders for the names the model imports from this module.
class ResponseHooks:
    """Placeholder."""


class UCompletionResponseOrGenerator:
    """Placeholder."""


def done_generator(*args, **kwargs):
    """Placeholder."""
