"""Import-only model of tensorrt_llm/serve/http_fleet.py: its import statements, plus placeholders for the names the model imports from it."""
from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Optional, Sequence

import uvloop

from tensorrt_llm.logger import logger

if TYPE_CHECKING:
    from tensorrt_llm.inputs.multimodal import MultimodalServerConfig
    from tensorrt_llm.llmapi.disagg_utils import (
        DisaggClusterConfig,
        MetadataServerConfig,
        ServerRole,
    )


def _create_generator(*args, **kwargs):
    if True:
        from tensorrt_llm import LLM
    if True:
        from tensorrt_llm._torch.auto_deploy import LLM
    if True:
        from tensorrt_llm import MultimodalEncoder
    if True:
        from tensorrt_llm.visual_gen import VisualGen
        from tensorrt_llm.visual_gen.args import VisualGenArgs


def _run_generator_process(*args, **kwargs):
    from .generator_ipc import GeneratorIpcClient, GeneratorIpcServer
    from .generator_proxy import GeneratorService


def _run_frontend_process(*args, **kwargs):
    from .generator_proxy import GeneratorProxy
    from .openai_server import OpenAIServer
    if True:
        from tensorrt_llm.commands.serve import _apply_fastapi_middlewares


def run_generator_http_fleet(*args, **kwargs):
    from tensorrt_llm._utils import set_prometheus_multiproc_dir
    from tensorrt_llm.llmapi.mpi_session import find_free_ipc_addr
