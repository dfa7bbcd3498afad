"""Placeholder for tensorrt_llm._torch.pyexecutor.py_executor (not recorded; imported by the model): defines only the names the model imports from it."""


class PyExecutor:
    """Placeholder."""
