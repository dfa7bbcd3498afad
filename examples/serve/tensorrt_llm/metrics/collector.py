"""Placeholder for tensorrt_llm.metrics.collector (not recorded; imported by the model): defines only the names the model imports from it."""


class MetricsCollector:
    """Placeholder."""
