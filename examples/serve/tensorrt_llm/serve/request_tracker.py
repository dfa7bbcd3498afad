"""Import-only model of tensorrt_llm/serve/request_tracker.py: its import statements, plus placeholders for the names the model imports from it."""

import asyncio
from collections.abc import Iterable
from typing import Protocol

from tensorrt_llm.logger import logger
