"""Import-only model of tensorrt_llm/serve/kv_cache_router/__init__.py: its import statements, plus placeholders for the names the model imports from it."""

from .messages import KvCacheEventReport, Selection, WorkerLoadReport
from .prefix_trie import WorkerPrefixTrie
from .reporter import WorkerReporter
from .router_core import (
    CentralizedKVCacheRouter,
    block_key_hasher,
    score_kv_aware_candidates,
)
from .zmq_server import KVCacheRouterServer
