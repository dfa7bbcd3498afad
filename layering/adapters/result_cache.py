"""The cache of graph contracts' verdicts, keyed by what they depend on: the package's imports.

A graph contract's verdict depends on the import graph, and the graph on each file's import
statements (and on which modules exist). So each file gets two digests: its content, and its
*import signature*, the lines that can change what grimp reads from it (every line with
`import`, a parenthesised list of imported names, lines that open or close a triple-quoted
string, which could swallow an import, and the encoding cookie). A body edit changes the first
digest only: verdicts are reused, and only the lines a report shows are read again. A fresh
checkout of the same tree changes neither: verdicts are reused without reading any source.

The manifest remembers, per file, its size and modification time with both digests, so that an
unchanged file is not read at all; a file modified within two seconds of the manifest's own
writing is read anyway (its time cannot tell two writes apart). Files are written atomically
(temp file, then rename); a damaged file is a miss, said once.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Any

FORMAT = 4
RACY_NS = 2_000_000_000
KEPT_RESULTS = 8

CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by layering.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)

_SIGNATURE_WORDS = (b"import", b'"""', b"'''", b"coding:", b"coding=")
_IMPORT_LIST = re.compile(rb"import[ \t]*\(([^)]*)\)")


def prepare(directory: str) -> str | None:
    """Create the cache directory, marked so that it is neither committed (`.gitignore`) nor
    backed up (`CACHEDIR.TAG`); why it cannot be used, or None when it can."""
    try:
        os.makedirs(directory, exist_ok=True)
        if not os.access(directory, os.W_OK | os.X_OK):
            raise PermissionError(13, "not writable")
        for name, text in ((".gitignore", "# created by layering\n*\n"), ("CACHEDIR.TAG", CACHEDIR_TAG)):
            path = os.path.join(directory, name)
            if not os.path.exists(path):
                with open(path, "w", encoding="utf-8") as handle:
                    handle.write(text)
    except OSError as error:
        return f"cannot use the cache directory {directory} ({error.strerror or error}); running without a cache"
    return None


@dataclass(frozen=True)
class FileState:
    """What the cache knows of one module's file."""

    path: str
    mtime_ns: int
    size: int
    digest: str
    signature: str


def import_signature(data: bytes, type_checking_matters: bool) -> str:
    """A digest of what decides a file's imports as grimp reads them.

    Conservative: any line that could take part in an import statement is in it, so an edit
    that changes an import always changes it (an edit that does not may change it too; that
    only costs a rebuild). Where `TYPE_CHECKING` imports are left out of the graph, whether an
    import stands under such a guard depends on the blocks around it, so a file that mentions
    `TYPE_CHECKING` is keyed by its whole content.
    """
    if type_checking_matters and b"TYPE_CHECKING" in data:
        return "content:" + hashlib.blake2b(data, digest_size=16).hexdigest()
    parts = []
    covered = -1
    for found, after in _signature_words(data):
        if found < covered:
            continue
        start = data.rfind(b"\n", 0, found) + 1
        end = data.find(b"\n", after)
        while end >= 0 and _ends_with_backslash(data, end):  # a statement continued with a backslash
            end = data.find(b"\n", end + 1)
        end = len(data) if end < 0 else end
        parts.append(data[start:end])
        covered = end
    parts.extend(_IMPORT_LIST.findall(data))
    return hashlib.blake2b(b"\n".join(parts), digest_size=16).hexdigest()


def _signature_words(data: bytes) -> list[tuple[int, int]]:
    """(start, end) of each word that puts its line in a file's import signature, in order:
    found with `bytes.find`, many times faster than one regular expression of alternatives."""
    found = []
    for word in _SIGNATURE_WORDS:
        position = data.find(word)
        while position >= 0:
            found.append((position, position + len(word)))
            position = data.find(word, position + len(word))
    return sorted(found)


def _ends_with_backslash(data: bytes, end: int) -> bool:
    """Whether the line that ends at `end` (a newline) ends with a backslash, read in place:
    a slice of everything before it would copy the file for every line."""
    last = end - 1
    if last >= 0 and data[last] == ord("\r"):
        last -= 1
    return last >= 0 and data[last] == ord("\\")


def library_fingerprint(name: str) -> str:
    """Where a library is and when it was installed, found without importing it."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.origin:
        return f"{name}:absent"
    try:
        status = os.stat(spec.origin)
    except OSError:
        return f"{name}:{spec.origin}"
    return f"{name}:{spec.origin}:{status.st_mtime_ns}:{status.st_size}"


def file_digest(path: str) -> str:
    """The digest of a file's bytes ("" when it cannot be read)."""
    try:
        with open(path, "rb") as handle:
            return hashlib.blake2b(handle.read(), digest_size=16).hexdigest()
    except OSError:
        return ""


def digest_of(parts: Any) -> str:
    text = json.dumps([FORMAT, sys.version, parts], sort_keys=True, default=str)
    return hashlib.blake2b(text.encode(), digest_size=20).hexdigest()


