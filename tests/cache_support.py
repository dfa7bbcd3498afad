"""Reading and changing the result cache's files as a test needs: the one file of verdicts a
run left, and a verdict marked so that a run printing it has reused it."""

from __future__ import annotations

import glob
import marshal
from pathlib import Path
from typing import Any


def results_file(root: Path) -> str:
    """The one results file of the cache in `root`."""
    [path] = glob.glob(str(root / ".layering_cache" / "results-*.marshal"))
    return path


def _stored(root: Path) -> dict[str, Any]:
    with open(results_file(root), "rb") as handle:
        return marshal.load(handle)


def cached_results(root: Path) -> dict[str, Any]:
    """The entry of the results file, its verdicts decoded (they are encoded apart)."""
    data = _stored(root)
    return {**data, "results": marshal.loads(data["results"])}


def mark_first_verdict(root: Path, verdict: str) -> None:
    """Write `verdict` over the first cached verdict: a run that prints it reused it."""
    data = _stored(root)
    results = marshal.loads(data["results"])
    results[0]["verdict"] = verdict
    data["results"] = marshal.dumps(results, 4)
    with open(results_file(root), "wb") as handle:
        marshal.dump(data, handle, 4)
