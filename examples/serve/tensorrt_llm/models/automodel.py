"""Placeholder for tensorrt_llm.models.automodel (not recorded; imported by the model): defines only the names the model imports from it."""


class AutoConfig:
    """Placeholder."""


class AutoModelForCausalLM:
    """Placeholder."""
