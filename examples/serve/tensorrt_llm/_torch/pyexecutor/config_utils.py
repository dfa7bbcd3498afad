"""Placeholder for tensorrt_llm._torch.pyexecutor.config_utils (not recorded; imported by the model): defines only the names the model imports from it."""


def load_pretrained_config(*args, **kwargs):
    """Placeholder."""
