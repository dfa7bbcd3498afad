"""Timing: the series of runs of one command, interleaved rounds, the tools' cache directories
put back or cleared before a run, and medians and ratios."""

from __future__ import annotations

import dataclasses
import os
import shutil
import statistics
from collections.abc import Callable
from pathlib import Path

from .env import Env
from .processes import TIME_BIN, Run, log, measure_peak_kb, one_line, run, tail
from .projects import CACHE_DIRS, Project


def median(xs: list[float]) -> float | None:
    return statistics.median(xs) if xs else None


def fmt_s(x: float | None) -> str:
    if x is None:
        return "n/a"
    return f"{x * 1000:.0f} ms" if x < 10 else f"{x:.2f} s"


def fmt_ratio(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.2f}x"


def ratio(a: float | None, b: float | None) -> float | None:
    if a is None or b is None or b <= 0:
        return None
    return a / b


def verdict_of(rc: int | None) -> str:
    return {0: "kept", 1: "broken"}.get(rc, "error" if rc is not None else "n/a")


class ToolSeries:
    """The runs of one command in one mode: the wall times of the timed runs that gave a
    verdict, and every run's exit code (with its stderr when it is neither 0 nor 1)."""

    def __init__(self, tool: str, mode: str):
        self.tool = tool
        self.mode = mode
        self.times: list[float] = []
        self.rss: list[int] = []  # each timed run's peak RSS (KiB, wait4)
        self.rss_floors: list[int] = []  # the benchmark's own peak at each start (`Run`)
        self.exact_peak_kb: int | None = None  # one more run under GNU time, where at the floor
        self.rcs: list[int] = []
        self.report_lines: list[int] = []
        self.runs: list[dict] = []
        self.error: str | None = None
        self.na: str | None = None  # cannot be expressed

    def record(self, res: Run, timed: bool = True) -> None:
        entry = {"rc": res.rc, "wall": round(res.wall, 4), "timed": timed}
        if res.rc not in (0, 1):
            entry["stderr"] = res.err
            self.error = f"{self.tool} failed (exit {res.rc}): " + one_line(
                tail(res.err or res.out, 8)
            )
            log("  " + self.error)
        self.runs.append(entry)
        if timed and res.rc in (0, 1):
            self.times.append(res.wall)
            self.rss.append(res.maxrss_kb)
            self.rss_floors.append(res.floor_kb)
            self.rcs.append(res.rc)
            self.report_lines.append(len(res.out.splitlines()))

    def to_json(self) -> dict:
        return {
            "tool": self.tool,
            "mode": self.mode,
            "times": self.times,
            "maxrss_kb": self.rss,
            "maxrss_floor_kb": self.rss_floors,
            "exact_peak_kb": self.exact_peak_kb,
            "rcs": self.rcs,
            "report_lines": self.report_lines,
            "runs": self.runs,
            "error": self.error,
            "na": self.na,
        }

    @property
    def med(self) -> float | None:
        return None if (self.error or self.na) else median(self.times)

    @property
    def peak_kb(self) -> int | None:
        """The highest peak RSS of the timed runs (or of the run under GNU time, where their
        figures were at the floor)."""
        if self.error or self.na or not self.rss:
            return None
        return self.exact_peak_kb or max(self.rss)

    @property
    def peak_at_floor(self) -> bool:
        """Whether the peak may be the benchmark's own (`Run.floor_kb`): then it is an upper
        bound."""
        return (
            not self.exact_peak_kb
            and bool(self.rss)
            and max(self.rss) <= max(self.rss_floors, default=0)
        )

    @property
    def verdict(self) -> str:
        if self.na:
            return "n/a"
        if self.error:
            return "error"
        vs = {verdict_of(rc) for rc in self.rcs}
        return vs.pop() if len(vs) == 1 else "inconsistent:" + "/".join(sorted(vs))

    @property
    def cell(self) -> str:
        """The table cell: the median, or why there is none."""
        return "n/a" if self.na else ("failed" if self.error else fmt_s(self.med))


Series = dict[str, dict[str, ToolSeries]]  # mode -> tool -> series


