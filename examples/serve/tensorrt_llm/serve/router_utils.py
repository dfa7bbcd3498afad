"""Import-only model of tensorrt_llm/serve/router_utils.py: its import statements, plus placeholders for the names the model imports from it."""

import os
from collections import OrderedDict
from typing import Iterable, List, Optional, Union

from tensorrt_llm.bindings.internal.batch_manager import BlockKey as _NativeBlockKey
from tensorrt_llm.bindings.internal.batch_manager import BlockKeyHasher as _NativeBlockKeyHasher
from tensorrt_llm.logger import logger
from tensorrt_llm.runtime import kv_cache_hash
from tensorrt_llm.runtime.kv_cache_manager_v2 import ReuseScope, sequence_to_blockchain_keys
from tensorrt_llm.serve.chat_tokenization import (
    resolve_model_type_from_config,
    tokenize_chat_request_for_serving,
    uses_harmony_tokenization,
)
from tensorrt_llm.serve.openai_protocol import ChatCompletionRequest, CompletionRequest
from tensorrt_llm.serve.render import (
    RenderResources,
    UnsupportedRenderError,
    fingerprints_match,
    legacy_render_enabled,
    render_chat,
)


class BlockHashMixin:
    def _get_tokenizer(self, *args, **kwargs):
        if True:
            if True:
                from tensorrt_llm.tokenizer import load_custom_tokenizer
            else:
                from tensorrt_llm.tokenizer import TransformersTokenizer
