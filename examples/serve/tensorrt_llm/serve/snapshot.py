"""Import-only model of tensorrt_llm/serve/snapshot.py: its import statements, plus placeholders for the names the model imports from it."""

import hmac
import json
import os
import stat
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tensorrt_llm._torch.pyexecutor.py_executor import PyExecutor


def startup_checkpoint(*args, **kwargs):
    import torch
