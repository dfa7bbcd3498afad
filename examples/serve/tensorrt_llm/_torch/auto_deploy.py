"""Placeholder for tensorrt_llm._torch.auto_deploy (not recorded; imported by the model): defines only the names the model imports from it."""


LLM = 'LLM'  # placeholder
