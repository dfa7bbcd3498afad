"""Import-only model of tensorrt_llm/serve/_base/msgspec_route.py (added by the refactor): _msgpack_decoder, _MsgspecRequest and _MsgspecRoute, moved out of openai_server.py."""

from typing import Any, Callable

import msgspec
from fastapi import Request, Response
from fastapi.routing import APIRoute


# Placeholders for the names the model imports from this module.
class _MsgspecRoute:
    """Placeholder."""
