"""Import-only model of tensorrt_llm/serve/metadata_server.py: its import statements, plus placeholders for the names the model imports from it."""

import json
from abc import ABC, abstractmethod
from typing import Optional

import etcd3

from tensorrt_llm.llmapi.disagg_utils import MetadataServerConfig


# Placeholders for the names the model imports from this module.
class JsonDictionary:
    """Placeholder."""


def create_metadata_server(*args, **kwargs):
    """Placeholder."""
