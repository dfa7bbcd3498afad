"""Placeholder for tensorrt_llm.executor.multimodal (not recorded; imported by the model): defines only the names the model imports from it."""


class MultimodalRequest:
    """Placeholder."""
