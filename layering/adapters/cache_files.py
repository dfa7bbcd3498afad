"""The cache directory's files: made, marked, sealed and replaced atomically.

Every cache layering keeps (the verdicts, the graph's imports, the facts read of each file) is
a file of `marshal` data behind a seal (format, length, checksum) in one directory, marked as a
cache. This module is all a run needs to read or write one of them: a run that keeps only the
facts cache (a direct rule about a few modules) loads nothing else of the cache's code.
"""

from __future__ import annotations

import contextlib
import functools
import marshal
import os
from typing import Any

from layering.adapters.hashing import blake2b
from layering.adapters.package_files import stamp_of

MARSHAL_VERSION = 4
"""The cache's files are plain data in `marshal`'s format 4, which every Python layering runs
on reads and writes: four to six times faster to write than JSON (homeassistant's manifest,
2.3 MB: 9 ms against 36 ms), and loaded twice as fast."""


CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by layering.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)


GITIGNORE = "# created by layering\n*\n"


def prepare(directory: str) -> str | None:
    """Create the cache directory, marked so that it is neither committed (`.gitignore`) nor
    backed up (`CACHEDIR.TAG`), each mark written again where it is missing, torn or empty, or
    a link (replaced, never followed); why it cannot be used, or None when it can."""
    try:
        os.makedirs(directory, exist_ok=True)
        if not os.access(directory, os.W_OK | os.X_OK):
            raise PermissionError(13, "not writable")
        for name, text, whole in (
            (".gitignore", GITIGNORE, _ignores_all),
            ("CACHEDIR.TAG", CACHEDIR_TAG, _is_tag),
        ):
            path = os.path.join(directory, name)
            if not whole(_text_of(path)):
                write_atomically(path, text.encode())
    except OSError as error:
        return (
            f"cannot use the cache directory {shown(directory)} ({error.strerror or error}); "
            "running without a cache"
        )
    return None


def _text_of(path: str) -> str | None:
    """A small file's text, None where it is missing, a link (not followed) or not text."""
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        return os.read(descriptor, 4096).decode("utf-8")
    except (OSError, UnicodeError):
        return None
    finally:
        os.close(descriptor)


def _ignores_all(text: str | None) -> bool:
    return text is not None and "*" in (line.strip() for line in text.splitlines())


def _is_tag(text: str | None) -> bool:
    return text is not None and text.startswith(CACHEDIR_TAG.splitlines()[0])


def shown(path: str) -> str:
    """A path as a message shows it: relative to the working directory, unless outside it."""
    relative = os.path.relpath(path)
    return path if relative == ".." or relative.startswith(".." + os.sep) else relative


@functools.cache
def own_fingerprint() -> str:
    """Where layering's own source is and when each file of it was written: a development
    checkout changes its code without changing its version, and a result decided by other code
    must not be reused (about 70 files: a fraction of a millisecond). Taken once per process:
    the code a process runs is the code it loaded (a run asks for it with each cache's key)."""
    top = os.path.dirname(os.path.abspath(__file__ + "/.."))
    found = []
    stack = [top]
    while stack:
        directory = stack.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False) and entry.name != "__pycache__":
                stack.append(entry.path)
            elif entry.name.endswith((".py", ".json")):
                try:
                    status = entry.stat()
                except OSError:
                    continue
                found.append(f"{entry.path}:{status.st_mtime_ns}:{status.st_size}")
    return blake2b("\n".join(sorted(found)).encode(), digest_size=16).hexdigest()


def read_stamped(path: str) -> tuple[bytes, list | None]:
    """A file's bytes and its stamp, both from the descriptor they were read through (the stamp
    None when the file was written while being read); OSError when it cannot be read."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        status = os.fstat(descriptor)
        data = os.read(descriptor, status.st_size + 1)  # a byte more than its size: to its end
        stamp: list | None = stamp_of(path, status)
        if len(data) != status.st_size:  # written meanwhile
            stamp = None
            parts = [data]
            while chunk := os.read(descriptor, 1 << 20):
                parts.append(chunk)
            data = b"".join(parts)
    finally:
        os.close(descriptor)
    return data, stamp


class DamagedCacheFile(ValueError):
    """A cache file that is not one layering wrote whole: cut short, changed since it was
    written (its checksum does not match), too large, or something else's."""


