"""Import-only model of tensorrt_llm/serve/disagg_auto_scaling.py: its import statements, plus placeholders for the names the model imports from it."""

import asyncio
import json
import os
import random
import time
from dataclasses import asdict, dataclass
from typing import Any, Dict, List, Tuple

from tensorrt_llm.llmapi.disagg_utils import DisaggClusterConfig, ServerRole
from tensorrt_llm.logger import logger

from .cluster_storage import (
    ClusterStorage,
    StorageItem,
    WatchEvent,
    WatchEventType,
    key_time,
)


# Placeholders for the names the model imports from this module.
class DisaggClusterManager:
    """Placeholder."""


class DisaggClusterWorker:
    """Placeholder."""


class WorkerInfo:
    """Placeholder."""
