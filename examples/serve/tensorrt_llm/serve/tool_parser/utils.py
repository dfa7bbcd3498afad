"""Import-only model of tensorrt_llm/serve/tool_parser/utils.py: its import statements, plus placeholders for the names the model imports from it."""

import json
from json import JSONDecodeError, JSONDecoder
from json.decoder import WHITESPACE
from typing import Any, Dict, Optional

import partial_json_parser
from partial_json_parser.core.options import Allow


# Placeholders for the names the model imports from this module.
def find_common_prefix(*args, **kwargs):
    """Placeholder."""


def infer_type_from_json_schema(*args, **kwargs):
    """Placeholder."""


def is_complete_json(*args, **kwargs):
    """Placeholder."""


def partial_json_loads(*args, **kwargs):
    """Placeholder."""
