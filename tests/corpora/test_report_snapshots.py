"""What users see on real code, kept: the reports of the benchmark's workloads on its four
corpora (django, sympy, transformers, homeassistant), byte for byte, with and without the
cache. A change of structure must leave every one of them as it was; a change of behaviour
updates them on purpose (`LAYERING_UPDATE_SNAPSHOTS=1`), and the diff is reviewed.

The corpora are what `bench/run.py` downloads into `.bench_scratch/corpora` (or the directory
`LAYERING_CORPORA` names), with the workloads' configurations it writes there. The test runs
when asked (`LAYERING_SNAPSHOTS=1`: about two minutes on two cores), and where the corpora are
missing it is skipped, saying so."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
CORPORA = Path(os.environ.get("LAYERING_CORPORA", REPOSITORY / ".bench_scratch" / "corpora"))
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
UPDATE = os.environ.get("LAYERING_UPDATE_SNAPSHOTS") == "1"
ASKED = UPDATE or os.environ.get("LAYERING_SNAPSHOTS") == "1"

CASES = [
    (corpus, workload, report)
    for corpus in ("django", "sympy", "transformers", "homeassistant")
    for workload in ("b", "c", "cut")
    for report in ("text", "json")
    if not (corpus == "homeassistant" and workload == "cut")  # the benchmark has no cut there
    if report == "text" or workload != "c"  # a broken layers contract's JSON runs to megabytes
]


def report_of(corpus_dir: Path, workload: str, report: str, *args: str) -> tuple[int, str]:
    """`layering check` of a workload in its corpus directory, as the benchmark runs it, the
    corpus's absolute path written as `<corpus>` (the JSON report names the configuration)."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "PYTHONPATH")}
    ran = subprocess.run(
        [
            sys.executable,
            "-m",
            "layering",
            "check",
            f"bench_{workload}.layering.toml",
            "--format",
            report,
            *args,
        ],
        cwd=corpus_dir,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert ran.returncode in (0, 1), ran.stderr
    return ran.returncode, ran.stdout.replace(str(corpus_dir), "<corpus>")


@pytest.mark.parametrize("corpus, workload, report", CASES, ids=["-".join(c) for c in CASES])
def test_reports_on_the_corpora_are_as_kept(corpus, workload, report, tmp_path):
    if not ASKED:
        pytest.skip(
            "the reports on the benchmark's corpora are checked when asked: LAYERING_SNAPSHOTS=1"
        )
    corpus_dir = CORPORA / corpus
    if not (corpus_dir / f"bench_{workload}.layering.toml").is_file():
        pytest.skip(
            f"no {corpus} corpus with workload {workload} in {CORPORA} (python bench/run.py "
            "downloads it)"
        )
    work = (
        tmp_path / corpus
    )  # the corpus's own cache left alone: a run from an empty cache, then a warm one
    work.mkdir()
    for entry in corpus_dir.iterdir():
        if entry.name != ".layering_cache":
            (work / entry.name).symlink_to(entry)
    uncached = report_of(work, workload, report, "--no-cache")
    cold = report_of(work, workload, report)
    warm = report_of(work, workload, report)
    assert cold == uncached and warm == uncached, "a cached report differs from the uncached one"
    snapshot = SNAPSHOTS / f"{corpus}-{workload}.{'txt' if report == 'text' else report}"
    kept = f"exit {uncached[0]}\n{uncached[1]}"
    if UPDATE or not snapshot.exists():
        SNAPSHOTS.mkdir(exist_ok=True)
        snapshot.write_text(kept, encoding="utf-8")
        if not UPDATE:
            pytest.fail(f"no snapshot yet: wrote {snapshot.name}; review and commit it")
    assert kept == snapshot.read_text(encoding="utf-8")
    shutil.rmtree(work / ".layering_cache", ignore_errors=True)
