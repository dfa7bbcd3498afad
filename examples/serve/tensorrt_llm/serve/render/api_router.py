"""Import-only model of tensorrt_llm/serve/render/api_router.py: its import statements, plus placeholders for the names the model imports from it."""
from __future__ import annotations

import os
from typing import List

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from .prompt_types import GenerateRequest
from .serving import RenderRequestError, ServingRender


# Placeholders for the names the model imports from this module.
def _json_body(*args, **kwargs):
    """Placeholder."""


def attach_render_routes(*args, **kwargs):
    """Placeholder."""


def render_endpoints_enabled(*args, **kwargs):
    """Placeholder."""


def error_response(*args, **kwargs):
    from tensorrt_llm.serve.openai_protocol import ErrorResponse
