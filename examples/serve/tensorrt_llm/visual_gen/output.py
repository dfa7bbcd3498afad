"""Placeholder for tensorrt_llm.visual_gen.output (not recorded; imported by the model): defines only the names the model imports from it."""


class VisualGenMetrics:
    """Placeholder."""


class VisualGenOutput:
    """Placeholder."""
