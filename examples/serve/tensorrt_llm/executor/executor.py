"""Placeholder for tensorrt_llm.executor.executor (not recorded; imported by the model): defines only the names the model imports from it."""


class CppExecutorError(Exception):
    """Placeholder."""
