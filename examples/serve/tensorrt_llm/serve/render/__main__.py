"""Import-only model of tensorrt_llm/serve/render/__main__.py: its import statements, plus placeholders for the names the model imports from it."""
from __future__ import annotations

import argparse
import sys
from typing import List, Optional


def main(*args, **kwargs):
    import uvicorn
    from ._http import build_render_app
    from .resources import RenderResources
