"""The benchmark's helpers (`bench/*.py`) are scripts, not a package: make them importable."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
