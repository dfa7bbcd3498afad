"""Import-only model of tensorrt_llm/serve/kv_cache_router/router_core.py: its import statements, plus placeholders for the names the model imports from it."""

import threading
import time
from typing import Dict, List, Optional, Tuple

from tensorrt_llm.bindings.internal.batch_manager import (
    BlockKey,
    BlockKeyHasher,
)
from tensorrt_llm.logger import logger

from .messages import KvCacheEventReport, Selection, WorkerLoadReport
from .prefix_trie import WorkerPrefixTrie


# Placeholders for the names the model imports from this module.
def block_key_hasher(*args, **kwargs):
    """Placeholder."""


def score_kv_aware_candidates(*args, **kwargs):
    """Placeholder."""


class CentralizedKVCacheRouter:
    def __init__(self, *args, **kwargs):
        import os
