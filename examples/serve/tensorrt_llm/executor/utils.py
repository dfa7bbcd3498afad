"""Import-only model of tensorrt_llm/executor/utils.py: its import statements, plus placeholders for the names the model imports from it."""

import asyncio
import concurrent.futures
import os
from concurrent.futures import ProcessPoolExecutor
from queue import Empty, Queue
from typing import Any, Callable, List, NamedTuple

from tensorrt_llm.llmapi.utils import print_colored_debug
from tensorrt_llm.logger import logger

from ..llmapi.mpi_session import (
    MpiCommSession,
    MpiPoolSession,
    MpiSession,
    RemoteMpiCommSessionClient,
)
from ..llmapi.utils import print_colored_debug


# Placeholders for the names the model imports from this module.
CONTEXT_LENGTH_EXCEEDED_CODE = 'CONTEXT_LENGTH_EXCEEDED_CODE'  # placeholder


class EngineDeadError(Exception):
    """Placeholder."""


class RequestError(Exception):
    """Placeholder."""


def is_context_length_exceeded_message(*args, **kwargs):
    """Placeholder."""
