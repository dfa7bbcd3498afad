"""Placeholder for tensorrt_llm.math_utils (not recorded; imported by the model): defines only the names the model imports from it."""
