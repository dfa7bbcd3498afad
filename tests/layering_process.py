"""`python -m layering ARGS` (and `lint-imports ARGS`, which tests compare it with) as the tests
run them: each run a process of its own, forked from a server that has layering's modules (and
grimp's and import-linter's) imported already.

A test suite runs the CLI about two thousand times. A fresh interpreter pays 60-150 ms of CPU
for start-up and imports before a small project's check begins, most of a run on a package of
three modules; forked from a server that paid it once, the same run starts in about a millisecond.
The forked run is still a process of its own, with its own file descriptors (the report goes
through pipes, as with `subprocess.run(capture_output=True)`), working directory, environment,
exit code and process-wide state: nothing one run leaves behind reaches the next.

What a fork cannot give, a fresh interpreter does:
- what Python reads once at start-up (PYTHON* variables such as PYTHONHASHSEED, LANG and LC_*):
  one server per distinct set of them, started with that environment;
- LAYERING_TESTS_FRESH_INTERPRETER=1 runs every test's CLI as `sys.executable -m layering` (and
  lint-imports as its console script), the way a user starts it (tests of start-up itself,
  `-X importtime`, signals sent to a process group, spawn their interpreter themselves whatever
  this says);
- a platform without fork and descriptor passing (not Linux), or a server that could not start
  single-threaded: a fresh interpreter, as before.
"""

from __future__ import annotations

import atexit
import json
import locale
import os
import selectors
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

SERVERS_KEPT = 6
"""Servers alive at once (about 30 MB each): the environment most tests use, and the hash seeds
the determinism tests run each of their cases under."""

_SERVER = r"""
import atexit, json, os, pkgutil, runpy, signal, socket, sys, tempfile, threading

connection = socket.socket(fileno=int(sys.argv[1]))
del sys.path[0]  # `-c` puts the working directory first; a run puts its own there

import layering
for found in pkgutil.walk_packages(layering.__path__, "layering."):
    if found.name not in ("layering.__main__", "layering.lsp", "layering.pytest_plugin"):
        __import__(found.name)
for name in ("grimp", "importlinter.cli", "importlinter.contracts.layers",
             "importlinter.contracts.independence",
             "importlinter.contracts.forbidden", "importlinter.contracts.protected",
             "importlinter.contracts.acyclic_siblings"):
    try:
        __import__(name)
    except ImportError:
        pass
# A fork copies only the thread that calls it: a server with another thread would fork runs
# whose locks that thread may hold.
connection.sendall(b"ready\n" if len(os.listdir("/proc/self/task")) == 1 else b"threads\n")


def receive():
    data, fds, _, _ = socket.recv_fds(connection, 1 << 16, 3)
    if not data:
        return None, fds
    size, _, data = data.partition(b"\n")
    while len(data) < int(size):
        data += connection.recv(int(size) - len(data))
    return json.loads(data), fds


def run(request, fds):
    # the child: what `python -m layering ARGS` (or the console script `script ARGS`) would
    # be, in the request's directory and environment, its standard streams the request's pipes
    connection.close()
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    tempfile.tempdir = None  # read from TMPDIR again
    script = request["script"]
    sys.argv = [script or "-m", *request["args"]]
    # as `-m` puts the working directory first (layering's __main__ takes it out), and a
    # script run by path its own directory
    sys.path.insert(0, os.path.dirname(script) if script else os.getcwd())
    code = 0
    try:
        if script:
            runpy.run_path(script, run_name="__main__")
        else:
            runpy.run_module("layering", run_name="__main__", alter_sys=True)
    except SystemExit as leaving:
        if leaving.code is None or isinstance(leaving.code, int):
            code = leaving.code or 0
        else:
            print(leaving.code, file=sys.stderr)
            code = 1
    except BaseException as error:
        sys.excepthook(type(error), error, error.__traceback__)
        code = 1
        if isinstance(error, KeyboardInterrupt):
            code = -signal.SIGINT
    # the interpreter's own way out: threads joined, exit handlers, streams flushed
    getattr(threading, "_shutdown", lambda: None)()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    if code < 0:
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    os._exit(code)


while True:
    request, fds = receive()
    if request is None:
        break
    pid = os.fork()
    if pid == 0:
        run(request, fds)
    for fd in fds:
        os.close(fd)
    connection.sendall(b"%d\n" % pid)
    _, status = os.waitpid(pid, 0)
    connection.sendall(b"%d\n" % os.waitstatus_to_exitcode(status))
"""


def run(
    args: Sequence[str], *, cwd: Path | str, env: Mapping[str, str], timeout: float
) -> subprocess.CompletedProcess:
    """`python -m layering ARGS` in `cwd` with exactly `env` as its environment, its output
    captured as text, like `subprocess.run(..., capture_output=True, text=True)`: the same
    result, the same TimeoutExpired once `timeout` seconds have passed."""
    return _run(None, args, cwd, env, timeout)


