"""Placeholder for tensorrt_llm.bindings.internal.batch_manager (not recorded; imported by the model): defines only the names the model imports from it."""


class BlockKey:
    """Placeholder."""


class BlockKeyHasher:
    """Placeholder."""
