"""Placeholder for tensorrt_llm.executor.proxy (not recorded; imported by the model): defines only the names the model imports from it."""


class GenerationExecutorProxy:
    """Placeholder."""
