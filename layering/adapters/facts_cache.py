"""What layering's own readings of each file gave, kept by the digest of the bytes read.

Every reading `Evidence` makes of a file itself (its import statements with names and lines,
the imports that run when it is executed, the names it uses on modules, its `__all__`, its
top-level names, its typing-only imports) is a function of the file's text alone. So each is
kept under the digest of the very bytes it was read from: a run whose files are as they were
parses none of them, and an edit parses the edited files only.

A file is known unchanged without reading it by its stamp (path, size, modification and change
times, inode), trusted only where it was last written well before the cache file was (a write
within the same tick of the clock could leave the stamp as it was); any other file is read and
hashed, and parsed only if its digest is new. What another Python or another build of layering
read is not reused: the store is keyed by both.
"""

from __future__ import annotations

import enum
import os
import sys
import time
import types
import typing
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple, Protocol, TypeVar

from layering.adapters import cache_files
from layering.adapters.hashing import blake2b
from layering.adapters.package_files import RACY_NS, stamp_of
from layering.domain.errors import SourceUnreadable

T = TypeVar("T")

FORMAT = 2
FILE = "facts.marshal"


class TextFilter(Protocol):
    """A test of a file's text that spares it a parse (a file that cannot spell a name cannot
    use it); its `key` says which test it is, so that a refusal is kept for that test only."""

    @property
    def key(self) -> tuple[object, ...]: ...

    def __call__(self, text: str) -> bool: ...


class _Entry(NamedTuple):
    """What is kept of one file: the stamp it had when read (None: not to be trusted), the
    digest of its bytes, each reading of them by reader, and the tests its text failed."""

    stamp: list | None
    digest: str
    readings: dict[str, Any]
    refused: list


class FactsCache:
    """`engine.ports.Sources` that remember their readings in `directory` (`save` writes them).

    `facts(path, read)` is what `read(path, text)` gives for the file's text: from the store when
    the file's bytes are the ones it was read from, else read and kept."""

    def __init__(self, directory: str) -> None:
        self._path = os.path.join(directory, FILE)
        self._stored: dict[str, list] | None = None
        self._written_ns = 0
        self._entries: dict[str, _Entry] = {}
        self._bytes: dict[str, bytes] = {}
        self._changed = False
        self.warnings: list[str] = []

    def read(self, path: str) -> str:
        from layering.adapters.source_facts import decoded_source

        data = self._bytes.pop(path, None)
        if data is None:
            data = _read_bytes(path)[0]
        return decoded_source(path, data)

    def facts(self, path: str, read: Callable[[str, str], T]) -> T:
        """What `read` gives for the file at `path`. SourceUnreadable, as `read` raised it, for
        a file it could not read (kept too: a file this Python cannot parse is not parsed
        again)."""
        return self._reading(path, read, None)  # type: ignore[return-value]

    def facts_if(self, path: str, read: Callable[[str, str], T], admits: TextFilter) -> T | None:
        """`facts(path, read)`, or None where `admits` refuses the file's text (`read` never
        ran on it; the refusal is kept for this test of the text)."""
        return self._reading(path, read, admits)

    def _reading(
        self, path: str, read: Callable[[str, str], T], admits: TextFilter | None
    ) -> T | None:
        name = f"{read.__module__}.{read.__qualname__}"
        entry = self._entry(path)
        kept = entry.readings.get(name)
        refusal = None if admits is None else _refusal(admits)
        if kept is None and refusal is not None and refusal in entry.refused:
            return None
        if kept is None:
            data = self._bytes.pop(path, None)
            if data is None:
                data, digest, stamp = _read_bytes(path)
                if digest != entry.digest:  # written since: keep what these bytes say
                    entry = self._entries[path] = _Entry(stamp, digest, {}, [])
            from layering.adapters.source_facts import decoded_source

            text = decoded_source(path, data)
            if admits is not None and not admits(text):
                entry.refused.append(refusal)
                self._changed = True
                return None
            try:
                value = read(path, text)
            except SourceUnreadable as unreadable:
                entry.readings[name] = ["unreadable", unreadable.line, unreadable.reason]
                self._changed = True
                raise
            # What a run without the cache gets: the reading itself, kept as plain data
            # (a later run decodes it: `_decoder`, which a round-trip test holds to this).
            entry.readings[name] = ["read", _plain(value)]
            self._changed = True
            return value
        if kept[0] == "unreadable":
            raise SourceUnreadable(path, kept[1], kept[2])
        return _decoder(read)(kept[1])

    def _entry(self, path: str) -> _Entry:
        """The file's entry as its bytes are now: the stored one where its stamp can be trusted
        or its digest is the same, else a new, empty one (the bytes read kept for the reading)."""
        entry = self._entries.get(path)
        if entry is not None:
            return entry
        stored = self._load().get(path)
        before = _stored_entry(stored)
        if before is not None and before.stamp is not None:
            try:
                stamp = stamp_of(path, os.stat(path))
            except OSError:
                stamp = None
            if stamp == before.stamp and max(stamp[1], stamp[4]) < self._written_ns - RACY_NS:
                entry = self._entries[path] = before
                return entry
        data, digest, stamp = _read_bytes(path)
        self._bytes[path] = data
        if before is not None and before.digest == digest:
            entry = _Entry(stamp, digest, before.readings, before.refused)
        else:
            entry = _Entry(stamp, digest, {}, [])
        self._changed = True
        self._entries[path] = entry
        return entry

    def _load(self) -> dict[str, list]:
        if self._stored is None:
            self._stored = {}
            try:
                data = cache_files.read_marshal(self._path, FORMAT)
            except FileNotFoundError:
                data = None
            except (OSError, cache_files.DamagedCacheFile) as error:
                self.warnings.append(
                    f"layering: the cache's {FILE} could not be read ({error}); "
                    "the files are read again and it is written anew"
                )
                data = None
            if isinstance(data, dict) and data.get("key") == _store_key():
                self._stored = data["files"]
                self._written_ns = data["written_ns"]
        return self._stored

    def save(self, package_paths: Callable[[], Iterable[str] | None]) -> list[str]:
        """Write what this run read, with what the store held of the other files where their
        stamps can still be trusted and they are the package's (`package_paths`, asked only
        when there is something to write; None where the run did not walk the package: a
        direct rule about a few modules does not walk it to drop the entries of files since
        deleted, the next run that walks does); what the run should say of the cache (a file
        it could not read or write)."""
        if not self._changed:
            return self.warnings
        problem = cache_files.prepare(os.path.dirname(self._path))
        if problem is not None:
            return [*self.warnings, problem]
        listed = package_paths()
        kept = None if listed is None else set(listed)
        files: dict[str, list] = {}
        for path, stored in self._load().items():
            before = _stored_entry(stored)
            if (
                path not in self._entries
                and (kept is None or path in kept)
                and before is not None
                and before.stamp is not None
                and max(before.stamp[1], before.stamp[4]) < self._written_ns - RACY_NS
            ):
                files[path] = stored
        for path, entry in self._entries.items():
            files[path] = [entry.stamp, entry.digest, entry.readings, entry.refused]
        data = {"key": _store_key(), "written_ns": time.time_ns(), "files": files}
        try:
            cache_files.write_marshal(self._path, data, FORMAT)
        except OSError as error:
            return [*self.warnings, f"layering: the cache's {FILE} could not be written ({error})"]
        self._changed = False
        return self.warnings


