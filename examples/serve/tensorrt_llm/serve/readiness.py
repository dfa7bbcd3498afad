"""Import-only model of tensorrt_llm/serve/readiness.py: its import statements, plus placeholders for the names the model imports from it."""

import asyncio
import json
import threading
from typing import Any, Awaitable, Callable

from strenum import StrEnum
