"""Placeholder for tensorrt_llm.tokenizer (not recorded; imported by the model): defines only the names the model imports from it."""


class TransformersTokenizer:
    """Placeholder."""


def load_custom_tokenizer(*args, **kwargs):
    """Placeholder."""
