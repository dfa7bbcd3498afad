"""Import-only model of tensorrt_llm/serve/kv_event_fanout.py: its import statements, plus placeholders for the names the model imports from it."""

import asyncio
from collections import deque
from collections.abc import AsyncGenerator
from typing import Any

from tensorrt_llm.logger import logger
