"""Placeholder for tensorrt_llm.version (not recorded; imported by the model): defines only the names the model imports from it."""


__version__ = "0.0.0+model"
