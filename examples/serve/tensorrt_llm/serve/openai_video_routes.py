"""Import-only model of tensorrt_llm/serve/openai_video_routes.py: its import statements, plus placeholders for the names the model imports from it."""

import asyncio
import os
import time
import traceback
import uuid
from http import HTTPStatus
from pathlib import Path

from fastapi import Request
from fastapi.responses import FileResponse, JSONResponse, Response

from tensorrt_llm.logger import logger
from tensorrt_llm.media.encoding import resolve_video_format
from tensorrt_llm.serve.openai_protocol import VideoGenerationRequest, VideoJob, VideoJobList
from tensorrt_llm.serve.visual_gen_utils import VIDEO_STORE, parse_visual_gen_params
from tensorrt_llm.visual_gen.params import VisualGenParams
