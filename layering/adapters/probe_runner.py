"""Run probe requests in child interpreters: a fork server where possible, else one each.

The children run the interpreter a request names (`python`: a project's virtual environment,
possibly another Python version) or, by default, the one running `layering`; the child code
is one standalone file (`probe_child.py`) executed by its path, so nothing of `layering`
needs to be installed there. Requests are batched per interpreter and environment, each
batch with fork servers of its own started under that interpreter.

Every name in a request is validated as a dotted identifier (or module pattern) before
anything starts; jobs travel to the child as `marshal` data on a pipe of our own, never as
command-line text, and no shell is involved anywhere.

Two isolation modes give the same outcomes:

* ``"spawn"``: one fresh `python -I -B probe_child.py` per probe. Works everywhere; pays
  interpreter start-up and every standard-library import for each probe.
* ``"fork"`` (POSIX): one fork server per `run_probes` call preloads a *prelude* of
  standard-library modules once, checks it, and forks one slot server per worker; each slot
  server forks a child per probe, so a probe pays only for the imports that are its own.
  A batch with a `setup` (e.g. `django:setup`) runs it once in the server too, after the
  prelude, unless it fails or leaves threads running: then each child runs it itself.
  A slot server that dies (a module may kill its parent) is replaced by a fresh server.

The prelude is sound by construction: a module already in `sys.modules` when the probe
starts would be invisible to the import recorder, so the prelude must never contain a
module the batch forbids, stubs, or that a source root could shadow. Candidates named by
such a pattern are dropped up front; after preloading, the server checks every module that
the prelude actually brought in (dependencies included) against the same rules and, if
any fails, the runner falls back to a server without a prelude. A forbidden module can thus
never be preloaded, and the chain that leads to it is recorded in full by the child.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import json
import marshal
import os
import queue
import re
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import IO

from layering.adapters import probe_child
from layering.domain.errors import Terminated
from layering.domain.patterns import ModulePattern, index_patterns, is_dotted_name
from layering.domain.probes import (
    MAX_TIMEOUT,
    LoadedBefore,
    LoadedForbidden,
    ProbeOutcome,
    ProbeOutcomeKind,
    ProbeRequest,
    RuntimeHop,
    is_environment_name,
    is_setup_entry,
)

CHILD_SCRIPT = os.path.abspath(probe_child.__file__)

CHILD_FLAGS = ("-I", "-B")
"""`-I` isolated mode: no `PYTHON*` variables, no user site-packages, no script directory or
current directory on `sys.path`; `-B`: never write `.pyc` files into the checked project."""


def _child_environment() -> dict[str, str]:
    env = {"PATH": os.environ.get("PATH", os.defpath), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    for name in ("TMPDIR", "TEMP", "TMP"):
        if name in os.environ:
            env[name] = os.environ[name]
    if os.name == "nt":
        for name in ("SYSTEMROOT", "SYSTEMDRIVE", "WINDIR"):
            if name in os.environ:
                env[name] = os.environ[name]
    return env


CHILD_ENVIRONMENT: Mapping[str, str] = _child_environment()
"""The whole environment of a probe child (and fork server), nothing inherited beyond it.

