"""Import-only model of tensorrt_llm/serve/extensions/gpt_oss.py: its import statements, plus placeholders for the names the model imports from it."""

from typing import Any, Dict, Optional

from tensorrt_llm.serve.serving_extensions import ServingExtension, register_serving_extension
