"""Placeholder for tensorrt_llm._torch.multimodal.mm_encoder (not recorded; imported by the model): defines only the names the model imports from it."""


class MultimodalEncoder:
    """Placeholder."""
