"""The benchmark (`bench/run.py` and its package `bench/layering_bench/`) is not installed: put
`bench/` on the path, as running `python bench/run.py` does, so that `layering_bench` imports."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
