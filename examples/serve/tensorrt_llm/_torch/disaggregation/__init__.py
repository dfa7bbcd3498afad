"""Placeholder for tensorrt_llm._torch.disaggregation (not recorded; imported by the model): defines only the names the model imports from it."""
