"""Import-only model of tensorrt_llm/serve/app.py: its import statements, plus placeholders for the names the model imports from it."""

from fastapi import FastAPI
