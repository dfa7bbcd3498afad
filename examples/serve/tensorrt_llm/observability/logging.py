"""Placeholder for tensorrt_llm.observability.logging (not recorded; imported by the model): defines only the names the model imports from it."""


logger = object()  # placeholder
