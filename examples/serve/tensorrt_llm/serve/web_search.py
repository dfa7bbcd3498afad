"""Import-only model of tensorrt_llm/serve/web_search.py: its import statements, plus placeholders for the names the model imports from it."""

import asyncio
import html
import json
import os
import re
from dataclasses import dataclass, field
from typing import Any, List, Optional, Sequence
from urllib.parse import quote_plus, urlparse

import aiohttp

from tensorrt_llm.logger import logger


# Placeholders for the names the model imports from this module.
class SearchOutcome:
    """Placeholder."""


class WebSearchToolSpec:
    """Placeholder."""


def load_web_search_config(*args, **kwargs):
    """Placeholder."""
