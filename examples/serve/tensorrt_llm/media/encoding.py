"""Placeholder for tensorrt_llm.media.encoding (not recorded; imported by the model): defines only the names the model imports from it."""


def resolve_video_format(*args, **kwargs):
    """Placeholder."""