PATH (so code that runs tools at import time finds them as it would), a fixed UTF-8 locale
(LANG, LC_ALL = C.UTF-8) so text decoding does not depend on the user's settings, the
temporary-directory variables if set, and on Windows SYSTEMROOT / SYSTEMDRIVE / WINDIR,
without which sockets and cryptography fail. Nothing else: no credentials, no
DJANGO_SETTINGS_MODULE-style switches, no PYTHONPATH; a probe contract's `env` adds the
variables it names (and only those) to this. The child runs its interpreter with `-I`, which
ignores every PYTHON* variable anyway (so PYTHONHASHSEED or PYTHONDONTWRITEBYTECODE would
have no effect there; `-B` is passed instead).
"""

DEFAULT_PRELUDE: tuple[str, ...] = (
    "typing",
    "re",
    "collections",
    "collections.abc",
    "functools",
    "enum",
    "dataclasses",
    "contextlib",
    "contextvars",
    "copy",
    "weakref",
    "types",
    "operator",
    "itertools",
    "warnings",
    "traceback",
    "linecache",
    "tokenize",
    "inspect",
    "ast",
    "dis",
    "string",
    "textwrap",
    "keyword",
    "struct",
    "bisect",
    "heapq",
    "numbers",
    "decimal",
    "fractions",
    "datetime",
    "calendar",
    "zoneinfo",
    "locale",
    "gettext",
    "unicodedata",
    "json",
    "base64",
    "binascii",
    "hashlib",
    "hmac",
    "secrets",
    "random",
    "uuid",
    "ipaddress",
    "pathlib",
    "fnmatch",
    "glob",
    "shutil",
    "tempfile",
    "zlib",
    "gzip",
    "zipfile",
    "pickle",
    "copyreg",
    "pprint",
    "difflib",
    "threading",
    "queue",
    "signal",
    "selectors",
    "socket",
    "ssl",
    "subprocess",
    "platform",
    "sysconfig",
    "logging",
    "logging.handlers",
    "argparse",
    "shlex",
    "configparser",
    "csv",
    "email",
    "email.message",
    "email.parser",
    "email.utils",
    "email.headerregistry",
    "email.mime.text",
    "email.mime.multipart",
    "html",
    "html.parser",
    "mimetypes",
    "http",
    "http.client",
    "http.cookies",
    "urllib",
    "urllib.parse",
    "urllib.request",
    "asyncio",
    "concurrent.futures",
    "importlib",
    "importlib.abc",
    "importlib.machinery",
    "importlib.util",
    "importlib.metadata",
    "importlib.resources",
    "pkgutil",
    "sqlite3",
    "xml.etree.ElementTree",
    "tomllib",
    "graphlib",
    "concurrent.futures.thread",
    "termios",
)
"""Standard-library modules a fork server imports once, before forking probe children.

Common, import-time-heavy, side-effect-free modules (no deprecated ones that warn when
imported). Probes of real projects spend most of their import time in exactly these
(measured on Django: about two thirds of the import time of e.g. `django.http` is standard
library), so preloading them is what makes the fork server fast. Each batch drops the
candidates it forbids, stubs or shadows; see the module docstring for the soundness rule.
"""

MINIMUM_PYTHON = (3, 10)
"""The oldest Python the probe child runs under."""

INTERPRETER_CHECK_TIMEOUT = 30.0
"""Seconds an interpreter may take to say which version it is."""

SERVER_START_TIMEOUT = 60.0
"""Seconds a fork server may take to start and preload before it counts as broken."""

SERVER_GRACE = 30.0
"""Seconds beyond a probe's own timeout the runner waits for its fork server to answer."""


def validate_request(request: ProbeRequest) -> None:
    """Raise ValueError unless every name in `request` is a dotted name or module pattern."""
    if not isinstance(request.module, str) or not is_dotted_name(request.module):
        raise ValueError(f"probe module {request.module!r} is not a dotted module name")
    for pattern in request.forbidden:
        ModulePattern.parse(pattern)
    for stub in request.stubs:
        if not isinstance(stub, str) or not is_dotted_name(stub):
            raise ValueError(f"stub {stub!r} is not a dotted module name")
    for root in request.source_roots:
        if not isinstance(root, str) or "\0" in root:
            raise ValueError(f"source root {root!r} is not a path")
    if (
        not isinstance(request.python, str)
        or "\0" in request.python
        or (request.python and not os.path.isabs(request.python))
    ):
        raise ValueError(f"interpreter {request.python!r} is not an absolute path")
    for name, value in request.env:
        if not isinstance(name, str) or not is_environment_name(name):
            raise ValueError(f"environment variable name {name!r} is not a name")
        if not isinstance(value, str) or "\0" in value:
            raise ValueError(
                f"environment variable {name} has a value that is not a string without NUL"
            )
    for fallback in request.fallbacks:
        if not isinstance(fallback, str) or not is_dotted_name(fallback):
            raise ValueError(f"probe module {fallback!r} is not a dotted module name")
    for entry in request.setup:
        if not isinstance(entry, str) or not is_setup_entry(entry):
            raise ValueError(f"setup entry {entry!r} is not 'module' or 'module:callable'")
    timeout = request.timeout
    if (
        isinstance(timeout, bool)
        or not isinstance(timeout, (int, float))
        or not 0 < timeout <= MAX_TIMEOUT
    ):
        raise ValueError(
            f"probe timeout {timeout!r} is not a number of seconds in (0, {MAX_TIMEOUT:g}]"
        )


