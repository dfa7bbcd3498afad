"""Placeholder for tensorrt_llm.llmapi (not recorded; imported by the model): defines only the names the model imports from it."""


class AsyncLLM:
    """Placeholder."""


class ConversationParams:
    """Placeholder."""


class DisaggScheduleStyle:
    """Placeholder."""


class DisaggregatedParams:
    """Placeholder."""


class GuidedDecodingParams:
    """Placeholder."""


class KvCacheConfig:
    """Placeholder."""


LLM = 'LLM'  # placeholder


class MultimodalEncoder:
    """Placeholder."""


class SamplingParams:
    """Placeholder."""


class SchedulingParams:
    """Placeholder."""


class VisualGen:
    """Placeholder."""


class VisualGenParams:
    """Placeholder."""
