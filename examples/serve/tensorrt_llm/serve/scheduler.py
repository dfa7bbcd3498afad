"""Import-only model of tensorrt_llm/serve/scheduler.py: its import statements, plus placeholders for the names the model imports from it."""

import heapq
from abc import ABC, abstractmethod
from threading import Lock
from typing import List

from tensorrt_llm.serve.openai_protocol import CompletionRequest
