"""Placeholder for tensorrt_llm.visual_gen.args (not recorded; imported by the model): defines only the names the model imports from it."""


class VisualGenArgs:
    """Placeholder."""
