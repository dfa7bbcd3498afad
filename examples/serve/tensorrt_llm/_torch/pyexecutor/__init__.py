"""Placeholder for tensorrt_llm._torch.pyexecutor (not recorded; imported by the model): defines only the names the model imports from it."""
