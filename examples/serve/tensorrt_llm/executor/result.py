"""Placeholder for tensorrt_llm.executor.result (not recorded; imported by the model): defines only the names the model imports from it."""


class DetokenizedGenerationResultBase:
    """Placeholder."""


class GenerationResult:
    """Placeholder."""


class GenerationResultBase:
    """Placeholder."""


class Logprob:
    """Placeholder."""


class TokenLogprobs:
    """Placeholder."""
