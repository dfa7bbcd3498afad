"""Import-only model of tensorrt_llm/serve/perf_metrics.py: its import statements, plus placeholders for the names the model imports from it."""

import asyncio
from collections import defaultdict, deque
from dataclasses import dataclass
from typing import Any, Dict, List, Literal, Optional

from tensorrt_llm.llmapi.disagg_utils import ServerRole


# Placeholders for the names the model imports from this module.
class ClientMetricsCollector:
    """Placeholder."""


class DisaggPerfMetricsCollector:
    """Placeholder."""


RETURN_METRICS_HEADER = 'RETURN_METRICS_HEADER'  # placeholder


SSE_METRICS_EVENT = 'SSE_METRICS_EVENT'  # placeholder


_PERF_METRICS_HEADER_BUDGET_BYTES = '_PERF_METRICS_HEADER_BUDGET_BYTES'  # placeholder


def adjusted_clock_from_headers(*args, **kwargs):
    """Placeholder."""


def build_metrics_record_from_headers(*args, **kwargs):
    """Placeholder."""


def instance_metric(*args, **kwargs):
    from prometheus_client import Counter, Histogram
