"""Placeholder for tensorrt_llm._torch.disaggregation.control_plane (not recorded; imported by the model): defines only the names the model imports from it."""


class ArtifactObligationRegistry:
    """Placeholder."""


class GenerationAdmissionRegistry:
    """Placeholder."""


class TerminalIdentityFilter:
    """Placeholder."""
