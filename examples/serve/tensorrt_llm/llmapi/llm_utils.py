"""Placeholder for tensorrt_llm.llmapi.llm_utils (not recorded; imported by the model): defines only the names the model imports from it."""


class ModelLoader:
    """Placeholder."""
