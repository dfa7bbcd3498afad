"""Runs disturbed from outside: a module deleted while the run reads the package, a report that
cannot be written, Ctrl-C, SIGTERM. Each ends with a one-line message and its exit code (2 the
run could not be made, 130 SIGINT, 143 SIGTERM), never a traceback, and leaves no child process
running the project's code."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from reliability_support import BASE_ENV, HEADER, Outcome, forbidden

from layering.adapters.grimp_graph import build_graph, imports_of_module
from layering.adapters.package_files import find_package_files
from layering.domain.errors import SourceUnreadable

PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/a.py": "import json\n",
    "src/app/b.py": "from app import a\n",
    "contracts.toml": HEADER + forbidden("app.b", "app.a"),
}

# `layering check`, with app/b.py deleted once the run has walked the package.
WALK_THEN_DELETE = """\
import os, sys
from layering.engine import evidence
walk = evidence.find_package_files
def walk_then_delete(*args, **kwargs):
    found = walk(*args, **kwargs)
    os.remove(os.path.join("src", "app", "b.py"))
    return found
evidence.find_package_files = walk_then_delete
from layering.cli import run
run()
"""


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("read", ["graph", "one module"])
def test_a_module_deleted_after_the_walk_is_located_where_grimp_is_called(tmp_path, read):
    write(tmp_path, PACKAGE)
    source_roots = (str(tmp_path / "src"),)
    files = find_package_files(("app",), source_roots)
    (tmp_path / "src/app/b.py").unlink()
    with pytest.raises(SourceUnreadable) as raised:
        if read == "graph":
            build_graph(("app",), source_roots, False, None, files=files)
        else:
            imports_of_module(files, "app.b", False)
    assert raised.value.path == files.files["app.b"]
    assert (
        raised.value.reason
        == "was deleted while layering read the package (after its walk, before grimp read it)"
    )


@pytest.mark.parametrize("cache", [(), ("--no-cache",)], ids=["cache", "no-cache"])
def test_a_module_deleted_after_the_walk_stops_the_run_with_a_located_error(tmp_path, cache):
    # grimp's Rust code panics on the missing file, and its panic hook writes to stderr before
    # layering can say anything. A run that keeps a cache stamps each file right before grimp
    # reads it, and finds the file gone first: nothing of grimp's is printed then.
    write(tmp_path, PACKAGE)
    result = Outcome(
        subprocess.run(
            [sys.executable, "-c", WALK_THEN_DELETE, "check", *cache],
            cwd=tmp_path,
            env=BASE_ENV,
            capture_output=True,
            text=True,
            timeout=120,
        )
    )
    assert result.code == 2, result
    assert result.out.splitlines()[1:3] == [
        "forbidden #1 [f] ERROR",
        "  src/app/b.py: LY040 was deleted while layering read the package (after its walk, "
        "before grimp read it); "
        "run layering again to decide this contract on the tree as it is now",
    ], result
    if not cache:
        assert "panicked" not in result.err, result.err


def cli(root: Path, *args: str, **options) -> subprocess.Popen:
    """`layering ARGS` in `root`, in a process group of its own (a terminal's Ctrl-C reaches the
    whole group: the run and the cache builder it forks), with Ctrl-C's default disposition: a
    suite started in the background by a shell without job control inherits SIGINT ignored,
    which a run then rightly keeps ignoring, as a terminal's foreground command never does."""
    return subprocess.Popen(
        [sys.executable, "-m", "layering", *args],
        cwd=root,
        env=BASE_ENV,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        **options,
    )


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize(
    "args", [("check",), ("check", "--format", "json"), ("explain", "app.b", "app.a")]
)
def test_a_report_that_cannot_be_written_is_one_line_and_exit_2(tmp_path, args):
    write(tmp_path, PACKAGE)
    with open("/dev/full", "w") as full:
        ran = subprocess.run(
            [sys.executable, "-m", "layering", *args],
            cwd=tmp_path,
            env=BASE_ENV,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    result = Outcome(subprocess.CompletedProcess(ran.args, ran.returncode, "", ran.stderr))
    assert result.code == 2, result
    assert (
        result.err
        == "layering: error: cannot write to standard output (No space left on device); the "
        "report is lost\n"
    )


MODULES = 3000


# `layering check` whose check defines a class while the signal lands: the descriptor's
# `__set_name__` raises what the signal raised (Python < 3.12 wraps it in a RuntimeError).
SIGNAL_WHILE_A_CLASS_IS_DEFINED = """\
import sys
from layering import cli
from layering.domain.errors import Terminated
raised = {"KeyboardInterrupt": KeyboardInterrupt, "Terminated": Terminated}[sys.argv.pop()]
class Descriptor:
    def __set_name__(self, owner, name):
        raise raised()
def check(arguments):
    class Contract:
        field = Descriptor()
cli._check = check
cli.run()
"""


@pytest.mark.parametrize(
    ("raised", "code", "said"),
    [
        ("KeyboardInterrupt", 130, "interrupted (Ctrl-C)"),
        ("Terminated", 143, "terminated (SIGTERM)"),
    ],
)
def test_a_signal_while_a_module_defines_a_class_is_one_line(tmp_path, raised, code, said):
    write(tmp_path, PACKAGE)
    result = Outcome(
        subprocess.run(
            [sys.executable, "-c", SIGNAL_WHILE_A_CLASS_IS_DEFINED, "check", raised],
            cwd=tmp_path,
            env=BASE_ENV,
            capture_output=True,
            text=True,
            timeout=120,
        ),
        codes=(code,),
    )
    assert (result.out, result.err) == ("", f"layering: {said}\n"), result


def large_package() -> dict[str, str]:
    """A package whose scan takes a good part of a run (a few tenths of a second)."""
    files = {"src/app/__init__.py": "", "contracts.toml": HEADER + forbidden("app.m1", "app.m2")}
    for i in range(MODULES):
        imports = "".join(f"from app import m{(i * 7 + k * 13) % MODULES}\n" for k in range(1, 6))
        files[f"src/app/m{i}.py"] = imports + "import json\n" + "value = 1\n" * 40
    return files


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_while_grimp_scans_is_one_line_and_exit_130_every_time(tmp_path):
    write(tmp_path, large_package())
    whole_run = float("inf")
    for _ in range(2):  # the first also warms the file system's cache, as the runs after have it
        started = time.monotonic()
        report, _ = cli(tmp_path, "check", "--no-cache").communicate(timeout=120)
        whole_run = min(whole_run, time.monotonic() - started)
    interrupted = tried = 0
    # On a loaded machine a run may end sooner or later than the first two did: twelve tries at
    # most, until four of them were interrupted.
    for fraction in (0.15, 0.25, 0.35, 0.45, 0.55, 0.65) * 2:
        if interrupted >= 4:
            break
        tried += 1
        started = time.monotonic()
        process = cli(tmp_path, "check", "--no-cache")
        time.sleep(fraction * whole_run)
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=120)
        result = Outcome(
            subprocess.CompletedProcess(process.args, process.returncode, out, err), codes=(1, 130)
        )
        if result.code == 1:  # it had finished: the report, whole
            assert (result.out, result.err) == (report, ""), result
            # The machine got faster: aim by the run just seen.
            whole_run = min(whole_run, time.monotonic() - started)
        else:
            assert result.err == "layering: interrupted (Ctrl-C)\n", result
            interrupted += 1
    assert interrupted >= 4, (
        f"only {interrupted} of {tried} runs were interrupted before they ended"
    )


