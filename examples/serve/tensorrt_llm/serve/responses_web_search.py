"""Import-only model of tensorrt_llm/serve/responses_web_search.py: its import statements, plus placeholders for the names the model imports from it."""

import json
from typing import Any, List, Optional, Sequence, Tuple

from openai.types.responses.response_function_web_search import (
    ActionSearch,
    ResponseFunctionWebSearch,
)

from tensorrt_llm.logger import logger
from tensorrt_llm.serve.web_search import SearchOutcome, WebSearchToolSpec, load_web_search_config


# Placeholders for the names the model imports from this module.
def is_web_search_tool(*args, **kwargs):
    """Placeholder."""


def search_call_item(*args, **kwargs):
    from tensorrt_llm.serve.responses_utils import _random_uuid
