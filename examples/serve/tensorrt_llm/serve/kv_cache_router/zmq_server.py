"""Import-only model of tensorrt_llm/serve/kv_cache_router/zmq_server.py: its import statements, plus placeholders for the names the model imports from it."""

import threading
from typing import Optional, Tuple

import zmq

from tensorrt_llm.executor.ipc import ZeroMqQueue
from tensorrt_llm.logger import logger

from .messages import KvCacheEventReport, WorkerLoadReport
from .reporter import _now_on_synced_clock
from .router_core import CentralizedKVCacheRouter


# Placeholders for the names the model imports from this module.
class KVCacheRouterServer:
    """Placeholder."""
