"""Placeholder for tensorrt_llm.llmapi.llm (not recorded; imported by the model): defines only the names the model imports from it."""


class BaseLLM:
    """Placeholder."""


class RequestOutput:
    """Placeholder."""
