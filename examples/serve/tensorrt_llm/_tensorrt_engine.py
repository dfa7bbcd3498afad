"""Placeholder for tensorrt_llm._tensorrt_engine (not recorded; imported by the model): defines only the names the model imports from it."""


LLM = 'LLM'  # placeholder
