"""Import-only model of tensorrt_llm/serve/kv_cache_router/prefix_trie.py: its import statements, plus placeholders for the names the model imports from it."""

from collections import defaultdict
from typing import Dict, Iterable, List


# Placeholders for the names the model imports from this module.
class WorkerPrefixTrie:
    """Placeholder."""
