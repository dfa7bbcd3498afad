"""Import-only model of tensorrt_llm/serve/coordinator_server.py: its import statements, plus placeholders for the names the model imports from it."""

import asyncio
import socket
from contextlib import asynccontextmanager
from typing import Optional

import msgpack
import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import Response

from tensorrt_llm.logger import logger
from tensorrt_llm.serve._telemetry import create_uvicorn_server
from tensorrt_llm.serve.cluster_storage import HttpClusterStorageServer
from tensorrt_llm.serve.disagg_coordinator import DisaggCoordinatorService
from tensorrt_llm.version import __version__ as VERSION


class CoordinatorServer:
    def __call__(self, *args, **kwargs):
        if True:
            import asyncio as _asyncio
