"""Import-only model of tensorrt_llm/serve/disagg_coordinator.py: its import statements, plus placeholders for the names the model imports from it.

Refactor edits to the recorded imports:
- function-level PeriodicLatencyLogger import -> `_base.latency_logger`
"""

import asyncio
import os
import time
from abc import ABC, abstractmethod
from typing import Any, Dict, Optional, Tuple

import aiohttp
import msgpack

from tensorrt_llm.llmapi.disagg_utils import (
    DisaggServerConfig,
    MetadataServerConfig,
    ServerRole,
    get_ctx_gen_server_addrs,
    get_global_disagg_request_id,
    worker_local_process_id,
)
from tensorrt_llm.logger import logger
from tensorrt_llm.serve.cluster_storage import (
    ClusterStorage,
    WatchEventType,
    create_cluster_storage,
)
from tensorrt_llm.serve.disagg_auto_scaling import DisaggClusterManager, WorkerInfo
from tensorrt_llm.serve.metadata_server import create_metadata_server
from tensorrt_llm.serve.openai_client import OpenAIClient
from tensorrt_llm.serve.router import (
    CoordinatorDelegatingRouter,
    KvCacheAwareRouter,
    Router,
    build_disagg_routers,
)


# Placeholders for the names the model imports from this module.
class CoordinatorClient:
    """Placeholder."""


def make_coordinator_session(*args, **kwargs):
    """Placeholder."""


class DisaggCoordinatorService:
    def _api_lat(self, *args, **kwargs):
        if True:
            from tensorrt_llm.serve._base.latency_logger import PeriodicLatencyLogger

    def _wait_for_all_servers_ready(self, *args, **kwargs):
        import os
