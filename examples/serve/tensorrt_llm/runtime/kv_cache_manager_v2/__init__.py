"""Placeholder for tensorrt_llm.runtime.kv_cache_manager_v2 (not recorded; imported by the model): defines only the names the model imports from it."""


class ReuseScope:
    """Placeholder."""


def sequence_to_blockchain_keys(*args, **kwargs):
    """Placeholder."""
