"""Placeholder for tensorrt_llm.inputs.tokenization (not recorded; imported by the model): defines only the names the model imports from it."""


def tokenize_prompt(*args, **kwargs):
    """Placeholder."""
