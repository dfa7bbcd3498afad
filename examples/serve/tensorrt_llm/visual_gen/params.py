"""Placeholder for tensorrt_llm.visual_gen.params (not recorded; imported by the model): defines only the names the model imports from it."""


class MediaRole:
    """Placeholder."""


class VisualGenParams:
    """Placeholder."""