def run_script(
    script: str, args: Sequence[str], *, cwd: Path | str, env: Mapping[str, str], timeout: float
) -> subprocess.CompletedProcess:
    """The console script at `script` (of this interpreter's environment, such as
    `lint-imports`) with ARGS, as `run` runs layering."""
    return _run(script, args, cwd, env, timeout)


def _run(
    script: str | None,
    args: Sequence[str],
    cwd: Path | str,
    env: Mapping[str, str],
    timeout: float,
) -> subprocess.CompletedProcess:
    command = [script, *args] if script else [sys.executable, "-m", "layering", *args]
    server = None
    if os.environ.get("LAYERING_TESTS_FRESH_INTERPRETER") != "1":
        server = _server(dict(env))
    if server is None:
        return subprocess.run(
            command, cwd=cwd, env=dict(env), capture_output=True, text=True, timeout=timeout
        )
    request = {"script": script, "args": list(args), "cwd": str(cwd), "env": dict(env)}
    return server.run(command, request, timeout)


def _read_at_start_up(env: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """What Python reads from the environment once, as it starts (the hash seed, the path,
    bytecode writing, the locale): a fork keeps the server's."""
    return tuple(
        sorted(
            (name, value)
            for name, value in env.items()
            if name.startswith(("PYTHON", "LC_")) or name == "LANG"
        )
    )


class _Server:
    """One server process, and the end of the socket this process talks to it through."""

    def __init__(self, env: dict[str, str]) -> None:
        ours, theirs = socket.socketpair()
        self.process = subprocess.Popen(
            [sys.executable, "-c", _SERVER, str(theirs.fileno())],
            pass_fds=[theirs.fileno()],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
        )
        theirs.close()
        self.connection = ours
        self.replies = ours.makefile("rb")
        self.ready = self.replies.readline() == b"ready\n"

    def run(
        self, command: list[str], request: dict, timeout: float
    ) -> subprocess.CompletedProcess:
        deadline = time.monotonic() + timeout
        stdout_read, stdout_write = os.pipe()
        stderr_read, stderr_write = os.pipe()
        stdin = os.open(os.devnull, os.O_RDONLY)
        payload = json.dumps(request).encode()
        try:
            socket.send_fds(
                self.connection,
                [b"%d\n" % len(payload) + payload],
                [stdin, stdout_write, stderr_write],
            )
        finally:
            for fd in (stdin, stdout_write, stderr_write):
                os.close(fd)
        pid = int(self.replies.readline())
        out, err, timed_out = _read_both(stdout_read, stderr_read, deadline)
        if timed_out:
            os.kill(pid, signal.SIGKILL)
        code = int(self.replies.readline())
        encoding = locale.getpreferredencoding(False)
        out_text, err_text = (_text(data, encoding) for data in (out, err))
        if timed_out:
            raise subprocess.TimeoutExpired(command, timeout, out_text, err_text)
        return subprocess.CompletedProcess(command, code, out_text, err_text)

    def close(self) -> None:
        self.connection.close()
        self.replies.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _read_both(out: int, err: int, deadline: float) -> tuple[bytes, bytes, bool]:
    """Both pipes read to their end (every process that holds them closed them), or up to the
    deadline; whether it passed first."""
    chunks: dict[int, list[bytes]] = {out: [], err: []}
    with selectors.DefaultSelector() as selector:
        for fd in chunks:
            selector.register(fd, selectors.EVENT_READ)
        try:
            while selector.get_map():
                left = deadline - time.monotonic()
                if left <= 0:
                    return b"".join(chunks[out]), b"".join(chunks[err]), True
                for key, _ in selector.select(left):
                    data = os.read(key.fd, 1 << 16)
                    if data:
                        chunks[key.fd].append(data)
                    else:
                        selector.unregister(key.fd)
        finally:
            os.close(out)
            os.close(err)
    return b"".join(chunks[out]), b"".join(chunks[err]), False


def _text(data: bytes, encoding: str) -> str:
    """As `subprocess.run(text=True)` decodes: the locale's encoding, universal newlines."""
    return data.decode(encoding).replace("\r\n", "\n").replace("\r", "\n")


_servers: dict[tuple[tuple[str, str], ...], _Server] = {}
_asked: set[tuple[tuple[str, str], ...]] = set()


def _server(env: dict[str, str]) -> _Server | None:
    """The server for `env`'s start-up settings; none the first time they are asked for (a
    server costs about three runs' imports: one for settings asked for once would cost more)."""
    if not (sys.platform.startswith("linux") and hasattr(socket, "send_fds")):
        return None
    key = _read_at_start_up(env)
    if key not in _asked:
        _asked.add(key)
        return None
    server = _servers.pop(key, None)
    if server is None or server.process.poll() is not None:
        while len(_servers) >= SERVERS_KEPT:
            _servers.pop(next(iter(_servers))).close()
        server = _Server(env)
    _servers[key] = server  # the most recently used last
    return server if server.ready else None


@atexit.register
def _close_servers() -> None:
    while _servers:
        _servers.popitem()[1].close()
