"""Placeholder for tensorrt_llm.mapping (not recorded; imported by the model): defines only the names the model imports from it."""


class Mapping:
    """Placeholder."""
