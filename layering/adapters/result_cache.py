"""The cache of graph contracts' verdicts, keyed by what they depend on: the package's imports.

A graph contract's verdict depends on the import graph, and the graph on the imports grimp reads
from each file (and on which modules exist). So each file has a content digest, and each module
read into the graph an *import signature* (`grimp_scan.signature_of`: what grimp read, no
line numbers), taken from the scan that builds the graph: no file is read twice to key a verdict.

The manifest remembers, per file, its size and modification time with its digest and signature,
so that an unchanged file is not read at all; a file modified within two seconds of the
manifest's own writing is read anyway (its time cannot tell two writes apart). A results file
holds, per set of contracts, the verdicts with the signature of every module they depend on
(`depends`) and, per contract, what its chains reach (`reach`): a later run reuses every verdict
when no depended-on signature changed, and each verdict that no changed module can reach
otherwise. Files are written atomically (temp file, then rename); a damaged file is a miss,
said once.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import marshal
import os
import sys
import time
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple, TypedDict

from layering.adapters.cache_files import (
    MARSHAL_VERSION,
    DamagedCacheFile,
    prepare,
    read_marshal,
    read_stamped,
    shown,
    write_atomically,
    write_marshal,
)
from layering.adapters.hashing import blake2b
from layering.adapters.package_files import RACY_NS, PackageFiles, stamp_of

FORMAT = 13
MANIFEST = "manifest.marshal"
RESULTS_SUFFIX = ".marshal"
KEPT_RESULTS = 8


class FileState(NamedTuple):
    """What the cache knows of one module's file: its import signature where the manifest
    has one for this content, else ""."""

    path: str
    stamp: list
    """[path, modification time, size, inode, change time]: equal, and the file is unchanged."""
    digest: str
    signature: str


class FileStates(Mapping[str, FileState]):
    """Each module's file state, found when first asked for: from `hashed` (`hashed_file` of
    each, after grimp read it) where it has the file, else from the manifest where the stamp the
    walk took (path, size, times and inode) is the one it holds (and the file was not written
    just before the manifest), read and hashed again otherwise; the manifest's signature kept
    where the content is as it was. The change time and inode catch what the modification time
    alone misses: a time set back after an edit, files swapped by renames.

    What a run read of a file is remembered only where the file is provably what the walk found
    from before the run read it until after (`read_unchanged`, `unchanged_now`): a file saved
    while the run reads (an editor, `git pull`, a branch switch during a long first run) keeps
    nothing of this run's reading, so the next run reads it again.

    A run asks only for the files its verdicts depend on, those it scans and those its report
    shows: a contract about a few modules of a large package costs a few look-ups, not one per
    file of the package."""

    def __init__(
        self,
        files: PackageFiles,
        manifest: dict[str, Any],
        hashed: dict[str, tuple[str, list | None]],
    ) -> None:
        self._package = files
        self._files = files.files
        known = manifest.get("files", {})
        self._known: dict[str, list] = known if isinstance(known, dict) else {}
        self._racy_from = manifest.get("written_ns", 0) - RACY_NS
        self._hashed = hashed
        self._found: dict[str, FileState] = {}
        self._unchanged: dict[str, bool] = {}

    def __getitem__(self, module: str) -> FileState:
        state = self._found.get(module)
        if state is None:
            state = self._found[module] = self._state(module, self._files[module])
        return state

    def __iter__(self) -> Iterator[str]:
        return iter(self._files)

    def __len__(self) -> int:
        return len(self._files)

    def _before(self, module: str) -> list | None:
        before = self._known.get(module)
        return (
            before
            if isinstance(before, list)
            and len(before) == 3
            and isinstance(before[0], list)
            and len(before[0]) == 5
            else None
        )

    def _state(self, module: str, path: str) -> FileState:
        before = self._before(module)
        if module in self._hashed:
            digest, read_stamp = self._hashed[module]
        else:
            stamp = self._package.stamp(module) if self._package.stamped else self._stamp_now(path)
            if stamp is None:
                return FileState(path, [], "unreadable", "")
            if before is not None and before[0] == stamp and self._trusted(stamp):
                return FileState(path, stamp, before[1], before[2])
            digest, read_stamp = hashed_file(path)
        digest = digest or "unreadable"
        signature = before[2] if before is not None and before[1] == digest else ""
        return FileState(path, read_stamp or [], digest, signature)

    @staticmethod
    def _stamp_now(path: str) -> list | None:
        """The file's stamp as it is now (for a run that keeps no stamps of its own)."""
        try:
            status = os.stat(path)
        except OSError:
            return None
        return stamp_of(path, status)

    def _trusted(self, stamp: list) -> bool:
        """Whether a file of this stamp was last written well before the manifest (a later
        write within the same tick of its clock could leave the stamp as it was)."""
        return max(stamp[1], stamp[4]) < self._racy_from

    def read_unchanged(self, module: str) -> bool:
        """Whether what grimp read of `module`'s file this run is of the content its state
        names: hashed after grimp read it (a run with nothing cached), or else checked now."""
        if module in self._hashed:
            digest, stamp = self._hashed[module]
            return self._package.is_unchanged(module, stamp, digest)
        return self.unchanged_now(module)

    def unchanged_now(self, module: str) -> bool:
        """Whether `module`'s file is still, now that the run has read what it reads, what the
        walk found before it read any, with the content its state names (checked once, when the
        run is done reading: asked first when the cache is written)."""
        known = self._unchanged.get(module)
        if known is None:
            known = self._unchanged[module] = self._still_as_walked(module)
        return known

    def _still_as_walked(self, module: str) -> bool:
        state = self[module]
        walked, racy_digest = self._package.stamps.get(module, (None, None))
        if walked is None or state.stamp != walked:
            return False
        if racy_digest is not None:
            digest, stamp = hashed_file(state.path)  # its stamp cannot tell: its content must
            return digest == state.digest and self._package.is_unchanged(module, stamp, digest)
        try:
            status = os.stat(state.path)
        except OSError:
            return False
        return self._package.is_unchanged(module, stamp_of(state.path, status), state.digest)

    def entries(self, signatures: dict[str, str]) -> dict[str, list]:
        """The manifest's entries: [stamp, digest, signature] of each file looked at (with the
        signature this run learnt, where it learnt one of the content the state names), and the
        manifest's entry of each file still in the package that it did not look at, if that entry
        could be trusted: a later run trusts it only while the file's stamp is still the one it
        holds."""
        found = {}
        for module in self._files:
            state = self[module] if module in self._hashed else self._found.get(module)
            if state is not None:
                signature = signatures.get(module, state.signature)
                if signature != state.signature and not self.read_unchanged(module):
                    signature = state.signature
                found[module] = [state.stamp, state.digest, signature]
            else:
                before = self._before(module)
                if before is not None and self._trusted(before[0]):
                    found[module] = before
        return found


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


