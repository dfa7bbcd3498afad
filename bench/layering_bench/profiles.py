"""Runs of layering under cProfile: the time its cache writes take (the issue 16 guard's
allowance), and where an edit workload's time goes."""

from __future__ import annotations

import dataclasses
import os
import pstats
import re
from collections.abc import Callable
from pathlib import Path

from .env import Env
from .processes import run
from .projects import Configs, Project
from .timing import ToolSeries, cache_dirs, run_untimed

# The functions that write a cache, by the file that defines them: their cumulative time in a
# profile of a run from an empty cache that builds its cache in its own process
# (`BUILD_IN_THE_RUN`) is the allowance of the issue 16 guard.
CACHE_WRITERS = {
    "grimp/adaptors/caching.py": re.compile(r"_?write\w*"),
    "layering/adapters/import_cache.py": re.compile(r"write"),
    # the cache directory made and marked, each file sealed and written atomically
    "layering/adapters/cache_files.py": re.compile(r"prepare|_?write\w*|sealed|_temporary_beside"),
    # the builder of a run with nothing cached: hashing the files, signing what grimp read
    "layering/adapters/cache_builder.py": re.compile(r"[a-z_]\w*"),
    # file_states makes the manifest's entries (in the builder, when nothing was cached), and a
    # file read is kept only where it is still as stamped
    "layering/adapters/result_cache.py": re.compile(
        r"store\w*|_?write\w*|file_states|encoded|read_unchanged|unchanged_now"
    ),
    # the facts cache: what layering read of each file, hashed, encoded and written
    "layering/adapters/facts_cache.py": re.compile(r"save|_plain|_read_bytes"),
    # a run that keeps what it reads stamps each file before it first reads it
    "layering/adapters/package_files.py": re.compile(r"stamp\w*|is_unchanged"),
    # what only the cache holds, computed to be written: the import cache's entries with each
    # module's import signature, what each contract reaches, the verdicts as stored, the key of
    # the settings
    "layering/adapters/grimp_scan.py": re.compile(r"entries|signature|signature_of"),
    "layering/deciding/cached.py": re.compile(r"store|_summarize|verdicts|signed|settings_digest"),
}


@dataclasses.dataclass
class CacheWriteProfile:
    """The cumulative time of the cache-writing functions in a profiled run from an empty cache."""

    seconds: float | None
    profiled_total: float | None
    functions: list[str]
    cache_written: bool = False
    note: str = ""


# `python -m cProfile -o OUT -m layering ...`, but keeping layering's exit code (cProfile's own
# entry swallows it): layering's module entry runs under the profiler as runpy runs it there.
PROFILE_LAYERING = """\
import cProfile, runpy, sys
out = sys.argv.pop(1)
sys.argv[0] = "layering"
profile = cProfile.Profile()
try:
    profile.runcall(runpy.run_module, "layering", run_name="__main__", alter_sys=True)
except SystemExit as stop:
    code = stop.code
else:
    code = 0
profile.dump_stats(out)
sys.exit(code)
"""


# The time it takes to write the cache is the whole of that work, wherever it runs. A run from an
# empty cache does most of it in a builder beside the run (a forked process), which the run's
# profile does not see; so the profiled run builds its cache in its own process instead, as the
# builder's fallback does when the builder fails. What the builder costs the run it runs beside
# (starting it, handing it what was read, waiting for it) is then the timed difference itself.
BUILD_IN_THE_RUN = """\
import sys

from layering.adapters import cache_builder


class InTheRun:
    \"\"\"A builder that takes nothing: `CacheBuilder.finish` then builds all in the run.\"\"\"

    def __init__(self, *args):
        pass

    def send(self, read):
        pass

    def finish(self, verdicts):
        return None

    def cancel(self):
        pass


if not (hasattr(cache_builder, "_can_fork") and hasattr(cache_builder, "_Thread")):
    print("bench: layering's cache builder changed; update BUILD_IN_THE_RUN", file=sys.stderr)
    raise SystemExit(2)
cache_builder._can_fork = lambda: False
cache_builder._Thread = InTheRun
"""


