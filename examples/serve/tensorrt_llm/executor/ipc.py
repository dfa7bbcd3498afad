"""Placeholder for tensorrt_llm.executor.ipc (not recorded; imported by the model): defines only the names the model imports from it."""


class ZeroMqQueue:
    """Placeholder."""
