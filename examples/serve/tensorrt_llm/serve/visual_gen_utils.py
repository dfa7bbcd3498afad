"""Import-only model of tensorrt_llm/serve/visual_gen_utils.py: its import statements, plus placeholders for the names the model imports from it."""
from __future__ import annotations

import asyncio
import base64
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Dict, List, Optional

from tensorrt_llm.inputs.media_io import is_isobmff_image_bytes, sniff_media_kind
from tensorrt_llm.logger import logger
from tensorrt_llm.serve.openai_protocol import ImageGenerationRequest, VideoGenerationRequest

if TYPE_CHECKING:
    from tensorrt_llm.visual_gen import VisualGen, VisualGenParams


# Placeholders for the names the model imports from this module.
class AsyncDictStore:
    """Placeholder."""


VIDEO_STORE = 'VIDEO_STORE'  # placeholder


def parse_visual_gen_params(*args, **kwargs):
    """Placeholder."""
