"""What a run with nothing cached writes for the runs after it, built beside the run.

Such a run hashes the files its graph read (the content digests that key the caches), signs
what grimp read of each module (the import signatures the verdicts depend on) and writes the
import cache, the files' states (the manifest) and its verdicts with what they depend on: work
its own verdicts do not need. In the run's interpreter that work would compete with the run for
the interpreter lock. So on Linux, while the run has no thread yet, a process forked before the
scan (while the run is small, so that the fork copies little) waits for what the scan read and
does it at the lowest priority, on the core the contracts leave idle; the run hands it its
verdicts at the end and waits only for them to be written. Elsewhere, or when the run already
has threads (which a fork does not copy), a thread does the same work.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import signal
import struct
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple, Protocol

from layering.adapters.cache_files import MARSHAL_VERSION
from layering.adapters.grimp_scan import signature_of
from layering.adapters.import_cache import ImportCache, Statement
from layering.adapters.package_files import PackageFiles
from layering.adapters.result_cache import encoded, hashed_file

Hashed = dict[str, tuple[str, "list | None"]]
"""Each file's digest and stamp (`result_cache.hashed_file`), by module."""


class CacheWriter(Protocol):
    """What a builder writes through: the cache, as the run that forked it set it up."""

    def keep(self, hashed: Hashed, signatures: dict[str, str]) -> list[str]:
        """Write the files' states (`result_cache.ResultCache.store_manifest`) from each
        file's digest and stamp and the signatures of the modules read; what could not be
        written (a warning each)."""
        ...

    def store(
        self, hashed: Hashed, signatures: bytes, imported: bytes, verdicts: Any
    ) -> list[str]:
        """Write the run's verdicts (what `CacheBuilder.finish` was given) with what they
        depend on, from the files' digests and stamps, the signatures and what each module read
        imports (both `result_cache.encoded`, while the run decides); what could not be written
        (a warning each)."""
        ...


class ImportsRead(NamedTuple):
    """What grimp read of the modules a graph was built from, for the import cache in
    `directory` (None: none is kept) written by `written_by`, read the way `mode` says
    (`signature_of`), and their files' stamps from before grimp read them
    (`PackageFiles.stamps`, taken after a builder process was forked)."""

    directory: str | None
    written_by: str
    mode: str
    statements: dict[str, tuple[Statement, ...]]
    stamps: dict[str, tuple[list | None, str | None]]


class _Verdicts(NamedTuple):
    """The run's verdicts, handed over last (None: none to store)."""

    verdicts: Any


class _Building:
    """The builder's work, an item at a time (`take`): hash the files grimp read (only those: a
    contract about what a few modules reach reads a few of a large package's files), sign what
    it read, write the import cache, keep the files' states and encode what the verdicts depend
    on; then store the verdicts. The files are hashed once grimp has read them, not while it
    does: its scan uses both cores (hashing beside it slowed transformers' scan by 30 ms). A
    file is cached by its digest only where it is provably the file the walk found before grimp
    read it (`PackageFiles.is_unchanged`): one saved in between keeps no reading."""

    def __init__(self, files: PackageFiles, writer: CacheWriter) -> None:
        self._package = files
        self._files = files.files
        self._writer = writer
        self._hashed: dict[str, tuple[str, list | None]] = {}
        self._signatures: dict[str, str] = {}
        self._imported: dict[str, tuple[str, ...]] = {}
        self._encoded = (encoded(self._signatures), encoded(self._imported))
        self._problems: list[str] = []
        self._kept = False

    def take(self, item: _Item) -> None:
        if isinstance(item, ImportsRead):
            self._read(item)
        elif item.verdicts is not None:
            self._keep_states()
            self._problems.extend(self._writer.store(self._hashed, *self._encoded, item.verdicts))

    def _read(self, read: ImportsRead) -> None:
        self._package.stamps.update(read.stamps)
        self._hashed.update(
            (m, hashed_file(self._files[m]))
            for m in read.statements
            if m in self._files and m not in self._hashed
        )
        entries = {}
        for module, statements in read.statements.items():
            signature = self._signatures[module] = signature_of(statements, read.mode)
            digest, stamp = self._hashed.get(module, ("", None))
            entries[module] = (
                digest if self._package.is_unchanged(module, stamp, digest) else "",
                signature,
                statements,
            )
            self._imported[module] = tuple(statement[0] for statement in statements)
        if read.directory is not None:
            try:
                ImportCache(read.directory, read.written_by).write(entries)
            except OSError as error:
                self._problems.append(
                    f"the import cache in {read.directory} could not be written "
                    f"({error.strerror or error})"
                )
        self._problems.extend(self._writer.keep(self._hashed, self._signatures))
        self._kept = True
        self._encoded = (encoded(self._signatures), encoded(self._imported))

    def _keep_states(self) -> None:
        if not self._kept:
            self._problems.extend(self._writer.keep(self._hashed, self._signatures))
            self._kept = True

    def problems(self) -> list[str]:
        """What could not be written; the files' states kept now if no reading came."""
        self._keep_states()
        return list(dict.fromkeys(self._problems))


