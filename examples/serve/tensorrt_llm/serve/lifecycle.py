"""Import-only model of tensorrt_llm/serve/lifecycle.py: its import statements, plus placeholders for the names the model imports from it."""

import asyncio
import json
import socket
import traceback
from typing import Any, Awaitable, Callable, Optional

from strenum import StrEnum

from tensorrt_llm.logger import logger


def serve_with_lifecycle(*args, **kwargs):
    import uvicorn


def run_in_daemon_thread(*args, **kwargs):
    import threading
