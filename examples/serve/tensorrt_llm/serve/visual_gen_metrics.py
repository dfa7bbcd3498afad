"""Import-only model of tensorrt_llm/serve/visual_gen_metrics.py: its import statements, plus placeholders for the names the model imports from it."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from tensorrt_llm.visual_gen.output import VisualGenMetrics
