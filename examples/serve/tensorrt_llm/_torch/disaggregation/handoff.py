"""Placeholder for tensorrt_llm._torch.disaggregation.handoff (not recorded; imported by the model): defines only the names the model imports from it."""


class HandoffEventState:
    """Placeholder."""


class HandoffLifecycleEvent:
    """Placeholder."""
