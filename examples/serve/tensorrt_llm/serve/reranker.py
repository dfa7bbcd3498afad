"""Import-only model of tensorrt_llm/serve/reranker.py: its import statements, plus placeholders for the names the model imports from it."""

import math
from typing import Protocol
