"""Import-only model of tensorrt_llm/serve/cluster_storage.py: its import statements, plus placeholders for the names the model imports from it."""

import abc
import asyncio
import hmac
import importlib.metadata as importlib_metadata
import importlib.util
import sys
import time
from dataclasses import dataclass
from enum import IntEnum
from functools import wraps
from typing import Annotated, Callable, Dict, List, Optional
from urllib.parse import urlparse

import aiohttp
from fastapi import Depends, FastAPI, HTTPException, Security
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel

from tensorrt_llm.logger import logger


# Placeholders for the names the model imports from this module.
class ClusterStorage:
    """Placeholder."""


class HttpClusterStorageServer:
    """Placeholder."""


class StorageItem:
    """Placeholder."""


class WatchEvent:
    """Placeholder."""


class WatchEventType:
    """Placeholder."""


def create_cluster_storage(*args, **kwargs):
    """Placeholder."""


def create_cluster_storage_client(*args, **kwargs):
    """Placeholder."""


def key_time(*args, **kwargs):
    """Placeholder."""


def validate_http_cluster_storage_scope(*args, **kwargs):
    """Placeholder."""
