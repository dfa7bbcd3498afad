"""The cache of a run's static verdicts, keyed by everything that could change them.

The key covers the content of every file of the root packages, the contracts and run options,
and the versions of layering, grimp, import-linter and Python. A hit skips building the graph
(and importing grimp and import-linter) altogether. Files are written atomically (temp file,
then rename), so two runs at once never leave a torn file; a damaged file is ignored.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
import tempfile
from typing import Any

FORMAT = 3

CACHEDIR_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by layering.\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)


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


def file_states(files: dict[str, str]) -> dict[str, tuple[int, str]]:
    """Per module file: its modification time and a digest of its content (blake2b)."""
    states = {}
    for module, path in files.items():
        try:
            with open(path, "rb") as handle:
                mtime = os.fstat(handle.fileno()).st_mtime_ns
                states[module] = (mtime, hashlib.blake2b(handle.read(), digest_size=16).hexdigest())
        except OSError:
            states[module] = (0, "unreadable")
    return states


def content_changed_in_place(old: dict[str, Any], new: dict[str, tuple[int, str]]) -> bool:
    """Whether a file's content changed while its modification time did not.

    grimp's own cache trusts modification times; when this happens it must be discarded.
    """
    for module, (mtime, digest) in new.items():
        before = old.get(module)
        if isinstance(before, list) and len(before) == 2 and before[0] == mtime and before[1] != digest:
            return True
    return False


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


def run_key(parts: list[Any]) -> str:
    text = json.dumps([FORMAT, sys.version, *parts], sort_keys=True, default=str)
    return hashlib.blake2b(text.encode(), digest_size=20).hexdigest()


class ResultCache:
    """Reads and writes `<directory>/results-<key>.json`; every failure is a miss, said once."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.warnings: list[str] = []

    def _path(self, key: str) -> str:
        return os.path.join(self.directory, f"results-{key}.json")

    def load_manifest(self) -> dict[str, Any]:
        """The file states of the last run that built the graph ({} when unknown)."""
        try:
            with open(os.path.join(self.directory, "manifest.json"), encoding="utf-8") as handle:
                data = json.load(handle)
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def store_manifest(self, states: dict[str, tuple[int, str]]) -> None:
        self._write("manifest.json", states)

    def load(self, key: str) -> dict[str, Any] | None:
        path = self._path(key)
        try:
            with open(path, encoding="utf-8") as handle:
                data = json.load(handle)
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as error:
            self.warnings.append(f"cache file {path} is unreadable ({error.__class__.__name__}); rebuilding it")
            return None
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("results"), list):
            self.warnings.append(f"cache file {path} has an unknown shape; rebuilding it")
            return None
        return data

    def store(self, key: str, results: list[dict[str, Any]], warnings: list[str]) -> None:
        try:
            os.makedirs(self.directory, exist_ok=True)
        except OSError as error:
            self._unwritable(error)
            return
        self._remove_old_results()
        self._write(f"results-{key}.json", {"format": FORMAT, "results": results, "warnings": warnings})

    def _write(self, name: str, data: Any) -> None:
        try:
            os.makedirs(self.directory, exist_ok=True)
            descriptor, temporary = tempfile.mkstemp(prefix=f".{name}-", dir=self.directory)
            with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                json.dump(data, handle)
            os.replace(temporary, os.path.join(self.directory, name))
        except OSError as error:
            self._unwritable(error)

    def _unwritable(self, error: OSError) -> None:
        message = f"cache directory {self.directory} is not writable ({error.strerror}); running without a cache"
        if message not in self.warnings:
            self.warnings.append(message)

    def _remove_old_results(self) -> None:
        """Keep one result file: an old key never matches again once anything changed."""
        for name in os.listdir(self.directory):
            if name.startswith("results-") and name.endswith(".json"):
                try:
                    os.remove(os.path.join(self.directory, name))
                except OSError:
                    pass