class InterpreterUnusable(Exception):
    """The interpreter named for probes cannot run them; the message says why."""


_INTERPRETER_VERSIONS: dict[str, tuple[int, int]] = {}


def find_interpreter(text: str, base_dir: str) -> str:
    """The absolute path of the interpreter `text` names, checked to run probes.

    A bare name ("python3.12") is looked up on PATH; any other path is taken relative to
    `base_dir`. The path is kept as given, not resolved through symlinks: a virtual
    environment's `bin/python` is a symlink, and only through it is that environment used.
    Raises InterpreterUnusable if it is missing, cannot run, or is older than Python 3.10.
    """
    if not text or "\0" in text:
        raise InterpreterUnusable("is not a path")
    if os.sep in text or (os.altsep and os.altsep in text):
        path = os.path.abspath(os.path.join(base_dir, os.path.expanduser(text)))
    else:
        found = shutil.which(text)
        if found is None:
            raise InterpreterUnusable("is not found on PATH")
        path = os.path.abspath(found)
    if os.path.isdir(path):
        raise InterpreterUnusable("is a directory, not an interpreter (name its bin/python)")
    if not os.path.exists(path):
        raise InterpreterUnusable("does not exist")
    if not os.access(path, os.X_OK):
        raise InterpreterUnusable("is not executable")
    version = _INTERPRETER_VERSIONS.get(path) or _interpreter_version(path)
    _INTERPRETER_VERSIONS[path] = version
    if version < MINIMUM_PYTHON:
        raise InterpreterUnusable(
            f"is Python {version[0]}.{version[1]}; probes run in Python "
            f"{MINIMUM_PYTHON[0]}.{MINIMUM_PYTHON[1]} or newer"
        )
    return path


def interpreter_path(path: str) -> tuple[str, ...]:
    """The `sys.path` of interpreter `path` (checked by `find_interpreter`) as a probe starts
    with it: where its installed packages are. () when it cannot say."""
    ask = "import json, sys; sys.stdout.write(json.dumps(sys.path))"
    try:
        answer = subprocess.run(
            [path, *CHILD_FLAGS, "-c", ask],
            capture_output=True,
            env=dict(CHILD_ENVIRONMENT),
            timeout=INTERPRETER_CHECK_TIMEOUT,
            stdin=subprocess.DEVNULL,
        )
        entries = json.loads(answer.stdout.decode("utf-8", "replace"))
    except (subprocess.TimeoutExpired, OSError, ValueError):
        return ()
    return tuple(e for e in entries if isinstance(e, str) and e)


