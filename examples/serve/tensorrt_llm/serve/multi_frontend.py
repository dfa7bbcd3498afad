"""Import-only model of tensorrt_llm/serve/multi_frontend.py: its import statements, plus placeholders for the names the model imports from it."""

import asyncio
import os
from dataclasses import dataclass
from typing import Callable, Optional

import aiohttp
from fastapi import Request
from fastapi.responses import JSONResponse, Response

from tensorrt_llm.logger import logger
