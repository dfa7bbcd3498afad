"""Placeholder for tensorrt_llm.llmapi.utils (not recorded; imported by the model): defines only the names the model imports from it."""


def print_colored_debug(*args, **kwargs):
    """Placeholder."""