def _ask(path: str, code: str) -> subprocess.CompletedProcess[bytes]:
    """Run `code` in the interpreter at `path`, in the probes' clean environment; an
    InterpreterUnusable where it cannot be run or does not answer in time."""
    try:
        return subprocess.run(
            [path, *CHILD_FLAGS, "-c", code],
            capture_output=True,
            env=dict(CHILD_ENVIRONMENT),
            timeout=INTERPRETER_CHECK_TIMEOUT,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        raise InterpreterUnusable(
            f"did not answer within {INTERPRETER_CHECK_TIMEOUT:g} s"
        ) from None
    except OSError as error:
        raise InterpreterUnusable(f"cannot be run ({error.strerror or error})") from None


def _interpreter_version(path: str) -> tuple[int, int]:
    """Ask `path` (in the probes' clean environment) which Python version it is."""
    answer = _ask(path, "import sys; sys.stdout.write('%d.%d' % sys.version_info[:2])")
    said = answer.stdout.decode("utf-8", "replace").strip()
    match = re.fullmatch(r"(\d+)\.(\d+)", said)
    if answer.returncode != 0 or match is None:
        output = (answer.stderr or answer.stdout).decode("utf-8", "replace").strip().splitlines()
        heard = f" (it said: {output[0][:200]})" if output else ""
        raise InterpreterUnusable(f"is not a Python interpreter that runs here{heard}")
    return int(match.group(1)), int(match.group(2))


def stdlib_module_names(path: str) -> frozenset[str]:
    """`sys.stdlib_module_names` of the interpreter at `path` (checked by `find_interpreter`),
    asked in the probes' clean environment: what `<stdlib>` names for the code it runs."""
    answer = _ask(path, "import sys; sys.stdout.write(' '.join(sorted(sys.stdlib_module_names)))")
    names = answer.stdout.decode("utf-8", "replace").split()
    if answer.returncode != 0 or not names:
        raise InterpreterUnusable("did not say which modules its standard library holds")
    return frozenset(names)


def run_probes(
    requests: Sequence[ProbeRequest],
    jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    *,
    isolation: str = "auto",
    prelude: Sequence[str] | None = None,
) -> list[ProbeOutcome]:
    """Import each request's module in its own child interpreter; outcomes in request order.

    `jobs` children run at once (default: the number of cores). `progress(done, total)` is
    called, on the calling thread, after each probe completes. `isolation` is "fork" (a
    fork server with a standard-library prelude; POSIX only), "spawn" (a fresh interpreter
    per probe) or "auto" (fork where available). `prelude` replaces `DEFAULT_PRELUDE`.
    Requests that name another interpreter, environment or setup run in a batch of their own.
    Raises ValueError, before any child starts, if a request names something that is not a
    dotted module name or pattern.
    """
    requests = list(requests)
    for request in requests:
        validate_request(request)
    if prelude is not None:
        for name in prelude:
            if not is_dotted_name(name):
                raise ValueError(f"prelude module {name!r} is not a dotted module name")
    if not requests:
        return []
    mode = _isolation_mode(isolation)
    batches: dict[tuple, list[int]] = {}
    for index, request in enumerate(requests):
        batches.setdefault(_batch_key(request), []).append(index)
    outcomes: list[ProbeOutcome | None] = [None] * len(requests)
    done = 0
    with _sigterm_raises():
        for (python, env, *_), indices in sorted(batches.items()):
            batch = [requests[i] for i in indices]
            interpreter = _Interpreter(python, {**CHILD_ENVIRONMENT, **dict(env)})
            step = _counted_from(done, len(requests), progress)
            for index, outcome in zip(
                indices, _run_batch(batch, interpreter, jobs, step, mode, prelude)
            ):
                outcomes[index] = outcome
            done += len(batch)
    return [o for o in outcomes if o is not None]


@contextlib.contextmanager
def _sigterm_raises() -> Iterator[None]:
    """While probes run, SIGTERM raises Terminated, as Ctrl-C raises KeyboardInterrupt, and the
    probes' process groups are killed on the way out (`_run_all`): they run in sessions of their
    own, which a signal sent to the run does not reach, and would otherwise run the project's
    code until their timeout. A SIGTERM handler set by someone else (an application, a test
    runner) is left alone, and so is a run on a thread other than the main one."""
    try:
        previous = (
            signal.signal(signal.SIGTERM, _raise_terminated)
            if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
            else None
        )
    except ValueError:  # not the main thread, where signals are handled
        previous = None
    try:
        yield
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _raise_terminated(number: int, frame: object) -> None:
    raise Terminated()


def _batch_key(request: ProbeRequest) -> tuple:
    """Requests that can share fork servers: the same interpreter and environment and, as a
    server runs a setup once for all its children, the same setup, stubs and source roots."""
    shared = (
        (request.setup, request.stubs, request.source_roots) if request.setup else ((), (), ())
    )
    return (request.python or sys.executable, request.env, *shared)


def _counted_from(
    offset: int, total: int, progress: Callable[[int, int], None] | None
) -> Callable[[int, int], None] | None:
    """A batch's progress callback that reports on the count of the whole run."""
    if progress is None:
        return None
    return lambda done, _batch_total: progress(offset + done, total)


class _Interpreter:
    """The interpreter a batch of children run, and the whole environment they get."""

    def __init__(self, python: str, environment: dict[str, str]) -> None:
        self.python = python
        self.environment = environment

    def command(self, *arguments: str) -> list[str]:
        return [self.python, *CHILD_FLAGS, CHILD_SCRIPT, *arguments]


def _run_batch(
    requests: list[ProbeRequest], interpreter: _Interpreter, jobs, progress, mode: str, prelude
) -> list[ProbeOutcome]:
    slots = max(1, min(jobs or os.cpu_count() or 1, len(requests)))
    runners: list[_Runner] = []
    if mode == "fork":
        config = _server_config(requests, DEFAULT_PRELUDE if prelude is None else tuple(prelude))
        servers = _ForkServers(config, interpreter)
        try:
            runners = [_ForkServer(servers, slot) for slot in servers.start(slots)]
        except (_ServerBroken, OSError, ValueError, KeyError):
            runners = []  # no fork server here: fresh interpreters give the same outcomes
    if not runners:
        runners = [_Spawner(interpreter) for _ in range(slots)]
    return _run_all(requests, runners, progress)


def _isolation_mode(isolation: str) -> str:
    can_fork = hasattr(os, "fork") and os.name == "posix"
    if isolation == "auto":
        return "fork" if can_fork else "spawn"
    if isolation == "fork" and not can_fork:
        raise ValueError("isolation='fork' needs os.fork (POSIX)")
    if isolation not in ("fork", "spawn"):
        raise ValueError(f"isolation must be 'auto', 'fork' or 'spawn', not {isolation!r}")
    return isolation


# --------------------------------------------------------------------------- scheduling


class _Runner:
    def run(self, request: ProbeRequest) -> ProbeOutcome:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def abort(self) -> None:
        pass


def _run_all(requests: list[ProbeRequest], runners: list[_Runner], progress) -> list[ProbeOutcome]:
    total = len(requests)
    results: list[ProbeOutcome | None] = [None] * total
    finished: queue.Queue = queue.Queue()
    lock = threading.Lock()
    next_index = [0]
    stop = threading.Event()

    def work(runner: _Runner) -> None:
        try:
            while not stop.is_set():
                with lock:
                    index = next_index[0]
                    if index >= total:
                        return
                    next_index[0] += 1
                finished.put((index, runner.run(requests[index])))
        except BaseException as error:  # noqa: BLE001 - handed to the calling thread
            finished.put((None, error))
        finally:
            runner.close()

    threads = [
        threading.Thread(target=work, args=(r,), name="layering-probe", daemon=True)
        for r in runners
    ]
    for thread in threads:
        thread.start()
    try:
        done = 0
        while done < total:
            index, item = finished.get()
            if index is None:
                raise item
            results[index] = item
            done += 1
            if progress is not None:
                progress(done, total)
    except BaseException:
        stop.set()
        for runner in runners:
            runner.abort()
        raise
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=10)
    return [r for r in results if r is not None]