def config_digest(path: str) -> str:
    """The digest of a configuration file's bytes ("" when it cannot be read), by the BLAKE2
    `digest_of` has: a run that hashes no file of the package does not load `xxhash`."""
    try:
        with open(path, "rb") as handle:
            return blake2b(handle.read(), digest_size=20).hexdigest()
    except OSError:
        return ""


def hashed_file(path: str) -> tuple[str, list | None]:
    """The digest of a file's bytes and its stamp (`FileState.stamp`), both from the descriptor
    the bytes were read through, so that the stamp names this content even when the file is
    written meanwhile (the stamp is None then, and when it cannot be read; the digest "" when
    it cannot be read). XXH3 (128 bits), which tells edits apart as surely as a cache key needs
    and hashes transformers' 54 MB in 4 ms, against 34 ms for SHA-256 in hardware: a run with
    nothing cached hashes every file beside grimp's scan, on the same two cores; read with
    `os.read`, a third cheaper than a file object."""
    try:
        data, stamp = read_stamped(path)
    except OSError:
        return "", None
    import xxhash  # loaded by the first file hashed (in the builder, when it hashes them)

    return xxhash.xxh3_128_hexdigest(data), stamp


def encoded(data: Any) -> bytes:
    """`data` as a results entry holds its large parts (`ResultCache.store`): encoded apart, so
    that each is encoded once, where it is made (the signatures and the graph's imports by a
    cache builder while the run decides, the verdicts by the run), and the entry is written
    at once from them."""
    return marshal.dumps(data, MARSHAL_VERSION)


def digest_of(parts: Any) -> str:
    text = json.dumps([FORMAT, sys.version, parts], sort_keys=True, default=str)
    return blake2b(text.encode(), digest_size=20).hexdigest()


