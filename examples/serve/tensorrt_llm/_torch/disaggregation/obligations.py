"""Placeholder for tensorrt_llm._torch.disaggregation.obligations (not recorded; imported by the model): defines only the names the model imports from it."""


class ArtifactObligationIdentity:
    """Placeholder."""


class ArtifactObligationState:
    """Placeholder."""


class GenerationGrantIdentity:
    """Placeholder."""


class GenerationGrantState:
    """Placeholder."""


class ObligationConflictError(Exception):
    """Placeholder."""


class ReceiveCommitGate:
    """Placeholder."""


class ReceiveCommitState:
    """Placeholder."""
