"""Placeholder for tensorrt_llm.inputs (not recorded; imported by the model): defines only the names the model imports from it."""


class ContentFormat:
    """Placeholder."""


class ConversationMessage:
    """Placeholder."""


class MultimodalData:
    """Placeholder."""


class MultimodalDataTracker:
    """Placeholder."""


def add_multimodal_placeholders(*args, **kwargs):
    """Placeholder."""


def create_input_processor(*args, **kwargs):
    """Placeholder."""


def load_base64_image_embeds(*args, **kwargs):
    """Placeholder."""


def prompt_inputs(*args, **kwargs):
    """Placeholder."""
