"""Import-only model of tensorrt_llm/serve/api/ops/system/__init__.py (added by the refactor): /health, /version and /v1/models for every role (imports nothing)."""
