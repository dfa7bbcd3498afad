"""Import-only model of tensorrt_llm/serve/router_http_server.py: its import statements, plus placeholders for the names the model imports from it."""

import asyncio
from contextlib import asynccontextmanager
from typing import Optional

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from tensorrt_llm.llmapi.disagg_utils import MetadataServerConfig, RouterConfig
from tensorrt_llm.logger import logger
from tensorrt_llm.serve.metadata_server import (
    JsonDictionary,
    create_metadata_server,
)
from tensorrt_llm.serve.router import Router, create_router
from tensorrt_llm.version import __version__ as VERSION