MAGIC = b"layering cache\n\0"
SEAL_SIZE = 44
"""What each cache file starts with: `MAGIC` (16 bytes), the file's format (4 bytes, little
endian), the payload's length (8) and its XXH3-128 digest (16), then the payload (`marshal`
data)."""
MAX_FILE_BYTES = 1 << 30
"""No cache file is read beyond this size: 200 times homeassistant's largest."""


def sealed(payload: bytes, format: int) -> bytes:
    """`payload` as a cache file holds it: its format, length and checksum before it."""
    import xxhash

    return b"".join(
        (
            MAGIC,
            format.to_bytes(4, "little"),
            len(payload).to_bytes(8, "little"),
            xxhash.xxh3_128_digest(payload),
            payload,
        )
    )


def unsealed(data: bytes, format: int) -> memoryview | None:
    """The payload of a cache file's `data`; None when another version of layering wrote it (a
    miss, said nothing of). DamagedCacheFile when it is not whole, or not layering's."""
    if len(data) < SEAL_SIZE:
        raise DamagedCacheFile("cut short")
    if data[:16] != MAGIC:
        raise DamagedCacheFile("not a cache file of layering's")
    if int.from_bytes(data[16:20], "little") != format:
        return None
    payload = memoryview(data)[SEAL_SIZE:]
    import xxhash

    if len(payload) != int.from_bytes(data[20:28], "little") or (
        xxhash.xxh3_128_digest(payload) != data[28:SEAL_SIZE]
    ):
        raise DamagedCacheFile("changed since it was written")
    return payload


def read_marshal(path: str, format: int) -> Any:
    """The data of a cache file (`sealed`), its bytes read at once (`marshal.load` reads a file
    object piece by piece: transformers' results 56 ms against 10 ms); None when another version
    wrote it. Only data whose checksum holds is decoded: `marshal` is not made to read damaged
    bytes (five bytes of garbage can ask it for gigabytes)."""
    # A link is not followed (it would read a file outside the cache): it is damaged, and replaced.
    with open(
        os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)),
        "rb",
    ) as handle:
        size = os.fstat(handle.fileno()).st_size
        if size > MAX_FILE_BYTES:
            raise DamagedCacheFile(f"{size} bytes, more than a cache file holds")
        payload = unsealed(handle.read(MAX_FILE_BYTES + 1), format)
    if payload is None:
        return None
    try:
        return marshal.loads(payload)
    except (EOFError, ValueError, TypeError) as error:
        raise DamagedCacheFile(f"not readable ({error})") from None


def write_marshal(path: str, data: Any, format: int) -> None:
    """Replace the cache file `path` by `data` (`sealed`), atomically (`write_atomically`)."""
    write_atomically(path, sealed(marshal.dumps(data, MARSHAL_VERSION), format))


def write_atomically(path: str, data: bytes) -> None:
    """Replace `path` by `data`: written to a temporary file beside it, then renamed over it, so
    that a concurrent run reads the old file or the new one, never half of one (OSError when it
    cannot be written; the temporary file is not left behind, even when a signal's exception,
    the builder's SIGTERM, lands the instant after the file was made)."""
    named: list[str] = []  # the temporary's name, known before the file exists
    try:
        descriptor = _temporary_beside(path, named)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
        os.replace(named[-1], path)
    except BaseException:
        if named:
            with contextlib.suppress(OSError):
                os.remove(named[-1])
        raise


def _temporary_beside(path: str, named: list[str]) -> int:
    """A new file of the owner's only, open for writing, in `path`'s directory, its name put in
    `named` before it is made: what `tempfile.mkstemp` makes, without importing `tempfile` (3
    ms of each run that writes)."""
    flags = (
        os.O_WRONLY
        | os.O_CREAT
        | os.O_EXCL
        | getattr(os, "O_CLOEXEC", 0)
        | getattr(os, "O_BINARY", 0)
    )
    for _ in range(100):
        named.append(
            os.path.join(
                os.path.dirname(path) or ".", f".{os.path.basename(path)}-{os.urandom(6).hex()}"
            )
        )
        try:
            return os.open(named[-1], flags, 0o600)
        except FileExistsError:
            named.pop()  # somebody else's
    raise FileExistsError(17, "no unused temporary name", path)
