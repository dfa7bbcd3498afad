"""What a run with nothing cached writes for the runs after it, built beside the run.

Such a run hashes the files its graph read (the content digests that key the caches), signs
what grimp read of each module (the import signatures the verdicts depend on) and writes the
import cache and the files' states (the manifest): work its own verdicts do not need. In the
run's interpreter that work would compete with the run for the interpreter lock. So on Linux,
while the run has no thread yet, a process forked before the scan (while the run is small, so
that the fork copies little) waits for what the scan read and does it at the lowest priority,
on the core the contracts leave idle; the run waits for it only at the end, where it needs the
signatures to store its verdicts. Elsewhere, or when the run already has threads (which a fork
does not copy), a thread does the same work.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import queue
import struct
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import NamedTuple

from layering.adapters.grimp_scan import signature_of
from layering.adapters.import_cache import ImportCache, Statement
from layering.adapters.result_cache import MARSHAL_VERSION, hashed_file


Keep = Callable[[dict[str, tuple[str, "list | None"]], dict[str, str]], list[str]]
"""Writes what the files' states are (`result_cache.ResultCache.store_manifest`) from each
file's digest and stamp (`result_cache.hashed_file`) and the signatures of the modules read;
gives what could not be written (a warning each)."""


class ImportsRead(NamedTuple):
    """What grimp read of the modules a graph was built from, for the import cache in
    `directory` (None: none is kept) written by `written_by`, read the way `mode` says
    (`signature_of`)."""

    directory: str | None
    written_by: str
    mode: str
    statements: dict[str, tuple[Statement, ...]]


class Built(NamedTuple):
    """What the run needs of what was built: each file's digest, each read module's import
    signature, and what could not be written (a warning each)."""

    digests: dict[str, str]
    signatures: dict[str, str]
    problems: list[str]


class _Building:
    """The builder's work, a reading at a time (`take`): hash the files read (only those: a
    contract about what a few modules reach reads a few of a large package's files), sign what
    was read, write the import cache, keep the files' states."""

    def __init__(self, files: dict[str, str], keep: Keep) -> None:
        self._files = files
        self._keep = keep
        self._hashed: dict[str, tuple[str, list | None]] = {}
        self._signatures: dict[str, str] = {}
        self._problems: list[str] = []
        self._kept = False

    def take(self, read: ImportsRead) -> None:
        self._hashed.update((m, hashed_file(self._files[m])) for m in read.statements if m in self._files and m not in self._hashed)
        entries = {}
        for module, statements in read.statements.items():
            signature = self._signatures[module] = signature_of(statements, read.mode)
            entries[module] = (self._hashed[module][0] if module in self._hashed else "", signature, statements)
        if read.directory is not None:
            try:
                ImportCache(read.directory, read.written_by).write(entries)
            except OSError as error:
                self._problems.append(f"the import cache in {read.directory} could not be written ({error.strerror or error})")
        self._problems.extend(self._keep(self._hashed, self._signatures))
        self._kept = True

    def built(self) -> Built:
        """What was built; the files' states kept now if no reading came."""
        if not self._kept:
            self._problems.extend(self._keep(self._hashed, self._signatures))
            self._kept = True
        return Built({module: digest for module, (digest, _) in self._hashed.items()}, self._signatures, list(dict.fromkeys(self._problems)))


def build(files: dict[str, str], reads: Iterable[ImportsRead], keep: Keep) -> Built:
    """Sign and write each import cache `reads` yields (the modules it holds keyed by the
    digests of their files, hashed here), and `keep` the files' states after each (once, when
    none comes)."""
    building = _Building(files, keep)
    for read in reads:
        building.take(read)
    return building.built()


