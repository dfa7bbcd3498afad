"""Import-only model of tensorrt_llm/serve/conversation_id.py: its import statements, plus placeholders for the names the model imports from it."""

from typing import Any, Mapping, Optional, Protocol


def resolve_request_conversation_id(*args, **kwargs):
    if True:
        from tensorrt_llm.serve.openai_protocol import ConversationParams
