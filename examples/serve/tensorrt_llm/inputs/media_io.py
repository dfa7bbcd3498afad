"""Placeholder for tensorrt_llm.inputs.media_io (not recorded; imported by the model): defines only the names the model imports from it."""


class BaseMediaIO:
    """Placeholder."""


MEDIA_IO_REGISTRY = 'MEDIA_IO_REGISTRY'  # placeholder


class MediaModality:
    """Placeholder."""


def is_isobmff_image_bytes(*args, **kwargs):
    """Placeholder."""


def sniff_media_kind(*args, **kwargs):
    """Placeholder."""