SLEEPS = {
    "src/app/__init__.py": "",
    "src/app/slow.py": "import os, time\nwith open(os.environ['PID_FILE'], 'w') as f:\n    "
    "f.write(str(os.getpid()))\ntime.sleep(120)\n",
}


def probe_that_sleeps(pid_file: Path) -> str:
    return (
        HEADER
        + f"""
[[contracts]]
id = "slow"
type = "probe"
modules = ["app.slow"]
forbidden = ["json"]
env = {{ PID_FILE = "{pid_file}" }}
"""
    )


def running(pid: int) -> bool:
    """Whether `pid` is a process that still runs (a zombie waiting to be reaped does not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads process states from /proc")
@pytest.mark.parametrize(
    ("sent", "code", "said"),
    [(signal.SIGTERM, 143, "terminated (SIGTERM)"), (signal.SIGINT, 130, "interrupted (Ctrl-C)")],
)
def test_a_signal_while_probes_run_kills_them_and_exits_with_its_code(tmp_path, sent, code, said):
    pid_file = tmp_path / "probe.pid"
    write(tmp_path, {**SLEEPS, "contracts.toml": probe_that_sleeps(pid_file)})
    process = cli(tmp_path, "check")
    deadline = time.monotonic() + 60
    while not (pid_file.exists() and pid_file.read_text()):
        assert time.monotonic() < deadline and process.poll() is None, process.communicate()
        time.sleep(0.05)
    probe = int(pid_file.read_text())
    process.send_signal(sent)
    out, err = process.communicate(timeout=30)
    result = Outcome(
        subprocess.CompletedProcess(process.args, process.returncode, out, err), codes=(code,)
    )
    assert result.err == f"layering: {said}\n", result
    assert_gone(probe)


def assert_gone(probe: int) -> None:
    """The probe is gone within 10 s (killed at once; a loaded machine may take a while to
    reap); else it is killed and the test fails with what /proc says of it."""
    gone_by = time.monotonic() + 10
    while running(probe) and time.monotonic() < gone_by:
        time.sleep(0.05)
    if running(probe):
        try:
            with open(f"/proc/{probe}/stat") as stat:
                state, parent, group = stat.read().rsplit(")", 1)[1].split()[:3]
        except FileNotFoundError:
            return
        os.kill(probe, signal.SIGKILL)
        pytest.fail(
            f"the probe (pid {probe}, state {state}, parent {parent}, group {group}) still ran"
            " 10 s after the run ended"
        )


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads process states from /proc")
def test_a_run_killed_outright_leaves_no_probe_running(tmp_path):
    # SIGKILL gives the run no chance to clean up: the probe's supervisor sees the run's end
    # of their pipe close and kills the probe itself.
    pid_file = tmp_path / "probe.pid"
    write(tmp_path, {**SLEEPS, "contracts.toml": probe_that_sleeps(pid_file)})
    process = cli(tmp_path, "check")
    deadline = time.monotonic() + 60
    while not (pid_file.exists() and pid_file.read_text()):
        assert time.monotonic() < deadline and process.poll() is None, process.communicate()
        time.sleep(0.05)
    probe = int(pid_file.read_text())
    process.kill()
    process.communicate(timeout=30)
    assert_gone(probe)
