"""Import-only model of tensorrt_llm/serve/disagg_lifecycle.py: its import statements, plus placeholders for the names the model imports from it."""
from __future__ import annotations

import json
import os
import secrets
import threading
import time
from enum import Enum
from typing import Any, Dict, Optional
