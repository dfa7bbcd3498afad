"""Import-only model of tensorrt_llm/serve/encode_batcher.py: its import statements, plus placeholders for the names the model imports from it."""

import asyncio
from dataclasses import dataclass
from typing import Any, Callable, List, Optional


# Placeholders for the names the model imports from this module.
class EncodeBatcher:
    """Placeholder."""