def _refusal(admits: TextFilter) -> str:
    """How a refusal by `admits` is kept: the digest of its key (a forbidden contract's key
    lists every forbidden name, 50,000 of them in some)."""
    return blake2b(repr(admits.key).encode(), digest_size=16).hexdigest()


def _stored_entry(stored: Any) -> _Entry | None:
    if (
        isinstance(stored, list)
        and len(stored) == 4
        and isinstance(stored[2], dict)
        and isinstance(stored[3], list)
    ):
        return _Entry(*stored)
    return None


def _store_key() -> list:
    """What the readings depend on beyond the file: the Python that parsed it (its grammar),
    and layering's code that read the tree."""
    return [list(sys.version_info[:2]), cache_files.own_fingerprint()]


def _read_bytes(path: str) -> tuple[bytes, str, list | None]:
    """The file's bytes, their digest and the stamp of the file they were read from (None when
    it was written while being read); SourceUnreadable when it cannot be read."""
    try:
        data, stamp = cache_files.read_stamped(path)
    except OSError as error:
        raise SourceUnreadable(path, 0, f"cannot be read ({error.strerror})") from None
    # BLAKE2, not the XXH3 of the graph's cache: a file read here is parsed too, which costs
    # a hundred times its hashing, and a run that hashes nothing else never loads xxhash.
    return data, blake2b(data, digest_size=16).hexdigest(), stamp


def _plain(value: Any) -> Any:
    """`value` as `marshal` holds it: named tuples as tuples, enumerations as their values."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, frozenset):
        return frozenset(_plain(v) for v in value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


_DECODERS: dict[Callable, Callable[[Any], Any]] = {}


def _decoder(read: Callable) -> Callable[[Any], Any]:
    """What turns a kept reading of `read` back into what `read` returned, built once from its
    return annotation."""
    decoder = _DECODERS.get(read)
    if decoder is None:
        decoder = _DECODERS[read] = _decoder_of(typing.get_type_hints(read)["return"])
    return decoder


def _same(value: Any) -> Any:
    return value


def _decoder_of(annotation: Any) -> Callable[[Any], Any]:
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return annotation
    if isinstance(annotation, type) and issubclass(annotation, tuple):
        hints = typing.get_type_hints(annotation)
        fields = [_decoder_of(hints[f]) for f in annotation._fields]  # type: ignore[attr-defined]
        make = annotation._make  # type: ignore[attr-defined]
        if all(f is _same for f in fields):
            return make
        return lambda value: make([f(v) for f, v in zip(fields, value)])
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        inner = _decoder_of(options[0]) if len(options) == 1 else _same
        return _same if inner is _same else lambda value: None if value is None else inner(value)
    if origin in (list, frozenset) or (origin is tuple and len(args) == 2 and args[1] is ...):
        item = _decoder_of(args[0])
        if item is _same:
            return _same
        return lambda value: origin(item(v) for v in value)
    if origin is tuple:
        items = [_decoder_of(a) for a in args]
        if all(i is _same for i in items):
            return _same
        return lambda value: tuple(i(v) for i, v in zip(items, value))
    if origin is dict:
        values = _decoder_of(args[1])
        return _same if values is _same else lambda value: {k: values(v) for k, v in value.items()}
    return _same
