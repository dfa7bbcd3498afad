"""Placeholder for tensorrt_llm.tokenizer.deepseek_v4 (not recorded; imported by the model): defines only the names the model imports from it."""


class DeepseekV4Tokenizer:
    """Placeholder."""
