"""Placeholder for tensorrt_llm.inputs.utils (not recorded; imported by the model): defines only the names the model imports from it."""


class ConversationMessage:
    """Placeholder."""


def apply_chat_template(*args, **kwargs):
    """Placeholder."""


def async_apply_chat_template(*args, **kwargs):
    """Placeholder."""


def interleave_mm_placeholders(*args, **kwargs):
    """Placeholder."""


def resolve_hf_chat_template(*args, **kwargs):
    """Placeholder."""
