"""Placeholder for tensorrt_llm._torch.async_llm (not recorded; imported by the model): defines only the names the model imports from it."""


class AsyncLLM:
    """Placeholder."""
