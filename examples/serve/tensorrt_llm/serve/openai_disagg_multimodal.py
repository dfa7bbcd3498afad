"""Import-only model of tensorrt_llm/serve/openai_disagg_multimodal.py: its import statements, plus placeholders for the names the model imports from it."""

import asyncio
import copy
import json
import logging
import os
import signal
from contextlib import asynccontextmanager
from http import HTTPStatus
from typing import List, Optional, Type, Union, Dict, Any

import aiohttp
import uvicorn
from fastapi import FastAPI, HTTPException
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response, StreamingResponse

from tensorrt_llm.executor import CppExecutorError
from tensorrt_llm.llmapi.disagg_utils import RouterConfig
from tensorrt_llm.serve.openai_protocol import (
    ChatCompletionRequest,
    ChatCompletionResponse,
    CompletionRequest,
    CompletionResponse,
    ErrorResponse,
)
from tensorrt_llm.multimodal_params import MultimodalParams

from tensorrt_llm.serve.router import create_router
from tensorrt_llm.version import __version__ as VERSION
