"""Placeholder for tensorrt_llm._bootstrap (not recorded; imported by the model): defines only the names the model imports from it."""


def _init(*args, **kwargs):
    """Placeholder."""


def _prepare_environment(*args, **kwargs):
    """Placeholder."""


def _prepare_native_environment(*args, **kwargs):
    """Placeholder."""