class CacheBuilder:
    """`build` beside the run: `imports_read` hands it each reading as the graph is built,
    `finish` waits for it (once) and gives what the run needs of it."""

    def __init__(self, files: dict[str, str], keep: Keep) -> None:
        self._files = files
        self._keep = keep
        self._reads: list[ImportsRead] = []
        self._built: Built | None = None
        self._carrier: _Process | _Thread = _Process(files, keep) if _can_fork() else _Thread(files, keep)

    def imports_read(self, directory: str | None, written_by: str, mode: str, statements: dict[str, tuple[Statement, ...]]) -> None:
        """What grimp read of the modules of a graph (`ImportsRead`), to sign and keep."""
        read = ImportsRead(directory, written_by, mode, statements)
        self._reads.append(read)
        self._carrier.send(read)

    def finish(self) -> Built:
        """What was built, once it is all written; built here should the process fail."""
        if self._built is None:
            built = self._carrier.finish()
            self._built = built if built is not None else build(self._files, self._reads, self._keep)
        return self._built

    def cancel(self) -> None:
        """Stop building: the run failed before it could use it."""
        if self._built is None:
            self._carrier.cancel()
            self._built = Built({}, {}, [])


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
    """`build` in a forked process: readings go to it through a pipe, framed (length, then a
    `marshal` payload; an empty frame ends them), and what it built comes back through another."""

    def __init__(self, files: dict[str, str], keep: Keep) -> None:
        reads_out, self._reads = os.pipe()
        self._reply, reply_in = os.pipe()
        with contextlib.suppress(OSError, AttributeError):
            import fcntl  # Linux only, as this class

            for descriptor in (self._reads, self._reply):  # fewer hand-overs of a reading, of the reply
                fcntl.fcntl(descriptor, fcntl.F_SETPIPE_SZ, 1 << 20)
        self.pid = os.fork()
        if self.pid == 0:  # the builder: it never returns into the run's code
            try:
                os.close(self._reads)
                os.close(self._reply)
                # Hold none of the run's standard streams: whoever reads the run's output to its
                # end must not wait for the builder to exit.
                devnull = os.open(os.devnull, os.O_RDWR)
                for stream in (0, 1, 2):
                    os.dup2(devnull, stream)
                _lowest_priority()
                building = _Building(files, keep)
                reply = None
                for read in _frames(reads_out):  # the reply made before the run asks for it
                    building.take(read)
                    reply = marshal.dumps(tuple(building.built()), MARSHAL_VERSION)
                _write_all(reply_in, reply or marshal.dumps(tuple(building.built()), MARSHAL_VERSION))
            finally:
                os._exit(0)
        os.close(reads_out)
        os.close(reply_in)

    def send(self, read: ImportsRead) -> None:
        self._frame(marshal.dumps(tuple(read), MARSHAL_VERSION))

    def _frame(self, payload: bytes) -> None:
        try:
            _write_all(self._reads, _LENGTH.pack(len(payload)))
            _write_all(self._reads, payload)
        except OSError:
            pass  # the builder is gone: `finish` builds here instead

    def finish(self) -> Built | None:
        self._frame(b"")
        os.close(self._reads)
        try:
            data = _read_all(self._reply)
        finally:
            os.close(self._reply)
            # Sent once all is written: its exit (freeing a copy of the run) is not waited for.
            threading.Thread(target=_reap, args=(self.pid,), name="layering-cache-builder-exit", daemon=True).start()
        try:
            digests, signatures, problems = marshal.loads(data)
        except (EOFError, ValueError, TypeError):
            return None
        return Built(digests, signatures, problems)

    def cancel(self) -> None:
        with contextlib.suppress(OSError):
            os.kill(self.pid, 9)
        for descriptor in (self._reads, self._reply):
            with contextlib.suppress(OSError):
                os.close(descriptor)
        _reap(self.pid)


def _frames(descriptor: int) -> Iterator[ImportsRead]:
    """The readings framed on a pipe, until the empty frame (or the run's end)."""
    buffer = bytearray()
    while True:
        while len(buffer) < _LENGTH.size or len(buffer) < _LENGTH.size + _LENGTH.unpack_from(buffer)[0]:
            chunk = os.read(descriptor, 1 << 20)
            if not chunk:
                return  # the run ended without the empty frame
            buffer += chunk
        size = _LENGTH.unpack_from(buffer)[0]
        if size == 0:
            return
        payload = bytes(buffer[_LENGTH.size : _LENGTH.size + size])
        del buffer[: _LENGTH.size + size]
        yield ImportsRead(*marshal.loads(payload))


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
    """`build` on a thread of the run, readings handed over as they are."""

    def __init__(self, files: dict[str, str], keep: Keep) -> None:
        self._reads: queue.SimpleQueue[ImportsRead | None] = queue.SimpleQueue()
        self._built: list[Built] = []
        self._thread = threading.Thread(target=self._run, args=(files, keep), name="layering-cache-builder", daemon=True)
        self._thread.start()

    def _run(self, files: dict[str, str], keep: Keep) -> None:
        _lowest_priority()
        self._built.append(build(files, iter(self._reads.get, None), keep))

    def send(self, read: ImportsRead) -> None:
        self._reads.put(read)

    def finish(self) -> Built | None:
        self._reads.put(None)
        self._thread.join()
        return self._built[0] if self._built else None

    def cancel(self) -> None:
        self._reads.put(None)