class OptionsRead:
    """`<directory>/options-read.json`: the digests of the configurations whose contract options
    a run read through import-linter without a problem (the newest few). The digest names the
    configuration file's bytes, layering's and import-linter's versions: the same options then
    read the same, so a later run need not import import-linter to read them again."""

    KEPT = 8

    def __init__(self, directory: str, fingerprint: str) -> None:
        self.path = os.path.join(directory, "options-read.json")
        self.fingerprint = fingerprint

    def _known(self) -> list[str]:
        try:
            with open(
                os.open(self.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)), encoding="utf-8"
            ) as handle:
                data = json.load(handle)
        except (OSError, ValueError):
            return []
        return [d for d in data if isinstance(d, str)] if isinstance(data, list) else []

    def read_before(self) -> bool:
        return self.fingerprint in self._known()

    def remember(self) -> None:
        """Add this configuration (atomically; a directory that cannot be written is no error:
        the options are read again next time)."""
        known = [self.fingerprint] + [d for d in self._known() if d != self.fingerprint]
        if prepare(os.path.dirname(self.path)) is not None:
            return
        with contextlib.suppress(OSError):
            write_atomically(self.path, json.dumps(known[: self.KEPT]).encode())


class StoredVerdicts(NamedTuple):
    """The verdicts of a set of contracts as the cache keeps them (`ResultCache.load`)."""

    modules: str
    """The digest of the module set they were decided on."""
    depends: dict[str, str]
    """Module -> the import signature of what grimp read of it, or `CONTENT` + the digest of
    a file read whole (its names)."""
    results: list[dict[str, Any]]
    """Each contract's result (`serialization.result_to_data`)."""
    warnings: list[list[str]]
    """Each contract's warnings."""
    reach: list[dict[str, Any] | None]
    """What each contract's chains reach (`engine.reach.summarize`; None: not told)."""
    graph: dict[str, tuple[str, ...]]
    """The graph's imports (`engine.reach.StoredImports.to_data`)."""
    shown: dict[str, str]
    """The digest of each file whose lines the results show, by the path they show it at."""


class VerdictsToStore(TypedDict):
    """The verdicts of a run, what they depend on besides the graph's readings, and the
    modules whose files the run read, as the run hands them over to be signed and kept: plain
    data (a builder process is handed them through a pipe)."""

    modules: str
    depends: dict[str, str]
    content: list[str]
    """The modules whose files the verdicts read whole (their names)."""
    results: bytes
    """The results, `encoded`."""
    warnings: list[list[str]]
    reach: list[dict[str, Any] | None]
    graph: bytes | None
    """The graph's imports the verdicts were reused on, `encoded` (None: this run's readings)."""
    shown: list[str]
    """The paths of the files whose lines the results show."""
    read: list[str]
    """Every module whose source the run read (names, lines): the verdicts are kept only if
    each is still as the run found it (else they may mix two contents of one file)."""
    stamps: dict[str, tuple[list | None, str | None]]
    """The stamps of those modules, taken by the run (`PackageFiles.stamps`)."""


class SignedVerdicts(TypedDict):
    """A results file's entry (`ResultCache.store`): the verdicts with every dependence."""

    modules: str
    signed: bytes
    """Each module's import signature, `encoded`."""
    depends: dict[str, str]
    results: bytes
    warnings: list[list[str]]
    reach: list[dict[str, Any] | None]
    graph: bytes | None
    shown: dict[str, str]


CONTENT = "c:"
"""A dependence on a file's whole content (its names are read), not only on its imports."""


