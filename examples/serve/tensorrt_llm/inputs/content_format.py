"""Placeholder for tensorrt_llm.inputs.content_format (not recorded; imported by the model): defines only the names the model imports from it."""


class ContentFormat:
    """Placeholder."""
