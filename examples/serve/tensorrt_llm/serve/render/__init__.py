"""Import-only model of tensorrt_llm/serve/render/__init__.py: its import statements, plus placeholders for the names the model imports from it."""

from .api_router import attach_render_routes, render_endpoints_enabled
from .chat import (
    PreparedChat,
    arender_chat,
    legacy_render_enabled,
    prepare_chat_request,
    render_chat,
    render_conversation,
    tokenize_rendered,
)
from .fingerprint import compute_fingerprint, fingerprints_match
from .generate import attach_generate_route, mount_render_endpoints
from .prompt_types import (
    GENERATE_REQUEST_SCHEMA_VERSION,
    GenerateRequest,
    PreparedContext,
    RenderedPrompt,
    UnsupportedRenderError,
)
from .resources import RenderResources, harmony_enabled_for
from .serving import RenderRequestError, ServingRender
