"""Placeholder for tensorrt_llm.disaggregated_params (not recorded; imported by the model): defines only the names the model imports from it."""


class DisaggScheduleStyle:
    """Placeholder."""


class DisaggregatedParams:
    """Placeholder."""


class TransceiverLifecycleAdvertisement:
    """Placeholder."""
