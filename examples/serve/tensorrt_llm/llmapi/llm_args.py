"""Placeholder for tensorrt_llm.llmapi.llm_args (not recorded; imported by the model): defines only the names the model imports from it."""


class LlmArgs:
    """Placeholder."""


TOKENIZER_ALIASES = 'TOKENIZER_ALIASES'  # placeholder


class TorchLlmArgs:
    """Placeholder."""
