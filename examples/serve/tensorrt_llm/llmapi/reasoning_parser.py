"""Placeholder for tensorrt_llm.llmapi.reasoning_parser (not recorded; imported by the model): defines only the names the model imports from it."""


class BaseReasoningParser:
    """Placeholder."""


class ReasoningParserFactory:
    """Placeholder."""


class ReasoningParserResult:
    """Placeholder."""
