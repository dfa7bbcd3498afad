"""Import-only model of tensorrt_llm/serve/api/ops/__init__.py (added by the refactor): operational endpoint packages (imports nothing)."""
