#!/usr/bin/env python3
"""Benchmark `layering` against import-linter and tach on real packages.

Run from the repository root:

    python bench/run.py [--scratch DIR] [--repeat N] [--only CORPUS[,CORPUS]]
                        [--only-workloads NAME[,NAME]] [--quick]

Everything it needs is built in a scratch directory (default `.bench_scratch/` in the
repository root): a virtual environment holding this repository, import-linter, tach and
Django, and the wheels of the corpora (Django, SymPy, Transformers, Home Assistant), unzipped
so each package is read from source, never installed.  Downloads and the tool install are
cached across runs; the repository itself is reinstalled on every run.

Each tool runs as its own process with the corpus directory as the working directory; the
timed quantity is whole-process wall time.  Runs are interleaved (every command of a workload
once per round, the start rotated each round) so that drift on the machine hits all tools
alike.  The script writes `bench/RESULTS.md` (or `--results PATH`) and a JSON dump beside it in
the scratch directory.  bench/README.md describes every workload.

This file parses the command line and runs the steps in order; the steps live in the package
`layering_bench/` beside it.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from layering_bench.corpora import CORPORA, SECTIONS
from layering_bench.edits import time_scaling
from layering_bench.env import (
    MIN_PYTHON,
    REPO,
    Env,
    choose_python,
    machine_info,
    python_version_of,
)
from layering_bench.processes import log
from layering_bench.report import dump_json, write_report
from layering_bench.workloads import bench_corpus, bench_probes, bench_startup

BENCH = Path(__file__).resolve().parent


def run_on_bench_python(python: str, argv: list[str]) -> None:
    """Re-run this script on the bench interpreter when the running one is older than the
    corpora's syntax: the source edits parse the corpora with `ast`."""
    running, chosen = sys.version_info[:2], python_version_of(python)
    if (
        running >= MIN_PYTHON
        or chosen is None
        or chosen[:2] < MIN_PYTHON
        or os.environ.get("BENCH_REEXECUTED")
    ):
        return
    log(
        f"re-running the benchmark on Python {'.'.join(map(str, chosen))} ({python}): "
        "the source edits parse the corpora, which need its syntax"
    )
    os.environ["BENCH_REEXECUTED"] = "1"
    os.execv(python, [python, str(Path(__file__).resolve()), *argv])


def selected(ap: argparse.ArgumentParser, text: str, choices, what: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()] or list(choices)
    unknown = [n for n in names if n not in choices]
    if unknown:
        ap.error(f"unknown {what} {unknown}; choose from {list(choices)}")
    return names


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--scratch",
        type=Path,
        default=REPO / ".bench_scratch",
        help="scratch directory (venv, wheels, corpora); default .bench_scratch/ in the repo root",
    )
    ap.add_argument(
        "--repeat",
        type=int,
        default=None,
        help="interleaved rounds per cell (default 7, 3 with --quick)",
    )
    ap.add_argument(
        "--only",
        default="",
        help="comma-separated corpora to run (default: all of %s)" % ", ".join(CORPORA),
    )
    ap.add_argument(
        "--only-workloads",
        default="",
        help="comma-separated parts to run (default: all of %s)" % ", ".join(SECTIONS),
    )
    ap.add_argument(
        "--quick",
        action="store_true",
        help="fewer rounds (3), fewer start-up rounds and probe rounds",
    )
    ap.add_argument(
        "--results",
        type=Path,
        default=BENCH / "RESULTS.md",
        help="where to write the Markdown report",
    )
    ap.add_argument(
        "--skip-repo-install",
        action="store_true",
        help="do not (re)install the repository; use the `layering` already in the bench venv",
    )
    ap.add_argument(
        "--python",
        default=None,
        help="interpreter for the bench venv (default: the running one if >= 3.13, else the "
        "newest >= 3.13 found)",
    )
    ap.add_argument("--no-startup", action="store_true", help="skip the start-up comparison")
    ap.add_argument("--no-probes", action="store_true", help="skip the runtime-probe comparison")
    args = ap.parse_args(argv)
    if args.repeat is None:
        args.repeat = 3 if args.quick else 7
    names = selected(ap, args.only, CORPORA, "corpus")
    sections = [
        s
        for s in selected(ap, args.only_workloads, SECTIONS, "workload")
        if not (s == "startup" and args.no_startup) and not (s == "probes" and args.no_probes)
    ]

    py, why = choose_python(args.python)
    run_on_bench_python(py, argv)
    start_load = machine_info()["loadavg"]
    env = Env(args.scratch.resolve(), py, why)
    env.setup_venv(skip_repo=args.skip_repo_install)
    env.read_versions()
    log("versions: " + ", ".join(f"{k} {v}" for k, v in env.versions.items()))

    corpora_info = {}
    for n in names:
        cdir, wheel = env.fetch_corpus(n)
        corpora_info[n] = {"dir": cdir, "wheel": wheel}

    memory_rounds = 2 if args.quick else 3
    results = {
        n: bench_corpus(env, n, corpora_info[n]["dir"], sections, args.repeat, memory_rounds)
        for n in names
    }
    scale = time_scaling(env, args.repeat) if "scale" in sections else None
    startup = (
        bench_startup(env, 5 if args.quick else max(10, args.repeat))
        if "startup" in sections
        else None
    )
    probes = (
        bench_probes(env, 2 if args.quick else max(3, min(args.repeat, 5)))
        if "probes" in sections
        else None
    )

    lines = write_report(
        args.results, args, env, corpora_info, results, scale, startup, probes, start_load
    )
    dump_json(env.scratch / "results.json", env, results, scale, startup, probes)
    log(f"wrote {args.results}")
    start = next(i for i, ln in enumerate(lines) if ln.startswith("## Timings"))
    print("\n".join(lines[start:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
