"""Placeholder for tensorrt_llm._torch.disaggregation.protocol (not recorded; imported by the model): defines only the names the model imports from it."""


class AttemptIdentity:
    """Placeholder."""


class EndpointIdentity:
    """Placeholder."""


class TransferProtocolIdentity:
    """Placeholder."""
