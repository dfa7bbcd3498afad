"""Placeholder for tensorrt_llm.executor.postproc_worker (not recorded; imported by the model): defines only the names the model imports from it."""


class PostprocArgs:
    """Placeholder."""


class PostprocParams:
    """Placeholder."""
