"""Import-only model of tensorrt_llm/serve/api/__init__.py (added by the refactor): endpoint packages, one router plus one serving class each; imports nothing so routers load lazily, by role."""
