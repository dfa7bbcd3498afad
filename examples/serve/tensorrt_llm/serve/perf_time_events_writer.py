"""Import-only model of tensorrt_llm/serve/perf_time_events_writer.py: its import statements, plus placeholders for the names the model imports from it."""

import atexit
import json
import os
import queue
import sys
import threading
from typing import Optional