_Item = ImportsRead | _Verdicts


def build(files: PackageFiles, items: Iterable[_Item], writer: CacheWriter) -> list[str]:
    """Build from the readings and the verdicts of `items`, here; what could not be written."""
    building = _Building(files, writer)
    for item in items:
        building.take(item)
    return building.problems()


class CacheBuilder:
    """`build` beside the run: `imports_read` hands it each reading as the graph is built,
    `finish` its verdicts, and waits for all to be written (once)."""

    def __init__(self, files: PackageFiles, writer: CacheWriter) -> None:
        self._files = files
        self._writer = writer
        self._items: list[_Item] = []
        self._problems: list[str] | None = None
        self._carrier: _Process | _Thread = (
            _Process(files, writer) if _can_fork() else _Thread(files, writer)
        )

    def imports_read(
        self,
        directory: str | None,
        written_by: str,
        mode: str,
        statements: dict[str, tuple[Statement, ...]],
        stamps: dict[str, tuple[list | None, str | None]],
    ) -> None:
        """What grimp read of the modules of a graph (`ImportsRead`), to sign and keep."""
        read = ImportsRead(directory, written_by, mode, statements, stamps)
        self._items.append(read)
        self._carrier.send(read)

    def finish(self, verdicts: Any) -> list[str]:
        """Store `verdicts` (marshal's types; None: nothing to store) once all is written; what
        could not be written. Done here should the builder's process fail."""
        if self._problems is None:
            last = _Verdicts(verdicts)
            self._items.append(last)
            problems = self._carrier.finish(last)
            self._problems = (
                problems if problems is not None else build(self._files, self._items, self._writer)
            )
        return self._problems

    def cancel(self) -> None:
        """Stop building: the run failed before it could use it."""
        if self._problems is None:
            self._carrier.cancel()
            self._problems = []


