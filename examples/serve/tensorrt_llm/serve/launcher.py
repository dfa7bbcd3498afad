"""Import-only model of tensorrt_llm/serve/launcher.py: its import statements, plus placeholders for the names the model imports from it."""

import asyncio
import signal
import socket
from typing import Any, Optional

import uvicorn
from fastapi import FastAPI

from tensorrt_llm.logger import logger
