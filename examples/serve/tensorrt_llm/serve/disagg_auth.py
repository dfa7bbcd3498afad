"""Import-only model of tensorrt_llm/serve/disagg_auth.py: its import statements, plus placeholders for the names the model imports from it."""

import hashlib
import hmac
import json
from typing import Any, Mapping, Optional

from tensorrt_llm.serve.openai_protocol import UCompletionRequest


# Placeholders for the names the model imports from this module.
def build_internal_disagg_auth_headers(*args, **kwargs):
    """Placeholder."""


def build_subagent_affinity_headers(*args, **kwargs):
    """Placeholder."""


def request_requires_internal_disagg_auth(*args, **kwargs):
    """Placeholder."""
