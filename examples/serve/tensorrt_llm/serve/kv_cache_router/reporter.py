"""Import-only model of tensorrt_llm/serve/kv_cache_router/reporter.py: its import statements, plus placeholders for the names the model imports from it."""

import threading
import time
from typing import Callable, List, Optional

import zmq

from tensorrt_llm._utils import KVCacheEventSerializer
from tensorrt_llm.executor.ipc import ZeroMqQueue
from tensorrt_llm.logger import logger

from .messages import KvCacheEventReport, WorkerLoadReport


# Placeholders for the names the model imports from this module.
class WorkerReporter:
    """Placeholder."""


def _now_on_synced_clock(*args, **kwargs):
    """Placeholder."""
