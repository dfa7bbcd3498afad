"""Placeholder for tensorrt_llm._backend (not recorded; imported by the model): defines only the names the model imports from it."""


def select_backend(*args, **kwargs):
    """Placeholder."""
