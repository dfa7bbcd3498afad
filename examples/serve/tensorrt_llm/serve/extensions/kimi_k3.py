"""Import-only model of tensorrt_llm/serve/extensions/kimi_k3.py: its import statements, plus placeholders for the names the model imports from it."""

import os
import re
from typing import Any, Dict, List, Optional

from tensorrt_llm.serve.openai_protocol import (
    ChatCompletionMessageParam,
    ChatCompletionRequest,
    StreamOptions,
)
from tensorrt_llm.serve.serving_extensions import ServingExtension, register_serving_extension
