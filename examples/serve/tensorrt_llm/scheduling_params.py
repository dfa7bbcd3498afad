"""Placeholder for tensorrt_llm.scheduling_params (not recorded; imported by the model): defines only the names the model imports from it."""


class AgentHierarchy:
    """Placeholder."""