def profile_cache_writes(
    env: Env, project: Project, configs: Configs, series: ToolSeries
) -> CacheWriteProfile:
    """One untimed `layering check` from an empty cache dir under cProfile (layering's module
    entry, on the bench venv's Python), its cache built in the run's process
    (`BUILD_IN_THE_RUN`); sums the cache writers' time without counting a writer called by
    another writer twice."""
    caches = cache_dirs(env, project)
    caches.clear("layering")
    out = env.scratch / "profiles" / f"{project.name}-{Path(configs.layering).stem}.prof"
    out.parent.mkdir(parents=True, exist_ok=True)
    cmd = [
        str(env.python),
        "-c",
        BUILD_IN_THE_RUN + PROFILE_LAYERING,
        str(out),
        "check",
        "--config",
        configs.layering,
    ]
    if series.error or run_untimed(env, project, series, cmd).rc not in (0, 1):
        return CacheWriteProfile(None, None, [], note="the profiled run failed")
    try:
        stats = pstats.Stats(str(out))
    except Exception as error:  # noqa: BLE001 - any unreadable profile is reported, not fatal
        return CacheWriteProfile(None, None, [], note=f"the profile could not be read ({error})")
    writers = {func for func in stats.stats if is_cache_writer(func)}
    outside_calls = sum(
        caller_ct
        for func in writers
        for caller, (_, _, _, caller_ct) in stats.stats[func][4].items()
        if caller not in writers
    )
    names = sorted({f"{shorten_profile_path(path)}:{name}" for path, _, name in writers})
    written = caches.holds_files("layering")
    missing = written and not any(name.startswith("layering/") for name in names)
    note = (
        "layering wrote its cache, but no layering cache writer was found: update CACHE_WRITERS"
        if missing
        else ""
    )
    return CacheWriteProfile(outside_calls, stats.total_tt, names, written, note)


def is_cache_writer(func: tuple[str, int, str]) -> bool:
    path, _, name = func
    posix = path.replace(os.sep, "/")
    return any(
        posix.endswith(suffix) and pattern.fullmatch(name)
        for suffix, pattern in CACHE_WRITERS.items()
    )


def shorten_profile_path(path: str) -> str:
    posix = path.replace(os.sep, "/")
    return next((suffix for suffix in CACHE_WRITERS if posix.endswith(suffix)), posix)


# Where a run's time goes: the cumulative time of the functions that do each part of the work
# (path suffix, function name). Parts may overlap (an import made while deciding counts in both).
PHASES = [
    ("imports (start-up and lazy)", [("<frozen importlib._bootstrap>", "_find_and_load")]),
    ("walking the package", [("layering/adapters/package_files.py", "find_package_files")]),
    (
        "file states (stat, hashing changed files)",
        [("layering/adapters/result_cache.py", "_state")],
    ),
    (
        "reading the caches",
        [
            ("layering/adapters/result_cache.py", "_read"),
            ("layering/adapters/import_cache.py", "load"),
        ],
    ),
    ("deciding from the cache (reuse)", [("layering/deciding/cached.py", "reuse")]),
    ("scanning changed files alone", [("layering/adapters/grimp_scan.py", "read_modules")]),
    ("grimp scanning files (Rust)", [("layering/adapters/grimp_scan.py", "scan")]),
    ("assembling the graph", [("layering/adapters/grimp_scan.py", "_assemble")]),
    ("deciding contracts", [("layering/deciding/fresh.py", "decide")]),
    (
        "writing the caches",
        [
            ("layering/adapters/result_cache.py", "store"),
            ("layering/adapters/result_cache.py", "store_manifest"),
            ("layering/adapters/import_cache.py", "write"),
        ],
    ),
    ("rendering the report", [("layering/cli.py", "_render")]),
]


def profile_phases(
    env: Env, project: Project, lay: list[str], prepare: Callable[[], None], name: str
) -> dict[str, float] | None:
    """One untimed run of `lay` (layering's check command) under cProfile after `prepare`: the
    profiled total and each part of PHASES, in seconds; None when the run failed."""
    prepare()
    out = env.scratch / "profiles" / f"{project.name}-{name}.prof"
    out.parent.mkdir(parents=True, exist_ok=True)
    cmd = [str(env.python), "-c", PROFILE_LAYERING, str(out), *lay[lay.index("check") :]]
    result = run(cmd, project.root, env.env)
    if result.rc not in (0, 1):
        return None
    try:
        stats = pstats.Stats(str(out))
    except Exception:  # noqa: BLE001 - an unreadable profile is no phase table, not a failed bench
        return None
    parts = {"profiled run": stats.total_tt}
    for label, functions in PHASES:
        wanted = set(functions)
        parts[label] = sum(
            entry[3]
            for (path, _, function), entry in stats.stats.items()
            if any(
                path.replace(os.sep, "/").endswith(suffix) and function == f
                for suffix, f in wanted
            )
        )
    return parts