# --------------------------------------------------------------------------- outcomes


def _hop(raw: list) -> RuntimeHop:
    importer, imported, path, line, via_parent = raw
    return RuntimeHop(str(importer), str(imported), str(path), int(line), bool(via_parent))


def _loaded_before(raw: dict) -> LoadedBefore:
    return LoadedBefore(
        str(raw["module"]), str(raw["setup"]), tuple(_hop(hop) for hop in raw["chain"])
    )


def _with_stderr(detail: str, stderr: str) -> str:
    stderr = stderr.strip()
    if not stderr:
        return detail
    return f"{detail}\nlast output on stderr:\n{stderr}"


def _describe_exit(status: int | None) -> str:
    if status is None:
        return "vanished before reporting"
    code = os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = str(-code)
        return f"killed by signal {name}"
    return f"exited with code {code} before reporting"


def _outcome(request: ProbeRequest, report: dict) -> ProbeOutcome:
    seconds = float(report.get("seconds") or 0.0)
    stderr = report.get("stderr") or ""
    if report.get("timed_out"):
        detail = f"no result within {request.timeout:g} s; its process group was killed"
        return ProbeOutcome(
            request.module, ProbeOutcomeKind.TIMED_OUT, (), _with_stderr(detail, stderr), seconds
        )
    if report.get("result") is not None:
        try:
            data = json.loads(report["result"])
            kind = ProbeOutcomeKind(data["kind"])
            loaded = tuple(
                LoadedForbidden(str(item["module"]), tuple(_hop(hop) for hop in item["chain"]))
                for item in data["loaded"]
            )
            forbidden_before = tuple(
                _loaded_before(item) for item in data.get("forbidden_before", ())
            )
            module_before = (
                _loaded_before(data["module_before"]) if data.get("module_before") else None
            )
            detail = str(data["detail"])
            missing, failed_setup = str(data.get("missing") or ""), str(data.get("setup") or "")
            imported = str(data.get("module") or request.module)
        except (ValueError, KeyError, TypeError) as error:
            detail = f"unreadable result from the probe child ({error})"
            return ProbeOutcome(
                request.module, ProbeOutcomeKind.CRASHED, (), _with_stderr(detail, stderr), seconds
            )
        if kind is ProbeOutcomeKind.CRASHED:
            detail = _with_stderr(detail, stderr)
        return ProbeOutcome(
            request.module,
            kind,
            loaded,
            detail,
            seconds,
            missing,
            failed_setup,
            forbidden_before,
            module_before,
            imported,
        )
    detail = _describe_exit(report.get("status"))
    return ProbeOutcome(
        request.module, ProbeOutcomeKind.CRASHED, (), _with_stderr(detail, stderr), seconds
    )


