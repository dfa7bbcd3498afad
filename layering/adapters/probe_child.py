"""The code that runs inside a probe's child interpreter (standard library only).

It is started as a script, `python -I -B <this file>` (a fresh interpreter per probe), or
`python -I -B <this file> serve` (a fork server: it preloads a prelude of standard-library
modules once, then forks one child per probe). `python` is the interpreter the probes run
in, which need not be the one running `layering`: any CPython 3.10 or newer, with nothing
of `layering` installed. So this file imports nothing from `layering` and is executed by
its path, never imported by the child. Either way a child:

1. reads its job from a channel of our own, never from text that gets evaluated: a frame
   (4-byte big-endian length + `marshal` data holding only strings, lists and numbers) on
   standard input, or handed over by the fork server;
2. puts the job's source roots at the front of `sys.path`, installs a finder that turns the
   stub names (and everything below them) into inert placeholder modules, and a recording
   finder, first on `sys.meta_path`, that notes for every module who loaded it (the module,
   file and line of the `import` statement or `importlib.import_module(...)` call, and
   whether it was loaded as the parent package of a submodule) and then delegates;
3. runs the job's setup entries (`module:callable` or `module`, e.g. `django:setup`), or
   starts from the state a fork server left after running them once for all its children;
   what the interpreter loaded at start and what setup loaded are set apart, never
   reported as loaded by the probed module (forbidden ones among them are reported
   separately, so the contract can say it cannot fail for them);
4. imports the module and classifies what happened; for every newly loaded module a
   forbidden pattern covers, it follows the recorded links back to the probed module;
5. writes the result as a frame of JSON on its private channel (a duplicate of the original
   stdout; fd 1 itself then points at /dev/null, so nothing the module prints can mix with
   it) and leaves with `os._exit(0)`, so non-daemon threads or `atexit` hooks of the
   imported code cannot hold it up.

This file imports nothing beyond what a bare interpreter has already loaded at start-up
(`sys`, `os`, `marshal`, the frozen import system) before the probed module is imported:
anything else it imported first would sit in `sys.modules`, hide the module's own import of
it from the recorder, and could even hide a forbidden module. The JSON writer is therefore
a small one of its own. Other modules (`select`, `time`, `traceback`) are imported only
after the verdict is taken, or in the fork server only after the prelude snapshot (each
forked child drops them from `sys.modules` again).

The parent side is `layering.adapters.probe_runner`; `supervise` below is shared by the fork
server and the parent's one-interpreter-per-probe mode.
"""

import marshal
import os
import sys

_bootstrap = sys.modules.get("importlib._bootstrap") or sys.modules["_frozen_importlib"]
_HARNESS = globals()

STDERR_TAIL = 4096
"""How many bytes of the child's stderr are kept (the last ones) for crash diagnostics."""

_MACHINERY = frozenset(
    {
        "importlib",
        "importlib._bootstrap",
        "importlib._bootstrap_external",
        "importlib.util",
        "_frozen_importlib",
        "_frozen_importlib_external",
    }
)


# --------------------------------------------------------------------------- framing


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


GO = b"go"
"""The frame a slot server's parent sends once it holds a probe's pid: the probe may start."""


def write_frame(fd, payload):
    """Write `payload` (bytes) on `fd` preceded by its length (4 bytes, big-endian)."""
    _write_all(fd, len(payload).to_bytes(4, "big") + payload)


def _read_exact(fd, size):
    chunks = []
    while size:
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def read_frame(fd):
    """Read one frame from `fd`; None at end of file."""
    head = _read_exact(fd, 4)
    if head is None:
        return None
    return _read_exact(fd, int.from_bytes(head, "big"))


def split_frame(data):
    """The payload of a complete frame at the start of `data`, or None if it is cut short."""
    if len(data) < 4:
        return None
    size = int.from_bytes(data[:4], "big")
    if len(data) < 4 + size:
        return None
    return bytes(data[4 : 4 + size])


