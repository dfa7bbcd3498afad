"""Placeholder for tensorrt_llm.inputs.data (not recorded; imported by the model): defines only the names the model imports from it."""


class TokensPrompt:
    """Placeholder."""


def visual_gen_inputs(*args, **kwargs):
    """Placeholder."""
