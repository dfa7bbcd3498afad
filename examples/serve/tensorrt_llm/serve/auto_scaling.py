"""Import-only model of tensorrt_llm/serve/auto_scaling.py: its import statements, plus placeholders for the names the model imports from it."""

import asyncio
import json
import os
import random
import time
from dataclasses import asdict, dataclass
from typing import List, Tuple

from tensorrt_llm.llmapi.disagg_utils import DisaggClusterConfig, ServerRole
from tensorrt_llm.logger import logger

from .cluster_storage import (
    ClusterStorage,
    StorageItem,
    WatchEvent,
    WatchEventType,
    key_time,
)
