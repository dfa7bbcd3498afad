"""Import-only model of tensorrt_llm/serve/cluster_management.py: its import statements, plus placeholders for the names the model imports from it."""

import asyncio
import json
import os
import random
import time
from dataclasses import asdict, dataclass
from typing import List, Literal, Tuple

from tensorrt_llm.llmapi.disagg_utils import DisaggClusterConfig, ServerRole

from .cluster_storage import ClusterStorage, WatchEvent, WatchEventType, logger