def tool_series(env: Env, tool: str, mode: str) -> ToolSeries:
    """An empty series; layering's has already failed when layering could not be installed."""
    series = ToolSeries(tool, mode)
    if tool == "layering" and env.layering_install_error:
        series.error = "layering failed: " + env.layering_install_error
    return series


def new_series(env: Env, cells: list[tuple[str, str]]) -> Series:
    """An empty series for each (mode, tool)."""
    series: Series = {}
    for mode, tool in cells:
        series.setdefault(mode, {})[tool] = tool_series(env, tool, mode)
    return series


@dataclasses.dataclass
class Timed:
    """One command of the interleaved rounds, and what must be made true before each run."""

    series: ToolSeries
    cmd: list[str]
    prepare: Callable[[], None] | None = None


def interleave(timed: list[Timed], cwd: Path, repeat: int, env: dict) -> None:
    """Run each command once per round, the start rotated every round, so that drift on the
    machine hits all commands alike."""
    live = [t for t in timed if not t.series.error and not t.series.na]
    for r in range(repeat):
        k = r % max(1, len(live))
        for t in live[k:] + live[:k]:
            if t.series.error:
                continue
            if t.prepare:
                t.prepare()
            os.sync()  # what earlier runs and the preparation wrote is not flushed during this one
            t.series.record(run(t.cmd, cwd, env))
    for t in live:
        measure_exact_peak(t, cwd, env)


def measure_exact_peak(t: Timed, cwd: Path, env: dict) -> None:
    """Where every timed run's peak RSS was at the benchmark's own (`Run.floor_kb`), one more
    run, untimed, under GNU time: a small launcher that starts the command from its own address
    space, so that `%M` (its `wait4`) is the command's alone."""
    if t.series.error or not t.series.peak_at_floor or not os.path.exists(TIME_BIN):
        return
    if t.prepare:
        t.prepare()
    kb, res = measure_peak_kb(t.cmd, cwd, env)
    t.series.record(res, timed=False)
    if kb and not t.series.error:
        t.series.exact_peak_kb = kb


def run_untimed(env: Env, project: Project, series: ToolSeries, cmd: list[str]) -> Run:
    """A run that is not timed (a warm-up, a profile, a JSON report), recorded in `series`."""
    res = run(cmd, project.root, env.env)
    series.record(res, timed=False)
    return res


class CacheDirs:
    """The tools' cache directories in a project root, and copies of them taken while warm."""

    def __init__(self, root: Path, copies: Path):
        self.root = root
        self.copies = copies

    def clear(self, tool: str) -> None:
        shutil.rmtree(self.root / CACHE_DIRS[tool], ignore_errors=True)

    def keep_copies(self) -> None:
        for name in CACHE_DIRS.values():
            shutil.rmtree(self.copies / name, ignore_errors=True)
            if (self.root / name).is_dir():
                shutil.copytree(self.root / name, self.copies / name)

    def holds_files(self, tool: str) -> bool:
        return any(path.is_file() for path in (self.root / CACHE_DIRS[tool]).rglob("*"))

    def restore(self, tool: str) -> None:
        self.clear(tool)
        kept = self.copies / CACHE_DIRS[tool]
        if kept.is_dir():
            shutil.copytree(kept, self.root / CACHE_DIRS[tool])


def cache_dirs(env: Env, project: Project) -> CacheDirs:
    return CacheDirs(project.root, env.scratch / "warm_caches" / project.name)


def warm_up(env: Env, project: Project, caches: CacheDirs, timed: list[Timed]) -> None:
    """Start each tool from an empty cache, run it once (untimed), and keep the warm caches."""
    for tool in CACHE_DIRS:
        caches.clear(tool)
    for t in timed:
        if not t.series.error:
            run_untimed(env, project, t.series, t.cmd)
    caches.keep_copies()


def log_medians(series: Series) -> None:
    cells = [
        f"{tool} {mode}={s.cell} ({s.verdict})"
        for mode, by_tool in series.items()
        for tool, s in by_tool.items()
    ]
    log("  medians: " + ", ".join(cells))
