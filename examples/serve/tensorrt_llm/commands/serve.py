"""Placeholder for tensorrt_llm.commands.serve (not recorded; imported by the model): defines only the names the model imports from it."""


def _apply_fastapi_middlewares(*args, **kwargs):
    """Placeholder."""
