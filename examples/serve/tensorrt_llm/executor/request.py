"""Placeholder for tensorrt_llm.executor.request (not recorded; imported by the model): defines only the names the model imports from it."""


class LoRARequest:
    """Placeholder."""


class TruncateKVCacheRequest:
    """Placeholder."""
