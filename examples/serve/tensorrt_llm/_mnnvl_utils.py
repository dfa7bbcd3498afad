"""Placeholder for tensorrt_llm._mnnvl_utils (not recorded; imported by the model): defines only the names the model imports from it."""


class MnnvlMemory:
    """Placeholder."""


class MnnvlMoe:
    """Placeholder."""


class MoEAlltoallInfo:
    """Placeholder."""
