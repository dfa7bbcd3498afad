"""Import-only model of tensorrt_llm/serve/control_plane.py: its import statements, plus placeholders for the names the model imports from it."""

import traceback
from http import HTTPStatus
from typing import Callable, List, Optional

from fastapi import FastAPI
from starlette.responses import JSONResponse, Response

from tensorrt_llm.executor.request import TruncateKVCacheRequest
from tensorrt_llm.inputs.utils import ConversationMessage, apply_chat_template
from tensorrt_llm.logger import logger
from tensorrt_llm.serve.chat_utils import parse_chat_messages_coroutines
from tensorrt_llm.serve.openai_protocol import KVCacheTruncateRequest


class KVCacheControlPlane:
    def _truncate_kv_cache_harmony(self, *args, **kwargs):
        try:
            from tensorrt_llm.serve.harmony_adapter import maybe_transform_reasoning_effort
        except Exception:  # handler not recorded
            pass
