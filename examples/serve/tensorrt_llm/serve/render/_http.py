"""Import-only model of tensorrt_llm/serve/render/_http.py: its import statements, plus placeholders for the names the model imports from it."""
from __future__ import annotations

from typing import Optional

from fastapi import FastAPI

from .api_router import attach_render_routes
from .prompt_types import GENERATE_REQUEST_SCHEMA_VERSION
from .resources import RenderResources
from .serving import ServingRender


# Placeholders for the names the model imports from this module.
def build_render_app(*args, **kwargs):
    """Placeholder."""
