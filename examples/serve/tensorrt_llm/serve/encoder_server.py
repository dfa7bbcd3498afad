"""Import-only model of tensorrt_llm/serve/encoder_server.py: its import statements, plus placeholders for the names the model imports from it."""

import asyncio
import logging
import signal
from contextlib import asynccontextmanager
from http import HTTPStatus
from typing import Dict, List, Optional, Union

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
import uvicorn

from tensorrt_llm.serve.openai_protocol import ChatCompletionRequest
from tensorrt_llm.executor import CppExecutorError
from tensorrt_llm.version import __version__ as VERSION
from tensorrt_llm._torch.multimodal.mm_encoder import MultimodalEncoder
from tensorrt_llm.executor.multimodal import MultimodalRequest
from tensorrt_llm.multimodal_params import MultimodalParams

from pathlib import Path

from tensorrt_llm.serve.openai_protocol import ModelList, ModelCard
from tensorrt_llm.serve.openai_server import OpenAIServer

from dataclasses import asdict
