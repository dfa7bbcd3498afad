"""Import-only model of tensorrt_llm/serve/_perf_metrics_schema.py: its import statements, plus placeholders for the names the model imports from it."""

from typing import List, Optional, Union

from typing_extensions import NotRequired, TypedDict
