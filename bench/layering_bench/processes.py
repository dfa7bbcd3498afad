"""Running one command as a whole process: its exit code, wall time, peak memory and output;
and the benchmark's progress lines."""

from __future__ import annotations

import os
import resource
import subprocess
import tempfile
import threading
import time
from pathlib import Path


def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def tail(text: str, n: int = 12) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return "\n".join(lines[-n:])


def one_line(text: str, limit: int = 300) -> str:
    s = " | ".join(ln.strip() for ln in text.strip().splitlines() if ln.strip())
    return s if len(s) <= limit else "..." + s[-limit:]


class Run:
    """A finished command. `maxrss_kb` is the child's peak RSS from `wait4`; a child started by
    vfork (as `subprocess` starts it) execs from this process's address space, so the figure is
    at least this process's own peak, `floor_kb`, taken just before the start: exact when above
    it, at most the floor otherwise."""

    __slots__ = ("rc", "wall", "maxrss_kb", "out", "err", "floor_kb")

    def __init__(
        self, rc: int, wall: float, maxrss_kb: int, out: str, err: str, floor_kb: int = 0
    ):
        self.rc, self.wall, self.maxrss_kb, self.out, self.err = rc, wall, maxrss_kb, out, err
        self.floor_kb = floor_kb


def run(cmd: list[str], cwd: Path, env: dict | None = None, timeout: float = 1800) -> Run:
    """Run `cmd` to completion; wall time and the child's own peak RSS (via wait4)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        floor = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        t0 = time.perf_counter()
        try:
            proc = subprocess.Popen(cmd, cwd=str(cwd), stdout=out, stderr=err, env=env)
        except OSError as exc:
            return Run(127, 0.0, 0, "", f"cannot start {cmd[0]}: {exc}")
        # A blocking wait4 gives exact timing and the child's own rusage; a timer kills hangs.
        killer = threading.Timer(timeout, proc.kill)
        killer.start()
        try:
            _, status, ru = os.wait4(proc.pid, 0)
        finally:
            killer.cancel()
        wall = time.perf_counter() - t0
        rc = os.waitstatus_to_exitcode(status)
        proc.returncode = rc  # reaped by us; keep Popen from waiting again
        out.seek(0)
        err.seek(0)
        return Run(
            rc,
            wall,
            int(ru.ru_maxrss),
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
            floor,
        )


TIME_BIN = "/usr/bin/time"


def measure_peak_kb(cmd: list[str], cwd: Path, env: dict) -> tuple[int | None, Run]:
    """Peak RSS (KiB) of `cmd`, and its run.

    Uses GNU time as a tiny launcher when present: a child forked straight from this (large)
    benchmark process would inherit this process's RSS high-water mark in ru_maxrss.
    """
    if os.path.exists(TIME_BIN):
        fd, tmp = tempfile.mkstemp(prefix="bench_rss_")
        os.close(fd)
        try:
            res = run([TIME_BIN, "-f", "%M", "-o", tmp] + cmd, cwd, env)
            text = Path(tmp).read_text().strip().splitlines()
        finally:
            os.unlink(tmp)
        try:
            return int(text[-1]), res
        except (IndexError, ValueError):
            return None, res
    res = run(cmd, cwd, env)
    return res.maxrss_kb, res
