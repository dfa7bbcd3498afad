"""Placeholder for tensorrt_llm.runtime.kv_cache_manager_v2._block_radix_tree (not recorded; imported by the model): defines only the names the model imports from it."""


class Block:
    """Placeholder."""


class ReuseScope:
    """Placeholder."""


class RootBlock:
    """Placeholder."""
