"""Placeholder for tensorrt_llm.visual_gen (not recorded; imported by the model): defines only the names the model imports from it."""


class ExtraParamSchema:
    """Placeholder."""


class VisualGen:
    """Placeholder."""


class VisualGenArgs:
    """Placeholder."""


class VisualGenMetrics:
    """Placeholder."""


class VisualGenOutput:
    """Placeholder."""


class VisualGenParams:
    """Placeholder."""


class VisualGenResult:
    """Placeholder."""
