"""Import-only model of tensorrt_llm/__init__.py: its import statements, plus placeholders for the names the model imports from it."""

import sys

from ._bootstrap import (
    _init,
    _prepare_environment,
    _prepare_native_environment,
)

import importlib
from typing import TYPE_CHECKING

import torch

from ._backend import select_backend
from .logger import logger
from .version import __version__

from trtllm_profile import enable_from_argv

if TYPE_CHECKING:
    import tensorrt_llm._torch.models as torch_models
    import tensorrt_llm.math_utils as math_utils
    import tensorrt_llm.models as models
    import tensorrt_llm.quantization as quantization
    import tensorrt_llm.runtime as runtime
    import tensorrt_llm.tools as tools
    from ._mnnvl_utils import MnnvlMemory, MnnvlMoe, MoEAlltoallInfo
    from ._utils import (
        default_gpus_per_node,
        local_mpi_rank,
        local_mpi_size,
        mpi_barrier,
        mpi_comm,
        mpi_rank,
        mpi_world_size,
        set_mpi_comm,
        str_dtype_to_torch,
    )
    from .disaggregated_params import DisaggregatedParams
    from .llmapi import LLM, AsyncLLM, KvCacheConfig, MultimodalEncoder
    from .llmapi.llm_args import LlmArgs, TorchLlmArgs
    from .mapping import Mapping
    from .models.automodel import AutoConfig, AutoModelForCausalLM
    from .sampling_params import SamplingParams
    from .visual_gen import (
        ExtraParamSchema,
        VisualGen,
        VisualGenArgs,
        VisualGenMetrics,
        VisualGenOutput,
        VisualGenParams,
        VisualGenResult,
    )

# Public name -> (source module, attribute); attribute None = the module itself.
_LAZY_ATTRS = {
    'torch_models': ('tensorrt_llm._torch.models', None),
    'math_utils': ('tensorrt_llm.math_utils', None),
    'models': ('tensorrt_llm.models', None),
    'quantization': ('tensorrt_llm.quantization', None),
    'runtime': ('tensorrt_llm.runtime', None),
    'tools': ('tensorrt_llm.tools', None),
    'MnnvlMemory': ('tensorrt_llm._mnnvl_utils', 'MnnvlMemory'),
    'MnnvlMoe': ('tensorrt_llm._mnnvl_utils', 'MnnvlMoe'),
    'MoEAlltoallInfo': ('tensorrt_llm._mnnvl_utils', 'MoEAlltoallInfo'),
    'default_gpus_per_node': ('tensorrt_llm._utils', 'default_gpus_per_node'),
    'local_mpi_rank': ('tensorrt_llm._utils', 'local_mpi_rank'),
    'local_mpi_size': ('tensorrt_llm._utils', 'local_mpi_size'),
    'mpi_barrier': ('tensorrt_llm._utils', 'mpi_barrier'),
    'mpi_comm': ('tensorrt_llm._utils', 'mpi_comm'),
    'mpi_rank': ('tensorrt_llm._utils', 'mpi_rank'),
    'mpi_world_size': ('tensorrt_llm._utils', 'mpi_world_size'),
    'set_mpi_comm': ('tensorrt_llm._utils', 'set_mpi_comm'),
    'str_dtype_to_torch': ('tensorrt_llm._utils', 'str_dtype_to_torch'),
    'DisaggregatedParams': ('tensorrt_llm.disaggregated_params', 'DisaggregatedParams'),
    'LLM': ('tensorrt_llm.llmapi', 'LLM'),
    'AsyncLLM': ('tensorrt_llm.llmapi', 'AsyncLLM'),
    'KvCacheConfig': ('tensorrt_llm.llmapi', 'KvCacheConfig'),
    'MultimodalEncoder': ('tensorrt_llm.llmapi', 'MultimodalEncoder'),
    'LlmArgs': ('tensorrt_llm.llmapi.llm_args', 'LlmArgs'),
    'TorchLlmArgs': ('tensorrt_llm.llmapi.llm_args', 'TorchLlmArgs'),
    'Mapping': ('tensorrt_llm.mapping', 'Mapping'),
    'AutoConfig': ('tensorrt_llm.models.automodel', 'AutoConfig'),
    'AutoModelForCausalLM': ('tensorrt_llm.models.automodel', 'AutoModelForCausalLM'),
    'SamplingParams': ('tensorrt_llm.sampling_params', 'SamplingParams'),
    'ExtraParamSchema': ('tensorrt_llm.visual_gen', 'ExtraParamSchema'),
    'VisualGen': ('tensorrt_llm.visual_gen', 'VisualGen'),
    'VisualGenArgs': ('tensorrt_llm.visual_gen', 'VisualGenArgs'),
    'VisualGenMetrics': ('tensorrt_llm.visual_gen', 'VisualGenMetrics'),
    'VisualGenOutput': ('tensorrt_llm.visual_gen', 'VisualGenOutput'),
    'VisualGenParams': ('tensorrt_llm.visual_gen', 'VisualGenParams'),
    'VisualGenResult': ('tensorrt_llm.visual_gen', 'VisualGenResult'),
}


def __getattr__(name):
    entry = _LAZY_ATTRS.get(name)
    if entry is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module_name, attr = entry
    module = importlib.import_module(module_name)
    value = module if attr is None else getattr(module, attr)
    globals()[name] = value
    return value
