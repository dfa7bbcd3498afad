"""Placeholder for tensorrt_llm.sampling_params (not recorded; imported by the model): defines only the names the model imports from it."""


class SamplingParams:
    """Placeholder."""


def check_logprobs_limit(*args, **kwargs):
    """Placeholder."""


def validate_thinking_token_budget(*args, **kwargs):
    """Placeholder."""
