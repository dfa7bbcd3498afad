"""Import-only model of tensorrt_llm/serve/generator_ipc.py: its import statements, plus placeholders for the names the model imports from it."""
from __future__ import annotations

import asyncio
import dataclasses
import inspect
import os
import queue
import threading
import time
import traceback
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Optional

import zmq

from tensorrt_llm.executor.ipc import ZeroMqQueue


# Placeholders for the names the model imports from this module.
class GeneratorIpcClient:
    """Placeholder."""


class GeneratorIpcServer:
    """Placeholder."""


def _snapshot_visual_output(*args, **kwargs):
    import torch


def _restore_visual_output(*args, **kwargs):
    import torch
    from tensorrt_llm.visual_gen.output import VisualGenOutput


def _prepare_unary_payload(*args, **kwargs):
    from tensorrt_llm.visual_gen.output import VisualGenOutput
