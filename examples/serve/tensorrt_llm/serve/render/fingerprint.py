"""Import-only model of tensorrt_llm/serve/render/fingerprint.py: its import statements, plus placeholders for the names the model imports from it."""
from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any, Dict, Optional

if TYPE_CHECKING:
    from .resources import RenderResources


# Placeholders for the names the model imports from this module.
def compute_fingerprint(*args, **kwargs):
    """Placeholder."""


def fingerprints_match(*args, **kwargs):
    """Placeholder."""


def _harmony_identity(*args, **kwargs):
    try:
        from importlib.metadata import version
    except Exception:  # handler not recorded
        pass
