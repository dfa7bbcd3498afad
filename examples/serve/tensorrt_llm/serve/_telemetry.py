"""Import-only model of tensorrt_llm/serve/_telemetry.py: its import statements, plus placeholders for the names the model imports from it."""

import inspect
import socket

import uvicorn

import tensorrt_llm.usage as usage
from tensorrt_llm.logger import logger


# Placeholders for the names the model imports from this module.
def create_uvicorn_server(*args, **kwargs):
    """Placeholder."""
