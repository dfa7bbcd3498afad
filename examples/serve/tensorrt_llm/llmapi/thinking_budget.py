"""Placeholder for tensorrt_llm.llmapi.thinking_budget (not recorded; imported by the model): defines only the names the model imports from it."""


def add_thinking_budget_logits_processor(*args, **kwargs):
    """Placeholder."""
