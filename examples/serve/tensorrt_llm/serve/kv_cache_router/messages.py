"""Import-only model of tensorrt_llm/serve/kv_cache_router/messages.py: its import statements, plus placeholders for the names the model imports from it."""

from dataclasses import dataclass, field
from typing import List, Optional


# Placeholders for the names the model imports from this module.
class KvCacheEventReport:
    """Placeholder."""


class Selection:
    """Placeholder."""


class WorkerLoadReport:
    """Placeholder."""
