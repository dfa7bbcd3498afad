"""Import-only model of tensorrt_llm/serve/api/ops/system/router.py (added by the refactor): the system router (/health, /version, /v1/models) and its RouterSpec."""

from fastapi import Request

from tensorrt_llm.serve._base.routing import RouterSpec, make_router

from .serving import SystemServing
