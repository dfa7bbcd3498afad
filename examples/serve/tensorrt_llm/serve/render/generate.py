"""Import-only model of tensorrt_llm/serve/render/generate.py: its import statements, plus placeholders for the names the model imports from it."""
from __future__ import annotations

import copy
from typing import Any, Dict, Optional

from fastapi import FastAPI, Request

from .api_router import _json_body, attach_render_routes, error_response, render_endpoints_enabled
from .fingerprint import fingerprints_match
from .prompt_types import GENERATE_REQUEST_SCHEMA_VERSION, GenerateRequest
from .resources import RenderResources
from .serving import RenderRequestError, ServingRender


# Placeholders for the names the model imports from this module.
def mount_render_endpoints(*args, **kwargs):
    """Placeholder."""


def attach_generate_route(*args, **kwargs):
    def generate(*args, **kwargs):
        from pydantic import ValidationError
        from tensorrt_llm.serve.openai_protocol import ChatCompletionRequest, CompletionRequest
