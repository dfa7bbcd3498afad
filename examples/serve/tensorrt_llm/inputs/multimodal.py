"""Placeholder for tensorrt_llm.inputs.multimodal (not recorded; imported by the model): defines only the names the model imports from it."""


class MultimodalServerConfig:
    """Placeholder."""
