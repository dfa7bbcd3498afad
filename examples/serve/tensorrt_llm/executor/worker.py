"""Placeholder for tensorrt_llm.executor.worker (not recorded; imported by the model): defines only the names the model imports from it."""
