"""Import-only model of tensorrt_llm/serve/disagg_app.py: its import statements, plus placeholders for the names the model imports from it."""

import os

from tensorrt_llm.llmapi.disagg_utils import (
    parse_disagg_config_file,
    parse_metadata_server_config_file,
)
from tensorrt_llm.serve.openai_disagg_server import OpenAIDisaggServer
