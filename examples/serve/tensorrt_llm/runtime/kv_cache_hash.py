"""Placeholder for tensorrt_llm.runtime.kv_cache_hash (not recorded; imported by the model): defines only the names the model imports from it."""
