"""Import-only model of tensorrt_llm/serve/openai_disagg_service.py: its import statements, plus placeholders for the names the model imports from it.

Refactor edits to the recorded imports:
- responses_utils import -> `_base.service_types` (ResponseHooks, UCompletionResponseOrGenerator, done_generator); added `from tensorrt_llm.serve._base.responses_stream import responses_done_generator` (the seed's former allowance, now taken from the new module)
"""

import asyncio
import os
from typing import Any, Callable, Dict, Optional

from tensorrt_llm.llmapi.disagg_utils import (
    ConditionalDisaggConfig,
    DisaggClusterConfig,
    DisaggServerConfig,
    MetadataServerConfig,
    ServerRole,
    get_global_disagg_request_id,
)
from tensorrt_llm.logger import logger
from tensorrt_llm.serve.cluster_storage import ClusterStorage, WatchEventType
from tensorrt_llm.serve.disagg_auto_scaling import DisaggClusterManager, WorkerInfo
from tensorrt_llm.serve.metadata_server import JsonDictionary
from tensorrt_llm.serve.openai_client import OpenAIClient
from tensorrt_llm.serve.openai_protocol import (
    ChatCompletionRequest,
    CompletionRequest,
    DisaggregatedParams,
    DisaggScheduleStyle,
    UCompletionRequest,
    UCompletionResponse,
)
from tensorrt_llm.serve.openai_service import OpenAIService
from tensorrt_llm.serve.perf_metrics import DisaggPerfMetricsCollector
from tensorrt_llm.serve._base.responses_stream import responses_done_generator
from tensorrt_llm.serve._base.service_types import (
    ResponseHooks,
    UCompletionResponseOrGenerator,
    done_generator,
)
from tensorrt_llm.serve.router import KvCacheAwareRouter, Router


# Placeholders for the names the model imports from this module.
class OpenAIDisaggregatedService:
    """Placeholder."""
