"""Import-only model of tensorrt_llm/serve/render/prompt_types.py: its import statements, plus placeholders for the names the model imports from it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field


# Placeholders for the names the model imports from this module.
GENERATE_REQUEST_SCHEMA_VERSION = 'GENERATE_REQUEST_SCHEMA_VERSION'  # placeholder


class GenerateRequest:
    """Placeholder."""


class PreparedContext:
    """Placeholder."""


class RenderedPrompt:
    """Placeholder."""


class UnsupportedRenderError(Exception):
    """Placeholder."""
