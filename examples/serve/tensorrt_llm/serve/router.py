"""Import-only model of tensorrt_llm/serve/router.py: its import statements, plus placeholders for the names the model imports from it.

Refactor edits to the recorded imports:
- added class CoordinatorDelegatingRouter with the two function-level imports of the newer stored router.py (PeriodicLatencyLogger in __init__, now from `_base.latency_logger`; make_coordinator_session from disagg_coordinator in `session`); fixes the version skew (disagg_coordinator imports CoordinatorDelegatingRouter, build_disagg_routers)
"""

import asyncio
import os
import time
from abc import ABC, abstractmethod
from collections import OrderedDict
from typing import Awaitable, Callable, Dict, Iterable, List, Optional, Union

import aiohttp

from tensorrt_llm.llmapi.disagg_utils import (
    MetadataServerConfig,
    RouterConfig,
    ServerRole,
)
from tensorrt_llm.logger import logger
from tensorrt_llm.runtime import kv_cache_hash
from tensorrt_llm.runtime.kv_cache_manager_v2._block_radix_tree import (
    Block as V2Block,
)
from tensorrt_llm.runtime.kv_cache_manager_v2._block_radix_tree import (
    ReuseScope,
)
from tensorrt_llm.runtime.kv_cache_manager_v2._block_radix_tree import (
    RootBlock as V2RootBlock,
)
from tensorrt_llm.serve.metadata_server import JsonDictionary
from tensorrt_llm.serve.openai_protocol import (
    ChatCompletionRequest,
    CompletionRequest,
)


# Placeholders for the names the model imports from this module.
class KvCacheAwareRouter:
    """Placeholder."""


class Router:
    """Placeholder."""


def build_disagg_routers(*args, **kwargs):
    """Placeholder."""


def create_router(*args, **kwargs):
    """Placeholder."""


class BlockHashMixin:
    def _get_tokenizer(self, *args, **kwargs):
        if True:
            if True:
                from tensorrt_llm.tokenizer import load_custom_tokenizer
            else:
                from tensorrt_llm.tokenizer import TransformersTokenizer


class CoordinatorDelegatingRouter:
    def __init__(self, *args, **kwargs):
        from tensorrt_llm.serve._base.latency_logger import PeriodicLatencyLogger

    def session(self, *args, **kwargs):
        from tensorrt_llm.serve.disagg_coordinator import make_coordinator_session
