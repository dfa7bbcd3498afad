"""Reading and changing the result cache's files as a test needs: the one file of verdicts a
run left, and a verdict marked so that a run printing it has reused it."""

from __future__ import annotations

import glob
import json
import marshal
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def results_file(root: Path) -> str:
    """The one results file of the cache in `root`."""
    [path] = glob.glob(str(root / ".layering_cache" / "results-*.marshal"))
    return path


def read_cache_file(path: str | Path) -> Any:
    """A cache file's data, as layering reads it (its checksum checked)."""
    from layering.adapters.cache_files import read_marshal
    from layering.adapters.import_cache import FORMAT as IMPORTS_FORMAT
    from layering.adapters.result_cache import FORMAT

    return read_marshal(
        str(path), IMPORTS_FORMAT if str(path).endswith("imports.marshal") else FORMAT
    )


def write_cache_file(path: str | Path, data: Any) -> None:
    """Replace a cache file by `data`, as layering writes it (with its checksum): a test's own
    change that the cache takes as its own."""
    from layering.adapters.cache_files import write_marshal
    from layering.adapters.import_cache import FORMAT as IMPORTS_FORMAT
    from layering.adapters.result_cache import FORMAT

    write_marshal(
        str(path), data, IMPORTS_FORMAT if str(path).endswith("imports.marshal") else FORMAT
    )


def _stored(root: Path) -> dict[str, Any]:
    return read_cache_file(results_file(root))


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
    write_cache_file(results_file(root), data)


EDIT_DURING = """
import json, os, sys

phase, plan = sys.argv[1], sys.argv[2]
applied = []
with open(plan, encoding="utf-8") as handle:
    changes, read_first = json.load(handle)


def apply():
    if applied:
        return
    applied.append(True)
    for path, text in changes.items():
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    os.remove(plan)


if phase == "walked":
    from layering.engine import evidence

    walk = evidence.find_package_files

    def walked(*args, **options):
        found = walk(*args, **options)
        apply()
        return found

    evidence.find_package_files = walked
elif phase == "scanned":
    from layering.adapters import grimp_scan

    read = grimp_scan._Scanner.read

    def scanned(self, modules):
        read(self, modules)
        if read_first is None or read_first in self.read_modules:
            apply()

    grimp_scan._Scanner.read = scanned
elif phase == "read_again":
    from layering.adapters import grimp_scan

    read_modules = grimp_scan.read_modules

    def read_again(*args, **options):
        found = read_modules(*args, **options)
        apply()
        return found

    grimp_scan.read_modules = read_again
else:
    from layering.deciding import fresh as deciding

    decide = deciding.decide

    def decided(contract, evidence, shares):
        result = decide(contract, evidence, shares)
        apply()
        return result

    deciding.decide = decided

sys.argv = ["layering", *sys.argv[3:]]
from layering.cli import run

run()
"""
"""`python -c EDIT_DURING PHASE PLAN ARGS...` is `layering ARGS...` that, at one moment of the
run, writes the files PLAN (a JSON file: path -> text) names, then removes PLAN: once the package
is walked (`walked`), once grimp has read files (`scanned`: before a run with nothing cached has
them hashed), once the files an edit changed are read again (`read_again`), once a contract is
decided (`decided`: names and lines read, the cache not yet written)."""

PHASES = ("walked", "scanned", "read_again", "decided")


def check_with_edit_during(
    root: Path, phase: str, changes: dict[str, str], *args: str, read_first: str | None = None
) -> subprocess.CompletedProcess:
    """`layering check ARGS` in `root`, the files `changes` names written (path -> text) during
    it at `phase` (see `EDIT_DURING`; at `scanned`, once grimp has read module `read_first`),
    or after it where the run never came to that moment (every verdict came from the cache)."""
    plan = root / "edit-during.json"
    plan.write_text(json.dumps([changes, read_first]), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "PYTHONPATH")}
    during = subprocess.run(
        [sys.executable, "-c", EDIT_DURING, phase, str(plan), "check", *args],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    if plan.exists():
        for path, text in changes.items():
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
        plan.unlink()
    return during
