"""Import-only model of tensorrt_llm/serve/api/ops/system/serving.py (added by the refactor): SystemServing, built by OpenAIServer with the injected health probe."""

from typing import Awaitable, Callable

from fastapi.responses import JSONResponse, Response

from tensorrt_llm.serve.openai_protocol import ModelCard, ModelList
from tensorrt_llm.version import __version__ as VERSION


# Placeholders for the names the model imports from this module.
class SystemServing:
    """Placeholder."""