class ResultCache:
    """`<directory>/manifest.json` (the files' states) and `results-<key>.json` (verdicts of a
    set of contracts for a set of import signatures); every failure is a miss, said once."""

    def __init__(self, directory: str, settings_key: str) -> None:
        self.directory = directory
        self.settings_key = settings_key
        self._damaged: list[str] = []
        self._unwritable = ""
        self._manifest: dict[str, Any] | None = None

    @property
    def warnings(self) -> list[str]:
        """What went wrong with the cache this run, said once: damaged files are rebuilt, and a
        directory that cannot be written leaves the run without a cache."""
        said = []
        if self._damaged:
            files = ", ".join(sorted(set(self._damaged)))
            said.append(f"the cache in {self.directory} was damaged ({files}); rebuilt it")
        if self._unwritable:
            said.append(self._unwritable)
        return said

    # --- the files ------------------------------------------------------------------------

    def file_states(self, files: dict[str, str], type_checking_matters: bool) -> dict[str, FileState]:
        """Every module's file state: from the manifest where its size and time say it is
        unchanged (and it was not written just before the manifest), read again otherwise."""
        manifest = self._load_manifest()
        known: dict[str, list] = manifest.get("files", {})
        racy_from = manifest.get("written_ns", 0) - RACY_NS
        states = {}
        for module, path in files.items():
            before = known.get(module)
            try:
                status = os.stat(path)
            except OSError:
                states[module] = FileState(path, 0, -1, "unreadable", "unreadable")
                continue
            if (
                isinstance(before, list)
                and len(before) == 5
                and before[:3] == [path, status.st_mtime_ns, status.st_size]
                and status.st_mtime_ns < racy_from
            ):
                states[module] = FileState(path, status.st_mtime_ns, status.st_size, before[3], before[4])
                continue
            states[module] = self._read_state(path, status, before, type_checking_matters)
        return states

    @staticmethod
    def _read_state(path: str, status: os.stat_result, before: Any, type_checking_matters: bool) -> FileState:
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError:
            return FileState(path, 0, -1, "unreadable", "unreadable")
        digest = hashlib.blake2b(data, digest_size=16).hexdigest()
        if isinstance(before, list) and len(before) == 5 and before[3] == digest:
            signature = before[4]
        else:
            signature = import_signature(data, type_checking_matters)
        return FileState(path, status.st_mtime_ns, status.st_size, digest, signature)

    def changed_in_place(self, states: dict[str, FileState]) -> bool:
        """Whether a file's content changed while its time did not: grimp's own cache trusts
        times, so it must then be discarded."""
        known = self._load_manifest().get("files", {})
        return any(
            isinstance(known.get(m), list) and len(known[m]) == 5 and known[m][1] == s.mtime_ns and known[m][3] != s.digest
            for m, s in states.items()
        )

    def store_manifest(self, states: dict[str, FileState]) -> None:
        files = {module: [s.path, s.mtime_ns, s.size, s.digest, s.signature] for module, s in states.items()}
        self._write("manifest.json", {"format": FORMAT, "key": self.settings_key, "written_ns": time.time_ns(), "files": files})

    def _load_manifest(self) -> dict[str, Any]:
        if self._manifest is None:
            data = self._read("manifest.json")
            valid = isinstance(data, dict) and data.get("format") == FORMAT and data.get("key") == self.settings_key
            self._manifest = data if valid and isinstance(data.get("files"), dict) else {}
        return self._manifest

    # --- the verdicts ---------------------------------------------------------------------

    def load(self, key: str) -> dict[str, Any] | None:
        data = self._read(f"results-{key}.json")
        if data is None:
            return None
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("results"), list):
            self._damaged.append(f"results-{key}.json")
            return None
        return data

    def damaged(self, key: str) -> None:
        """The results under `key` could not be used: say so once, rebuild them."""
        self._damaged.append(f"results-{key}.json")

    def store(self, key: str, results: list[dict[str, Any]], warnings: list[str], shown: dict[str, str]) -> None:
        """Keep the verdicts, their warnings, and the digest of each file whose lines they show
        (a later run re-reads those lines where a file changed)."""
        self._write(f"results-{key}.json", {"format": FORMAT, "results": results, "warnings": warnings, "shown": shown})
        self._keep_newest_results()

    # --- files on disk --------------------------------------------------------------------

    def _path(self, name: str) -> str:
        return os.path.join(self.directory, name)

    def _read(self, name: str) -> Any:
        try:
            with open(self._path(name), encoding="utf-8") as handle:
                return json.load(handle)
        except FileNotFoundError:
            return None
        except (OSError, ValueError):
            self._damaged.append(name)
            return None

    def _write(self, name: str, data: Any) -> None:
        try:
            descriptor, temporary = tempfile.mkstemp(prefix=f".{name}-", dir=self.directory)
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                json.dump(data, handle)
            os.replace(temporary, self._path(name))
        except OSError as error:
            self._unwritable = f"the cache directory {self.directory} is not writable ({error.strerror}); running without a cache"

    def _keep_newest_results(self) -> None:
        """Keep the newest few result files (one per set of contracts a team checks, as
        `--contract` and pytest select them); older keys rarely match again."""
        try:
            names = [n for n in os.listdir(self.directory) if n.startswith("results-") and n.endswith(".json")]
            names.sort(key=lambda n: os.stat(self._path(n)).st_mtime_ns, reverse=True)
            for name in names[KEPT_RESULTS:]:
                os.remove(self._path(name))
        except OSError:
            pass