def _job(request: ProbeRequest) -> bytes:
    job = {
        "module": request.module,
        "forbidden": list(request.forbidden),
        "stubs": list(request.stubs),
        "roots": [os.path.abspath(root) for root in request.source_roots],
        "timeout": float(request.timeout),
        "setup": list(request.setup),
        "fallbacks": list(request.fallbacks),
    }
    return marshal.dumps(job, MARSHAL_VERSION)


MARSHAL_VERSION = 4
"""Every Python 3.4+ reads it: the child may run another Python version than the parent."""


def _frame(payload: bytes) -> bytes:
    return len(payload).to_bytes(4, "big") + payload


def _piped(stream: IO[bytes] | None) -> IO[bytes]:
    """A stream of a child started with `subprocess.PIPE` for it, which Popen always makes."""
    assert stream is not None
    return stream


# --------------------------------------------------------------------------- spawn mode


class _Spawner(_Runner):
    """One fresh interpreter per probe."""

    def __init__(self, interpreter: _Interpreter) -> None:
        self.interpreter = interpreter
        self._lock = threading.Lock()
        self._current: subprocess.Popen | None = None

    def run(self, request: ProbeRequest) -> ProbeOutcome:
        if os.name != "posix":
            return self._run_portable(request)
        proc = subprocess.Popen(
            self.interpreter.command(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=self.interpreter.environment,
            close_fds=True,
            start_new_session=True,
            bufsize=0,
        )
        stdin, stdout, stderr = _piped(proc.stdin), _piped(proc.stdout), _piped(proc.stderr)
        with self._lock:
            self._current = proc
        try:
            try:
                stdin.write(_frame(_job(request)))
            except OSError:
                pass  # it died before reading: its exit status will say how
            finally:
                stdin.close()
            report = probe_child.supervise(
                proc.pid, stdout.fileno(), stderr.fileno(), request.timeout, close=False
            )
        finally:
            with self._lock:
                self._current = None
            for stream in (stdout, stderr):
                stream.close()
        status = report.get("status")
        proc.returncode = os.waitstatus_to_exitcode(status) if status is not None else -9
        return _outcome(request, report)

    def _run_portable(self, request: ProbeRequest) -> ProbeOutcome:
        flags = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
        start = time.monotonic()
        proc = subprocess.Popen(
            self.interpreter.command(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=self.interpreter.environment,
            creationflags=flags,
        )
        timed_out = False
        try:
            out, err = proc.communicate(_frame(_job(request)), timeout=request.timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            proc.kill()
            out, err = proc.communicate()
        payload = probe_child.split_frame(out)
        stderr = err[-probe_child.STDERR_TAIL :].decode("utf-8", "replace")
        report = {
            "status": None,
            "timed_out": timed_out,
            "result": None if payload is None else payload.decode("ascii", "replace"),
            "stderr": stderr,
            "seconds": time.monotonic() - start,
        }
        outcome = _outcome(request, report)
        if outcome.kind is ProbeOutcomeKind.CRASHED and payload is None and not timed_out:
            detail = _with_stderr(f"exited with code {proc.returncode} before reporting", stderr)
            outcome = ProbeOutcome(request.module, outcome.kind, (), detail, outcome.seconds)
        return outcome

    def abort(self) -> None:
        with self._lock:
            proc = self._current
        if proc is not None and os.name == "posix":
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass


# --------------------------------------------------------------------------- fork mode


def _shadowed_names(roots: set[str]) -> list[str]:
    """Top-level names a source root provides: a prelude module by that name would differ."""
    suffixes = tuple(importlib.machinery.all_suffixes())
    names: set[str] = set()
    for root in roots:
        try:
            entries = os.listdir(root)
        except OSError:
            continue
        for entry in entries:
            if os.path.isdir(os.path.join(root, entry)):
                names.add(entry)
            elif entry.endswith(suffixes):
                names.add(entry.split(".", 1)[0])
    return sorted(names)


def _server_config(requests: list[ProbeRequest], candidates: Sequence[str]) -> dict:
    """What every fork server of this batch preloads, and the rules it checks it against."""
    forbidden = sorted({p for r in requests for p in r.forbidden})
    stubs = sorted({s for r in requests for s in r.stubs})
    shadowed = _shadowed_names(
        {os.path.abspath(root) for r in requests for root in r.source_roots}
    )
    patterns = index_patterns(ModulePattern.parse(p) for p in forbidden)
    stdlib: frozenset[str] = getattr(sys, "stdlib_module_names", frozenset())
    prelude = []
    for name in candidates:
        top = name.split(".", 1)[0]
        if stdlib and top not in stdlib:
            continue
        if top in shadowed or patterns.covering(name):
            continue
        if any(name == s or name.startswith(s + ".") for s in stubs):
            continue
        prelude.append(name)
    setup_job = None
    if requests[0].setup:  # one batch, one setup (see _batch_key)
        first = requests[0]
        setup_job = {
            "roots": [os.path.abspath(root) for root in first.source_roots],
            "stubs": list(first.stubs),
            "setup": list(first.setup),
        }
    return {
        "prelude": prelude,
        "forbidden": forbidden,
        "stubs": stubs,
        "shadowed": shadowed,
        "setup_job": setup_job,
    }


class _ServerBroken(Exception):
    pass


def _read_frame_by(fd: int, deadline: float, buffer: bytearray) -> bytes:
    """One frame from `fd`, or _ServerBroken at end of file or past `deadline`."""
    while True:
        payload = probe_child.split_frame(buffer)
        if payload is not None:
            del buffer[: 4 + len(payload)]
            return payload
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise _ServerBroken("no answer from the fork server in time")
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        if poller.poll(min(remaining, 3600.0) * 1000):
            chunk = os.read(fd, 65536)
            if not chunk:
                raise _ServerBroken("the fork server exited")
            buffer += chunk


def _kill_group(pid: int | None) -> None:
    if pid is not None:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass


def _close(fd: int | None) -> None:
    if fd is not None:
        try:
            os.close(fd)
        except OSError:
            pass


class _Slot:
    """The parent's end of one slot server: a job pipe, a reply pipe, its pid (= group)."""

    def __init__(self, job_fd: int, reply_fd: int) -> None:
        self.job_fd: int | None = job_fd
        self.reply_fd: int | None = reply_fd
        self.pid: int | None = None
        self.buffer = bytearray()

    def send(self, payload: bytes) -> None:
        if self.job_fd is None:
            raise _ServerBroken("the fork server is closed")
        data = memoryview(_frame(payload))
        while data:
            data = data[os.write(self.job_fd, data) :]

    def receive(self, deadline: float) -> dict:
        if self.reply_fd is None:
            raise _ServerBroken("the fork server is closed")
        return json.loads(_read_frame_by(self.reply_fd, deadline, self.buffer))

    def close(self, kill: bool = False) -> None:
        job_fd, reply_fd, self.job_fd, self.reply_fd = self.job_fd, self.reply_fd, None, None
        if kill:
            _kill_group(self.pid)
        _close(job_fd)  # end of file: the slot server leaves
        if not kill and reply_fd is not None:
            try:  # wait briefly for it to go (its end of the reply pipe closes)
                while _read_frame_by(reply_fd, time.monotonic() + 5, self.buffer):
                    pass
            except (_ServerBroken, OSError, ValueError):
                pass
        _close(reply_fd)


def _start_fork_servers(
    config: dict, count: int, interpreter: _Interpreter
) -> tuple[list[_Slot], dict]:
    """Start one fork server that preloads `config["prelude"]` once and forks `count` slots.

    Returns the slots and the server's report; no slots if the prelude failed its check.
    """
    slots: list[_Slot] = []
    server_fds: list[int] = []
    try:
        for _ in range(count):
            job_r, job_w = os.pipe()
            reply_r, reply_w = os.pipe()
            slots.append(_Slot(job_w, reply_r))
            server_fds += [job_r, reply_w]
        proc = subprocess.Popen(
            interpreter.command("serve"),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=interpreter.environment,
            close_fds=True,
            pass_fds=server_fds,
            start_new_session=True,
            bufsize=0,
        )
    finally:
        for fd in server_fds:
            _close(fd)
    stdin, stdout = _piped(proc.stdin), _piped(proc.stdout)
    try:
        pairs = [server_fds[i : i + 2] for i in range(0, len(server_fds), 2)]
        stdin.write(_frame(marshal.dumps(dict(config, slots=pairs), MARSHAL_VERSION)))
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        report = json.loads(_read_frame_by(stdout.fileno(), deadline, bytearray()))
        if report["ready"]:
            for slot in slots:
                slot.pid = int(slot.receive(deadline)["pid"])
    except BaseException:
        for slot in slots:
            slot.close(kill=True)
        _kill_group(proc.pid)
        raise
    finally:
        for stream in (stdin, stdout):
            stream.close()
        try:
            proc.wait(timeout=SERVER_START_TIMEOUT)  # it leaves once the slots are forked
        except subprocess.TimeoutExpired:
            _kill_group(proc.pid)
            proc.wait()
    if not report["ready"]:
        for slot in slots:
            slot.close(kill=True)
        return [], report
    return slots, report


class _ForkServers:
    """The fork servers of one batch: one preload, one slot server per worker."""

    def __init__(self, config: dict, interpreter: _Interpreter) -> None:
        self.config = config
        self.interpreter = interpreter
        self.preloaded: tuple[str, ...] = ()
        self.prelude_problems: tuple[str, ...] = ()

    def start(self, count: int) -> list[_Slot]:
        narrowed = 0
        for _ in range(5):
            slots, report = _start_fork_servers(self.config, count, self.interpreter)
            if slots:
                self.preloaded = tuple(report["preloaded"])
                return slots
            if report.get("setup_failed"):
                # Setup failed in the server, or left threads running (unsafe to fork): each
                # child runs it itself, and reports how it fails.
                self.config = dict(self.config, setup_job=None)
            elif report["problems"]:
                # The prelude pulled in something this batch forbids, stubs or shadows (on
                # Python 3.13 importlib.metadata imports json): imports cannot be undone, so
                # start again without the modules that brought it in, twice at most (another
                # may bring it in once they are gone), then with no prelude at all.
                self.prelude_problems = tuple(report["problems"])
                culprits = set(report.get("culprits") or ())
                narrowed += 1
                prelude = self.config["prelude"] if culprits and narrowed <= 2 else []
                prelude = [name for name in prelude if name not in culprits]
                self.config = dict(self.config, prelude=prelude)
            else:
                break
        raise _ServerBroken(f"fork server refused to start: {report}")


class _ForkServer(_Runner):
    """One slot server: forks one child per probe; restarted alone if it dies."""

    def __init__(self, servers: _ForkServers, slot: _Slot | None) -> None:
        self.servers = servers
        self.slot = slot
        self._child: int | None = None
        self._lock = threading.Lock()

    def run(self, request: ProbeRequest) -> ProbeOutcome:
        start = time.monotonic()
        try:
            if self.slot is None:
                [self.slot] = self.servers.start(1)
            slot = self.slot
            slot.send(_job(request))
            started = slot.receive(time.monotonic() + SERVER_START_TIMEOUT)
            with self._lock:
                self._child = int(started["pid"])
            slot.send(probe_child.GO)  # known now: killed with the rest on Ctrl-C or SIGTERM
            report = slot.receive(time.monotonic() + request.timeout + SERVER_GRACE)
            with self._lock:
                self._child = None
            return _outcome(request, report)
        except (_ServerBroken, OSError, ValueError, KeyError) as error:
            self.abort()
            detail = f"the probe's fork server failed ({error}); the module may have killed it"
            return ProbeOutcome(
                request.module, ProbeOutcomeKind.CRASHED, (), detail, time.monotonic() - start
            )

    def close(self) -> None:
        with self._lock:
            slot, self.slot = self.slot, None
        if slot is not None:
            slot.close()

    def abort(self) -> None:
        with self._lock:
            slot, child = self.slot, self._child
            self.slot, self._child = None, None
        _kill_group(child)
        if slot is not None:
            slot.close(kill=True)