class ResultCache:
    """`<directory>/manifest.marshal` (the files' states) and `results-<key>.marshal` (verdicts of
    a
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
            said.append(f"the cache in {shown(self.directory)} was damaged ({files}); rebuilt it")
        if self._unwritable:
            said.append(self._unwritable)
        return said

    # --- the files ------------------------------------------------------------------------

    def knows_files(self) -> bool:
        """Whether the manifest has any file's state (else every file must be read)."""
        return bool(self._load_manifest().get("files"))

    def file_states(
        self, files: PackageFiles, hashed: dict[str, tuple[str, list | None]] | None = None
    ) -> FileStates:
        """The modules' file states (`FileStates`), each found when first asked for."""
        return FileStates(files, self._load_manifest(), hashed or {})

    def store_manifest(self, states: FileStates, signatures: dict[str, str], modules: str) -> None:
        """Remember the state of each file this run looked at, with the signatures it learnt (a
        file it did not read into its graph keeps the signature the manifest had for its
        content), what the manifest still holds of the files it did not look at, and the digest
        of the module set they were read with."""
        files = states.entries(signatures)
        self._write(
            MANIFEST,
            {
                "format": FORMAT,
                "key": self.settings_key,
                "written_ns": time.time_ns(),
                "files": files,
                "modules": modules,
            },
        )

    def manifest_files(self) -> dict[str, Any]:
        """The manifest's entry of each file, where the manifest is for these settings."""
        files = self._load_manifest().get("files", {})
        return files if isinstance(files, dict) else {}

    def modules_changed(self, modules: str) -> bool:
        """Whether the module set is not the one the files were last read with: an import of an
        unchanged file may then resolve to another module (`from pkg import mod` of a module
        that is gone), so grimp's cache, keyed by file, must be discarded."""
        return self._load_manifest().get("modules") != modules

    def _load_manifest(self) -> dict[str, Any]:
        if self._manifest is None:
            data = self._read(MANIFEST)
            valid = (
                isinstance(data, dict)
                and data.get("format") == FORMAT
                and data.get("key") == self.settings_key
            )
            self._manifest = data if valid and isinstance(data.get("files"), dict) else {}
        return self._manifest

    # --- the verdicts ---------------------------------------------------------------------

    def load(self, key: str) -> StoredVerdicts | None:
        """The verdicts kept under `key`, None where there are none (or they are damaged:
        said once)."""
        data = self._read(f"results-{key}{RESULTS_SUFFIX}")
        if data is None:
            return None
        fields = (
            ("results", bytes),
            ("warnings", list),
            ("reach", list),
            ("signed", bytes),
            ("depends", dict),
            ("graph", bytes),
            ("shown", dict),
            ("modules", str),
        )
        try:
            if (
                not isinstance(data, dict)
                or data.get("format") != FORMAT
                or not all(isinstance(data.get(k), t) for k, t in fields)
            ):
                raise ValueError("not an entry")
            results, signed, graph = (
                marshal.loads(data["results"]),
                marshal.loads(data["signed"]),
                marshal.loads(data["graph"]),
            )
            if not (isinstance(results, list) and isinstance(signed, dict)):
                raise ValueError("not an entry")
        except (EOFError, ValueError, TypeError):
            self._damaged.append(f"results-{key}{RESULTS_SUFFIX}")
            return None
        return StoredVerdicts(
            modules=data["modules"],
            depends={**signed, **data["depends"]},
            results=results,
            warnings=data["warnings"],
            reach=data["reach"],
            graph=graph,
            shown=data["shown"],
        )

    def damaged(self, key: str) -> None:
        """The results under `key` could not be used: say so once, rebuild them."""
        self._damaged.append(f"results-{key}{RESULTS_SUFFIX}")

    def store(self, key: str, entry: SignedVerdicts) -> None:
        """Keep the verdicts of a set of contracts (`results`, `encoded`; each contract's
        `warnings` and `reach`), what they depend on (`modules`; the import signatures, encoded,
        in `signed`, and what else in `depends`), the graph's imports (`graph`, encoded) and the
        digest of each file whose lines they show (`shown`: a later run re-reads those lines
        where a file changed). `load` gives them decoded, `signed` within `depends`."""
        self._write(f"results-{key}{RESULTS_SUFFIX}", {"format": FORMAT, **entry})
        self._keep_newest_results()

    # --- files on disk --------------------------------------------------------------------

    def _path(self, name: str) -> str:
        return os.path.join(self.directory, name)

    def _read(self, name: str) -> Any:
        try:
            return read_marshal(self._path(name), FORMAT)
        except FileNotFoundError:
            return None
        except (OSError, DamagedCacheFile):
            self._damaged.append(name)
            return None

    def _write(self, name: str, data: Any) -> None:
        try:
            write_marshal(self._path(name), data, FORMAT)
        except OSError as error:
            self._unwritable = (
                f"the cache directory {shown(self.directory)} is not writable ({error.strerror}); "
                "running without a cache"
            )

    def _keep_newest_results(self) -> None:
        """Keep the newest few result files (one per set of contracts a team checks, as
        `--contract` and pytest select them); older keys rarely match again."""
        try:
            names = [
                n
                for n in os.listdir(self.directory)
                if n.startswith("results-") and n.endswith(RESULTS_SUFFIX)
            ]
            names.sort(key=lambda n: os.stat(self._path(n)).st_mtime_ns, reverse=True)
            for name in names[KEPT_RESULTS:]:
                os.remove(self._path(name))
        except OSError:
            pass
