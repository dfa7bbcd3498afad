"""Import-only model of tensorrt_llm/serve/_base/routing.py (added by the refactor): make_router() (always the msgpack route class), attach_routers() (imports only the routers whose RouterSpec matches the server role, by module name) and RouterSpec."""

import importlib
from dataclasses import dataclass
from typing import Callable, Iterable, Optional

from fastapi import APIRouter, FastAPI

from tensorrt_llm.serve._base.msgspec_route import _MsgspecRoute


# Placeholders for the names the model imports from this module.
class RouterSpec:
    """Placeholder."""


def attach_routers(*args, **kwargs):
    """Placeholder."""


def make_router(*args, **kwargs):
    """Placeholder."""