def _can_fork() -> bool:
    """Whether a fork is cheap and safe here: Linux, and this process runs one thread only (a
    fork copies only the thread that calls it; another's locks would stay held)."""
    if not sys.platform.startswith("linux") or not hasattr(os, "fork"):
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def _lowest_priority() -> None:
    """Nice 19 for the calling thread (Linux, where a thread has a nice value of its own; in
    the forked builder, the only thread): as low as an ordinary user may go and still come
    through on a busy machine, where SCHED_IDLE could starve the builder with the run waiting
    for it. On an idle machine it gets about the time of a core the run leaves idle."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)


_LENGTH = struct.Struct("<Q")


class _Process:
    """`build` in a forked process: readings, then the verdicts, go to it through a pipe, framed
    (length, then a tag and a `marshal` payload; an empty frame ends them), and what could not be
    written comes back through another."""

    def __init__(self, files: PackageFiles, writer: CacheWriter) -> None:
        items_out, self._items = os.pipe()
        self._reply, reply_in = os.pipe()
        with contextlib.suppress(OSError, AttributeError):
            import fcntl  # Linux only, as this class

            for descriptor in (self._items, self._reply):  # fewer hand-overs of a reading
                fcntl.fcntl(descriptor, fcntl.F_SETPIPE_SZ, 1 << 20)
        self.pid = os.fork()
        if self.pid == 0:  # the builder: it never returns into the run's code
            try:
                os.close(self._items)
                os.close(self._reply)
                # Hold none of the run's standard streams: whoever reads the run's output to its
                # end must not wait for the builder to exit.
                devnull = os.open(os.devnull, os.O_RDWR)
                for stream in (0, 1, 2):
                    os.dup2(devnull, stream)
                # Asked to stop (`cancel`), it unwinds: a file half written is removed.
                signal.signal(signal.SIGTERM, _stop)
                _lowest_priority()
                problems = build(files, _frames(items_out), writer)
                _write_all(reply_in, marshal.dumps(problems, MARSHAL_VERSION))
            finally:
                os._exit(0)
        os.close(items_out)
        os.close(reply_in)

    def send(self, read: ImportsRead) -> None:
        self._frame(_READ + marshal.dumps(tuple(read), MARSHAL_VERSION))

    def _frame(self, payload: bytes) -> None:
        try:
            _write_all(self._items, _LENGTH.pack(len(payload)))
            _write_all(self._items, payload)
        except OSError:
            pass  # the builder is gone: `finish` builds here instead

    def finish(self, verdicts: _Verdicts) -> list[str] | None:
        self._frame(_VERDICTS + marshal.dumps(verdicts.verdicts, MARSHAL_VERSION))
        self._frame(b"")
        os.close(self._items)
        try:
            data = _read_all(self._reply)
        finally:
            os.close(self._reply)
            # Sent once all is written: its exit (freeing a copy of the run) is not waited for.
            threading.Thread(
                target=_reap, args=(self.pid,), name="layering-cache-builder-exit", daemon=True
            ).start()
        try:
            problems = marshal.loads(data)
        except (EOFError, ValueError, TypeError):
            return None
        return problems if isinstance(problems, list) else None

    def cancel(self) -> None:
        """Stop the builder: asked first, so that it removes the file it is writing, killed if
        it has not ended within five seconds (a starved machine may take that long)."""
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGTERM)  # before its pipe ends, which would let it finish
        for descriptor in (self._items, self._reply):
            with contextlib.suppress(OSError):
                os.close(descriptor)
        for _ in range(500):
            try:
                if os.waitpid(self.pid, os.WNOHANG)[0]:
                    return
            except ChildProcessError:
                return
            time.sleep(0.01)
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        _reap(self.pid)


def _stop(signum: int, frame: Any) -> None:
    raise SystemExit(0)


_READ = b"r"
_VERDICTS = b"v"


def _frames(descriptor: int) -> Iterator[_Item]:
    """The readings and verdicts framed on a pipe, until the empty frame (or the run's end)."""
    buffer = bytearray()
    while True:
        while (
            len(buffer) < _LENGTH.size
            or len(buffer) < _LENGTH.size + _LENGTH.unpack_from(buffer)[0]
        ):
            chunk = os.read(descriptor, 1 << 20)
            if not chunk:
                return  # the run ended without the empty frame
            buffer += chunk
        size = _LENGTH.unpack_from(buffer)[0]
        if size == 0:
            return
        tag = buffer[_LENGTH.size : _LENGTH.size + 1]
        payload = marshal.loads(bytes(buffer[_LENGTH.size + 1 : _LENGTH.size + size]))
        del buffer[: _LENGTH.size + size]
        yield ImportsRead(*payload) if tag == _READ else _Verdicts(payload)


def _write_all(descriptor: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]


def _read_all(descriptor: int) -> bytes:
    parts = []
    while chunk := os.read(descriptor, 1 << 20):
        parts.append(chunk)
    return b"".join(parts)


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError, OSError):
        os.waitpid(pid, 0)


class _Thread:
    """`build` on a thread of the run, readings and verdicts handed over as they are."""

    def __init__(self, files: PackageFiles, writer: CacheWriter) -> None:
        import queue  # only here: a run that forks its builder does not import it

        self._items: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()
        self._problems: list[list[str]] = []
        self._thread = threading.Thread(
            target=self._run, args=(files, writer), name="layering-cache-builder", daemon=True
        )
        self._thread.start()

    def _run(self, files: PackageFiles, writer: CacheWriter) -> None:
        _lowest_priority()
        self._problems.append(build(files, iter(self._items.get, None), writer))

    def send(self, read: ImportsRead) -> None:
        self._items.put(read)

    def finish(self, verdicts: _Verdicts) -> list[str] | None:
        self._items.put(verdicts)
        self._items.put(None)
        self._thread.join()
        return self._problems[0] if self._problems else None

    def cancel(self) -> None:
        self._items.put(None)
