"""Placeholder for tensorrt_llm.llmapi.tokenizer (not recorded; imported by the model): defines only the names the model imports from it."""


class TokenizerBase:
    """Placeholder."""


class TransformersTokenizer:
    """Placeholder."""
