"""Placeholder for tensorrt_llm.tokenizer.deepseek_v32 (not recorded; imported by the model): defines only the names the model imports from it."""


class DeepseekV32Tokenizer:
    """Placeholder."""
