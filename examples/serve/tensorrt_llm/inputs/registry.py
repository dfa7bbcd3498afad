"""Placeholder for tensorrt_llm.inputs.registry (not recorded; imported by the model): defines only the names the model imports from it."""


class DefaultInputProcessor:
    """Placeholder."""


MULTIMODAL_PLACEHOLDER_REGISTRY = 'MULTIMODAL_PLACEHOLDER_REGISTRY'  # placeholder


def create_input_processor(*args, **kwargs):
    """Placeholder."""
