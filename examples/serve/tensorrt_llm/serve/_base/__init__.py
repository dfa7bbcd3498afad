"""Import-only model of tensorrt_llm/serve/_base/__init__.py (added by the refactor): shared serving infrastructure of both servers (imports nothing)."""