# --------------------------------------------------------------------------- JSON out

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _json_string(text):
    out = ['"']
    for char in text:
        code = ord(char)
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif 0x20 <= code < 0x7F:
            out.append(char)
        elif code > 0xFFFF:
            code -= 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)))
        else:
            out.append("\\u%04x" % code)
    out.append('"')
    return "".join(out)


def to_json(value):
    """JSON text (ASCII only) for None, booleans, numbers, strings, lists/tuples and dicts."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):
        return (
            repr(value)
            if value == value and value not in (float("inf"), float("-inf"))
            else "null"
        )
    if isinstance(value, str):
        return _json_string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(to_json(item) for item in value) + "]"
    if isinstance(value, dict):
        return (
            "{" + ",".join(_json_string(str(k)) + ":" + to_json(v) for k, v in value.items()) + "}"
        )
    return _json_string(str(value))


# --------------------------------------------------------------------------- patterns


def _segment_match(pattern, name):
    """Whether the segments `name` match the pattern segments (`*` one, `**` one or more)."""
    if not pattern:
        return not name
    head = pattern[0]
    if head == "**":
        return any(_segment_match(pattern[1:], name[i:]) for i in range(1, len(name) + 1))
    if not name:
        return False
    if head != "*" and head != name[0]:
        return False
    return _segment_match(pattern[1:], name[1:])


def covering_prefix(pattern, module):
    """The shortest prefix of `module` the pattern matches (it covers the rest), or None."""
    pattern_parts = pattern.split(".")
    parts = module.split(".")
    for end in range(1, len(parts) + 1):
        if _segment_match(pattern_parts, parts[:end]):
            return ".".join(parts[:end])
    return None


def is_within(module, package):
    return module == package or module.startswith(package + ".")


# --------------------------------------------------------------------------- stubs


class _StubBase:
    """What a class that derives from a placeholder actually derives from."""

    def __init__(self, *args, **kwargs):
        pass

    def __init_subclass__(cls, **kwargs):
        pass

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _Placeholder(type(self).__name__ + "." + name)


def _inert(self, *args, **kwargs):
    return _Placeholder(self._stub_name + "(...)")


def _false(self, *args, **kwargs):
    return False


class _Placeholder:
    """An inert stand-in: attributes, calls, items and arithmetic give more placeholders."""

    def __init__(self, name):
        object.__setattr__(self, "_stub_name", name)

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _Placeholder(self._stub_name + "." + name)

    def __call__(self, *args, **kwargs):
        if (
            len(args) == 1
            and not kwargs
            and callable(args[0])
            and not isinstance(args[0], _Placeholder)
        ):
            return args[0]  # used as a decorator: keep the decorated function or class
        return _Placeholder(self._stub_name + "()")

    def __mro_entries__(self, bases):
        first = next(base for base in bases if isinstance(base, _Placeholder))
        return (_StubBase,) if first is self else ()

    def __iter__(self):
        return iter(())

    def __len__(self):
        return 0

    def __bool__(self):
        return False

    def __int__(self):
        return 0

    __index__ = __int__

    def __float__(self):
        return 0.0

    def __str__(self):
        return self._stub_name

    def __repr__(self):
        return "<stub " + self._stub_name + ">"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __contains__(self, item):
        return False

    def __instancecheck__(self, instance):
        return False

    def __subclasscheck__(self, subclass):
        return False

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return self is not other

    __getitem__ = __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _inert
    __truediv__ = __rtruediv__ = __floordiv__ = __mod__ = __pow__ = __matmul__ = _inert
    __or__ = __ror__ = __and__ = __rand__ = __xor__ = __neg__ = __pos__ = __invert__ = _inert
    __lt__ = __le__ = __gt__ = __ge__ = _false


def _module_getattr(module_name):
    def __getattr__(name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return _Placeholder(module_name + "." + name)

    return __getattr__


class _StubFinder:
    """Finds each stub name and everything below it as an inert placeholder package."""

    def __init__(self, names):
        self.names = tuple(names)

    def covers(self, name):
        return any(is_within(name, stub) for stub in self.names)

    def find_spec(self, name, path=None, target=None):
        if not self.covers(name):
            return None
        return _bootstrap.ModuleSpec(name, self, origin="stub", is_package=True)

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        module.__dict__["__getattr__"] = _module_getattr(module.__name__)
        module.__dict__["__version__"] = "0.0.0"

    def invalidate_caches(self):
        pass


# --------------------------------------------------------------------------- recorder


class _Recorder:
    """First on `sys.meta_path`: notes who loads each module, then lets the others find it."""

    def __init__(self):
        self.records = {}  # module -> (importer, path, line, via_parent)
        self.pending = set()  # asked for, not yet seen in sys.modules
        self.seen = set()  # seen in sys.modules at some point (even if deleted later)

    def find_spec(self, name, path=None, target=None):
        try:
            self._check_pending()
            self.records[name] = self._who(name)
            self.pending.add(name)
        except Exception:  # the recorder must never break an import
            pass
        return None

    def invalidate_caches(self):
        pass

    def _check_pending(self):
        if self.pending:
            modules = sys.modules
            found = [name for name in self.pending if name in modules]
            for name in found:
                self.pending.discard(name)
                self.seen.add(name)

    def audit(self, event, args):
        # A module's code runs through exec() once it sits in sys.modules: catch it there,
        # so a module deleted from sys.modules right after its import still counts.
        if event == "exec" and self.pending:
            try:
                self._check_pending()
            except Exception:
                pass

    @staticmethod
    def _who(name):
        frame = sys._getframe(2)
        via_parent = False
        prefix = name + "."
        while frame is not None:
            if frame.f_globals is _HARNESS:
                return ("", "", 0, via_parent)
            code = frame.f_code
            if (
                code.co_filename.startswith("<frozen importlib")
                or frame.f_globals.get("__name__") in _MACHINERY
            ):
                if code.co_name == "_find_and_load":
                    loading = frame.f_locals.get("name")
                    if isinstance(loading, str) and loading.startswith(prefix):
                        via_parent = True
                frame = frame.f_back
                continue
            importer = frame.f_globals.get("__name__")
            if not isinstance(importer, str):
                importer = "?"
            return (importer, code.co_filename, frame.f_lineno or 0, via_parent)
        return ("?", "", 0, via_parent)


# --------------------------------------------------------------------------- the probe


def _chain(records, found, module):
    """The hops from the probed module (or a parent package of it) down to `found`."""
    hops = []
    current = found
    visited = set()
    while current in records and current not in visited:
        visited.add(current)
        importer, path, line, via_parent = records[current]
        if importer == "":
            break
        hops.append([importer, current, path, line, via_parent])
        if importer == "?" or is_within(module, importer):
            break
        current = importer
    hops.reverse()
    return hops


def _format_exception(error):
    """The traceback from the first frame of imported code; only the error line if it has none."""
    tb = error.__traceback__
    while tb is not None and (
        tb.tb_frame.f_globals is _HARNESS
        or tb.tb_frame.f_code.co_filename.startswith("<frozen importlib")
    ):
        tb = tb.tb_next  # our own frames and the import machinery's say nothing about the module
    try:
        import traceback

        return "".join(traceback.format_exception(type(error), error, tb))
    except BaseException:
        lines = ["Traceback (most recent call last):\n"] if tb is not None else []
        while tb is not None:
            code = tb.tb_frame.f_code
            lines.append(
                '  File "%s", line %s, in %s\n' % (code.co_filename, tb.tb_lineno, code.co_name)
            )
            tb = tb.tb_next
        try:
            text = str(error)
        except BaseException:
            text = "<unprintable>"
        lines.append("%s: %s\n" % (type(error).__name__, text))
        return "".join(lines)


def _found_forbidden(names, forbidden, stubs):
    """Per pattern, the outermost loaded modules it covers (stubbed ones never count)."""
    found = set()
    for pattern in forbidden:
        covered = {}
        for name in names:
            if any(is_within(name, stub) for stub in stubs):
                continue
            prefix = covering_prefix(pattern, name)
            if prefix is not None:
                covered[name] = prefix
        for name in covered:
            parts = name.split(".")
            if not any(".".join(parts[:end]) in covered for end in range(1, len(parts))):
                found.add(name)
    return sorted(found)


def _run_setup(entry):
    """Run one setup entry: import `module`, then call `module:callable` (a dotted attribute)."""
    module_name, _, attribute = entry.partition(":")
    target = _bootstrap._gcd_import(module_name)
    if attribute:
        for part in attribute.split("."):
            target = getattr(target, part)
        target()


def _describe_failure(error, during):
    """The detail and missing module name of an exception raised by imported code.

    Called only after the verdict is taken: formatting a traceback imports modules.
    """
    if isinstance(error, SystemExit):
        return "sys.exit(%r) during %s" % (error.code, during), ""
    missing = ""
    if isinstance(error, ModuleNotFoundError) and isinstance(error.name, str):
        missing = error.name
    return _format_exception(error), missing


def _loaded_before(name, startup, loaded_by_setup, records):
    """How `name` got into `sys.modules` before the probed import: at start, or by a setup entry.

    `loaded_by_setup` maps each module a setup entry loaded to that entry; the chain of a
    module setup loaded runs from the entry's module down to it.
    """
    if name in startup:
        return {"module": name, "setup": "", "chain": []}
    entry = loaded_by_setup.get(name, "?")
    return {
        "module": name,
        "setup": entry,
        "chain": _chain(records, name, entry.partition(":")[0]),
    }


class _Prepared:
    """The state a probe starts from: its recorder, and what setup loaded (or how it failed)."""

    def __init__(self, recorder, loaded_by_setup, setup_records, seen, failed_setup, error):
        self.recorder = recorder
        self.loaded_by_setup = loaded_by_setup
        self.setup_records = setup_records
        self.seen = seen
        self.failed_setup = failed_setup
        self.error = error


def _prepare(job):
    """Put the job's source roots first on `sys.path`, install the stub finder and the recorder,
    and run the job's setup entries, recording what each loads.

    A probe's child does this itself, or a fork server does it once for all its children.
    """
    sys.argv[:] = sys.argv[:1]
    sys.path[0:0] = list(job["roots"])
    recorder = _Recorder()
    finders = [recorder]
    if job["stubs"]:
        finders.append(_StubFinder(job["stubs"]))
    sys.meta_path[0:0] = finders
    sys.addaudithook(recorder.audit)
    loaded_by_setup, failed_setup, error = {}, "", None
    for entry in job["setup"]:
        already = set(sys.modules)
        try:
            _run_setup(entry)
        except BaseException as raised:  # noqa: BLE001 - reported as the setup's failure
            failed_setup, error = entry, raised
        for name in sys.modules:
            if name not in already:
                loaded_by_setup[name] = entry
        if failed_setup:
            break
    recorder._check_pending()
    prepared = _Prepared(
        recorder, loaded_by_setup, recorder.records, recorder.seen, failed_setup, error
    )
    recorder.records, recorder.pending, recorder.seen = {}, set(), set()
    return prepared


def probe(job, result_fd, startup, prepared=None):
    """Import `job["module"]` here and now, report on `result_fd`, and leave the process.

    `startup` holds the names of the modules the interpreter had loaded when it started;
    `prepared` is the state a fork server prepared for the job (else the child prepares it).
    """
    my_pid = os.getpid()
    module = job["module"]
    forbidden = list(job["forbidden"])
    stubs = list(job["stubs"])
    saved_path = list(sys.path)
    try:

        def _grandchild():
            # A fork of the imported code must not hold the result channel open or answer.
            try:
                os.close(result_fd)
            except OSError:
                pass

        if hasattr(os, "register_at_fork"):
            os.register_at_fork(after_in_child=_grandchild)
        if prepared is None:
            prepared = _prepare(job)
            if os.getpid() != my_pid:
                os._exit(0)  # a fork made by setup came back here: only the child itself answers
        recorder = prepared.recorder
        kind, error, failed_setup, detail, missing = (
            "clean",
            prepared.error,
            prepared.failed_setup,
            "",
            "",
        )
        if failed_setup:
            kind = "setup_failed"
        before = set(sys.modules) | prepared.seen
        if module in before:
            module = next((name for name in job["fallbacks"] if name not in before), module)
        if not failed_setup:
            try:
                _bootstrap._gcd_import(
                    module
                )  # what importlib.import_module does for an absolute name
            except SystemExit as raised:
                kind, error = "crashed", raised
            except BaseException as raised:  # noqa: BLE001 - all it raises is a finding
                kind, error = "import_failed", raised
        if os.getpid() != my_pid:
            os._exit(0)  # a fork of the module came back here: only the child itself answers
        names = set(sys.modules) - before  # the verdict: taken before we import anything ourselves
        recorder._check_pending()
        names |= recorder.seen
        try:
            sys.meta_path.remove(recorder)
        except ValueError:
            pass
        sys.path[:] = saved_path
        if error is not None:
            detail, missing = _describe_failure(error, "setup" if failed_setup else "import")
        loaded_by_setup, setup_records = prepared.loaded_by_setup, prepared.setup_records
        forbidden_before = [
            _loaded_before(name, startup, loaded_by_setup, setup_records)
            for name in _found_forbidden(before, forbidden, stubs)
        ]
        module_before = None
        if module in startup or module in loaded_by_setup:
            module_before = _loaded_before(module, startup, loaded_by_setup, setup_records)
        loaded = []
        for name in _found_forbidden(names, forbidden, stubs):
            loaded.append({"module": name, "chain": _chain(recorder.records, name, module)})
        if kind == "clean" and loaded:
            kind = "loaded"
        result = {
            "module": module,
            "kind": kind,
            "detail": detail,
            "missing": missing,
            "setup": failed_setup,
            "loaded": loaded,
            "forbidden_before": forbidden_before,
            "module_before": module_before,
        }
    except BaseException as failure:  # a failure of the harness itself
        result = {
            "kind": "crashed",
            "detail": "probe harness failed: %r" % (failure,),
            "loaded": [],
        }
    try:
        write_frame(result_fd, to_json(result).encode("ascii"))
        for stream in (sys.stderr, sys.stdout):
            try:
                stream.flush()
            except BaseException:
                pass
    except BaseException:
        os._exit(1)
    os._exit(0)


# --------------------------------------------------------------------------- supervision


def _wait_exited(pid):
    """The wait status of `pid` if it has exited, without reaping it where possible."""
    if hasattr(os, "waitid") and hasattr(os, "WNOWAIT"):
        try:
            info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return -1
        return None if info is None else 0
    done, status = os.waitpid(pid, os.WNOHANG)
    return status if done else None


def _reap(pid, kill_group):
    if kill_group:
        try:
            os.killpg(pid, 9)  # SIGKILL: whatever the probe left running in its group
        except OSError:
            pass
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        status = None
    return status


def supervise(pid, result_fd, stderr_fd, timeout, close=True, start=None, parent_fd=None):
    """Watch child `pid` until it exits or `timeout` seconds pass (then kill its group).

    Reads the result channel and the stderr pipe as they fill (keeping the last
    `STDERR_TAIL` bytes of stderr) and does not wait for end-of-file on stderr, which a
    grandchild may hold. Closes both descriptors if `close`. `start` (a `time.monotonic()`
    value, default now) is when the timeout began. Returns a dict: `status` (raw wait status
    or None), `timed_out`, `result` (the frame payload as text, or None), `stderr`, `seconds`.
    The child must lead its own process group. `parent_fd`, a pipe's read end whose writer is
    the run: when the run is gone (its end closed, however it ended, SIGKILL included), the
    child's group is killed at once rather than left running the project's code unwatched.
    """
    import select
    import time

    if start is None:
        start = time.monotonic()
    deadline = start + timeout
    result = bytearray()
    tail = bytearray()
    buffers = {result_fd: result, stderr_fd: tail}
    open_fds = [result_fd, stderr_fd]
    use_poll = hasattr(select, "poll")
    poller = select.poll() if use_poll else None
    if use_poll:
        for fd in open_fds:
            poller.register(fd, select.POLLIN)
        if parent_fd is not None:
            poller.register(parent_fd, 0)  # reported only when it hangs up or fails
    timed_out = False
    pause = 0.0005
    try:
        while True:
            now = time.monotonic()
            if now >= deadline:
                timed_out = True
                break
            if result_fd in open_fds:
                wait = min(deadline - now, 0.5)
            else:
                if _wait_exited(pid) is not None:
                    break
                wait = min(deadline - now, pause)
                pause = min(pause * 2, 0.05)
            if not open_fds and not use_poll:
                time.sleep(wait)
                continue
            if use_poll:
                ready = [fd for fd, _ in poller.poll(wait * 1000)]
            else:
                ready = select.select(open_fds, [], [], wait)[0]
            if parent_fd is not None and parent_fd in ready:
                break  # the run is gone: _reap kills the group below
            if not ready and result_fd in open_fds and _wait_exited(pid) is not None:
                break  # the child died while something else still holds the result pipe
            for fd in ready:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    open_fds.remove(fd)
                    if use_poll:
                        poller.unregister(fd)
                    continue
                buffer = buffers[fd]
                buffer += chunk
                if fd == stderr_fd and len(buffer) > 2 * STDERR_TAIL:
                    del buffer[: len(buffer) - STDERR_TAIL]
        for fd in open_fds:  # what is already in the pipes, without waiting for anyone
            os.set_blocking(fd, False)
            for _ in range(256):
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                buffers[fd] += chunk
    finally:
        status = _reap(pid, kill_group=True)
        if close:
            for fd in (result_fd, stderr_fd):
                try:
                    os.close(fd)
                except OSError:
                    pass
    payload = split_frame(result)
    return {
        "status": status,
        "timed_out": timed_out,
        "result": None if payload is None else payload.decode("ascii", "replace"),
        "stderr": bytes(tail[-STDERR_TAIL:]).decode("utf-8", "replace"),
        "seconds": time.monotonic() - start,
    }


# --------------------------------------------------------------------------- entry points


def _private_channels():
    """Keep a private duplicate of stdin and stdout, then point fds 0 and 1 at /dev/null."""
    channel_in = os.dup(0)
    channel_out = os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    os.close(devnull)
    return channel_in, channel_out


def _spawn_main():
    startup = set(sys.modules)
    channel_in, channel_out = _private_channels()
    frame = read_frame(channel_in)
    os.close(channel_in)
    if frame is None:
        os._exit(2)
    probe(marshal.loads(frame), channel_out, startup)


def _prelude_problems(new_modules, config):
    problems = []
    stubs = config["stubs"]
    shadowed = set(config["shadowed"])
    for name in sorted(new_modules):
        if any(covering_prefix(pattern, name) is not None for pattern in config["forbidden"]):
            problems.append(name + " is forbidden")
        elif any(is_within(name, stub) for stub in stubs):
            problems.append(name + " is stubbed")
        elif name.split(".")[0] in shadowed:
            problems.append(name + " is shadowed by a source root")
    return problems


def _serve_main():
    """The fork server: preload and check the prelude (and run the setup) once, then fork one
    slot server per slot.

    Protocol. On the original stdin/stdout (fds 0 and 1 then point at /dev/null):
    parent -> server: one config frame (marshal: prelude, forbidden, stubs, shadowed,
    `setup_job` (None, or the roots, stubs and setup entries every job of the batch shares),
    and `slots`, a list of [job fd, reply fd] pairs the parent passed down);
    server -> parent: one JSON frame `{"ready": bool, "preloaded": [...], "problems": [...],
    "culprits": [...], "setup_failed": bool}` (`culprits`: the prelude's modules whose import
    brought in a problem). With a `setup_job`, the server prepares it once after the prelude
    (`_prepare`: roots, stubs, recorder, setup), so each child starts from the state setup left;
    if setup fails or leaves threads running (unsafe to fork), it is not ready and the parent
    starts a server whose children run setup themselves. If ready, the server forks one slot
    server per pair and leaves. On its pair, a slot
    server says `{"pid": N}` (its own pid, the id of its process group), then reads one job
    frame (marshal) per probe until end of file, and answers each with `{"pid": N}` once the
    probe child is forked, then with the `supervise` dict.
    """
    channel_in, channel_out = _private_channels()
    frame = read_frame(channel_in)
    if frame is None:
        os._exit(0)
    config = marshal.loads(frame)
    slots = [tuple(pair) for pair in config["slots"]]
    for pair in slots:
        for fd in pair:
            os.set_inheritable(fd, False)
    baseline = set(sys.modules)
    culprits = []
    for name in config["prelude"]:
        before = set(sys.modules)
        try:
            __import__(name)
        except BaseException:
            pass
        if _prelude_problems(set(sys.modules) - before, config):
            culprits.append(name)
    preloaded = set(sys.modules) - baseline
    problems = _prelude_problems(preloaded, config)
    prepared, setup_failed = None, False
    if not problems and config["setup_job"] is not None:
        server = os.getpid()
        prepared = _prepare(config["setup_job"])
        if os.getpid() != server:
            os._exit(0)  # a fork made by setup came back here
        threading = sys.modules.get("threading")
        setup_failed = bool(prepared.failed_setup) or (
            threading is not None and threading.active_count() > 1
        )
    ready = not problems and not setup_failed
    write_frame(
        channel_out,
        to_json(
            {
                "ready": ready,
                "preloaded": sorted(preloaded),
                "problems": problems,
                "culprits": culprits,
                "setup_failed": setup_failed,
            }
        ).encode("ascii"),
    )
    if not ready:
        os._exit(0)  # imports cannot be undone: the parent starts another server
    keep = set(sys.modules)
    import gc  # loaded only now, after the snapshot: each child drops them again
    import time

    # Keep the collector of each child from walking (and so copying) the preloaded heap.
    gc.collect()
    gc.freeze()
    for index, (job_fd, reply_fd) in enumerate(slots):
        if os.fork() == 0:
            try:
                os.setpgid(0, 0)
                os.close(channel_in)
                os.close(channel_out)
                for other, pair in enumerate(slots):
                    if other != index:
                        for fd in pair:
                            os.close(fd)
                _serve_slot(job_fd, reply_fd, keep, baseline, prepared, time)
            finally:
                os._exit(0)
    os._exit(0)


def _serve_slot(job_fd, reply_fd, keep, startup, prepared, time):
    write_frame(reply_fd, to_json({"pid": os.getpid()}).encode("ascii"))
    while True:
        frame = read_frame(job_fd)
        if frame is None:
            os._exit(0)
        job = marshal.loads(frame)
        read_result, write_result = os.pipe()
        read_err, write_err = os.pipe()
        go_r, go_w = os.pipe()
        start = time.monotonic()
        pid = os.fork()
        if pid == 0:
            try:
                os.setpgid(0, 0)
                for fd in (read_result, read_err, job_fd, reply_fd, go_w):
                    os.close(fd)
                os.dup2(write_err, 2)
                os.close(write_err)
                # No code of the module runs before the parent knows this process (its group
                # is what a Ctrl-C kills): wait for its word, forwarded here; none, no probe.
                if _read_exact(go_r, 1) is None:
                    os._exit(0)
                os.close(go_r)
                for name in list(sys.modules):
                    if name not in keep:
                        del sys.modules[name]
                probe(job, write_result, startup, prepared)
            finally:
                os._exit(70)
        os.close(write_result)
        os.close(write_err)
        os.close(go_r)
        try:
            os.setpgid(pid, pid)
        except OSError:
            pass
        write_frame(reply_fd, to_json({"pid": pid}).encode("ascii"))
        if read_frame(job_fd) != GO:
            os.close(go_w)
            os.killpg(pid, 9)
            os._exit(0)
        _write_all(go_w, b"g")
        os.close(go_w)
        report = supervise(
            pid, read_result, read_err, job["timeout"], start=start, parent_fd=job_fd
        )
        write_frame(reply_fd, to_json(report).encode("ascii"))


if __name__ == "__main__":
    if sys.argv[1:] == ["serve"]:
        _serve_main()
    else:
        _spawn_main()
