"""Import-only model of tensorrt_llm/serve/media_storage.py: its import statements, plus placeholders for the names the model imports from it."""

import os
import shutil
import struct
import subprocess
import tempfile
from abc import ABC, abstractmethod
from io import BytesIO
from pathlib import Path
from typing import Any, List, Optional, Tuple

import torch
from PIL import Image

from tensorrt_llm.logger import logger


# Placeholders for the names the model imports from this module.
def resolve_video_format(*args, **kwargs):
    """Placeholder."""


class FfmpegCliEncoder:
    def _write_wav(self, *args, **kwargs):
        import wave
        import numpy as np


class MediaStorage:
    def convert_video_to_bytes(self, *args, **kwargs):
        import tempfile
