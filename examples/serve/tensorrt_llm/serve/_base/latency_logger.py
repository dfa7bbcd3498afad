"""Import-only model of tensorrt_llm/serve/_base/latency_logger.py (added by the refactor): PeriodicLatencyLogger, moved verbatim out of responses_utils.py (#21510)."""

import time
from typing import Optional

from tensorrt_llm.logger import logger


# Placeholders for the names the model imports from this module.
class PeriodicLatencyLogger:
    """Placeholder."""
