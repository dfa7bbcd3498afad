"""Import-only model of tensorrt_llm/serve/anthropic_batches.py: its import statements, plus placeholders for the names the model imports from it."""
from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any, Awaitable, Callable, Dict, List, Literal, Optional, Tuple

from tensorrt_llm.logger import logger
from tensorrt_llm.serve.anthropic_protocol import (
    AnthropicBatchRequestCounts,
    AnthropicBatchRequestItem,
    AnthropicMessageBatch,
    AnthropicMessagesRequest,
)
