"""Import-only model of tensorrt_llm/serve/_frontend_processes.py: its import statements, plus placeholders for the names the model imports from it."""

import json
import os
import select

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import NamedTuple

from tensorrt_llm.llmapi.mpi_session import split_mpi_env
from tensorrt_llm.logger import logger


def _spawn_attached_frontends(*args, **kwargs):
    from tensorrt_llm.executor.proxy import GenerationExecutorProxy
