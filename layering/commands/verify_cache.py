"""`layering check --verify-cache`: the cache checked against the files, entry by entry.

The cache is trusted input (SECURITY.md): a run believes what it holds. A nightly job that
restores the cache its team's runs use can prove it true: every file state the manifest holds
for a file still as it was, every reading the import caches hold for a file's present content,
and every verdict a cached run gives, against what a run without the cache reads and decides.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from layering.adapters.package_files import PackageFiles, find_package_files, stamp_of
from layering.domain.errors import ConfigError, Problem
from layering.domain.results import ContractResult, RunReport
from layering.domain.serialization import result_to_data
from layering.engine.config import Settings

if TYPE_CHECKING:
    from layering.commands.check import ProbeSelection


def verify_cache(
    settings: Settings,
    contract_ids: tuple[str, ...],
    probes: ProbeSelection,
    chains: int,
    python: str | None,
) -> tuple[RunReport, list[str]]:
    """The report of a run without the cache, and each cache entry that disagrees with what it
    read and decided (none: the cache is true to the files)."""
    from layering.commands.check import ProbeSelection, check_settings

    cache_dir = settings.cache_dir
    if not cache_dir:
        raise ConfigError(
            Problem(
                settings.path,
                settings.line_of("cache_dir"),
                "--verify-cache has no cache to verify: cache_dir is false",
                hint="set cache_dir, or drop --verify-cache",
            )
        )
    try:
        files = find_package_files(settings.root_packages, settings.source_roots)
    except Exception:  # noqa: BLE001 - the run below says what is wrong with the package
        files = None
    disagreements = (
        []
        if files is None
        else [
            *_manifest_disagreements(settings, cache_dir, files),
            *_import_cache_disagreements(settings, cache_dir, files),
        ]
    )
    fresh = check_settings(
        settings, contract_ids, probes, use_cache=False, chains=chains, python=python
    )
    if probes is not ProbeSelection.PROBES:
        static = ProbeSelection.STATIC
        try:
            cached = check_settings(settings, contract_ids, static, use_cache=True, chains=chains)
        except ConfigError:
            cached = None  # a selection of probes only: nothing the cache decides
        if cached is not None:
            disagreements.extend(
                _verdict_disagreements(settings, cache_dir, cached.results, fresh.results)
            )
    return fresh, disagreements


def _manifest_disagreements(settings: Settings, cache_dir: str, files: PackageFiles) -> list[str]:
    """Each file the manifest says is unchanged (its stamp is the file's) whose digest, or whose
    import signature for that content, is not the file's."""
    from layering.adapters import result_cache
    from layering.adapters.grimp_scan import read_modules
    from layering.deciding.cached import settings_digest

    cache = result_cache.ResultCache(cache_dir, settings_digest(settings))
    known = cache.manifest_files()
    where = _shown(settings, os.path.join(cache_dir, result_cache.MANIFEST))
    said = []
    signed: dict[str, dict[str, str]] = {"i": {}, "x": {}}
    for module, entry in sorted(known.items()):
        path = files.files.get(module)
        if path is None or not (
            isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], list)
        ):
            continue
        try:
            stamp = stamp_of(path, os.stat(path))
        except OSError:
            continue
        if entry[0] != stamp:
            continue  # not trusted for this file any more: nothing it says is used
        digest, _ = result_cache.hashed_file(path)
        if digest != entry[1]:
            said.append(
                f"{where}: {settings.display_path(path)} is held unchanged with digest "
                f"{entry[1]}, but its content's is {digest}"
            )
        elif isinstance(entry[2], str) and entry[2][:1] in signed:
            signed[entry[2][0]][module] = entry[2]
    for mode, signatures in signed.items():
        if not signatures:
            continue
        read = _read_each(
            files, signatures, settings.exclude_type_checking_imports, mode == "x", read_modules
        )
        for module, signature in sorted(signatures.items()):
            if module in read and read[module].signature != signature:
                said.append(
                    f"{where}: {settings.display_path(files.files[module])} is held with the "
                    f"imports of another content (import signature {signature}, read now "
                    f"{read[module].signature})"
                )
    return said


def _import_cache_disagreements(
    settings: Settings, cache_dir: str, files: PackageFiles
) -> list[str]:
    """Each module an import cache holds a reading of for the file's present content (its
    digest) that grimp does not read from that content now."""
    from layering.adapters import result_cache
    from layering.adapters.grimp_scan import (
        grimp_version,
        signature_of,
        statements_read,
    )
    from layering.adapters.import_cache import ImportCache

    said = []
    try:
        names = sorted(os.listdir(cache_dir))
    except OSError:
        return []
    digests: dict[str, str] = {}
    for name in names:
        if not (name == "grimp" or name.startswith("grimp-")):
            continue
        cache = ImportCache(os.path.join(cache_dir, name), grimp_version())
        held = cache.load()
        external, type_checking = "-external" in name, "-no-type-checking" in name
        current = {}
        for module, (digest, signature, statements) in held.items():
            path = files.files.get(module)
            if path is None:
                continue
            if module not in digests:
                digests[module] = result_cache.hashed_file(path)[0]
            if digest and digest == digests[module]:
                current[module] = (signature, statements)
        if not current:
            continue
        read = _read_each(files, current, type_checking, external, statements_read)
        where = _shown(settings, cache.path)
        mode = "x" if external else "i"
        for module, (signature, statements) in sorted(current.items()):
            if module not in read:
                continue
            if tuple(read[module]) != tuple(statements) or signature != signature_of(
                read[module], mode
            ):
                said.append(
                    f"{where}: {settings.display_path(files.files[module])} is held with imports "
                    f"grimp does not read from it ({len(statements)} held, {len(read[module])} "
                    "read)"
                )
    return said


def _read_each(
    files: PackageFiles, modules: dict, type_checking: bool, external: bool, statements_read
) -> dict:
    """What grimp reads of `modules` now, all at once, else one by one where some file cannot
    be read (the run reports that file)."""
    try:
        return statements_read(files, modules, type_checking, external)
    except Exception:  # noqa: BLE001 - grimp's unreadable-file errors vary
        read = {}
        for module in modules:
            try:
                read.update(statements_read(files, [module], type_checking, external))
            except Exception:  # noqa: BLE001
                continue
        return read


def _verdict_disagreements(
    settings: Settings,
    cache_dir: str,
    cached: tuple[ContractResult, ...],
    fresh: tuple[ContractResult, ...],
) -> list[str]:
    """Each contract whose result from the cache is not the one decided without it."""
    where = _shown(settings, cache_dir)
    decided = {(r.contract_id, r.name): r for r in fresh}
    said = []
    for result in cached:
        other = decided.get((result.contract_id, result.name))
        if other is None or result_to_data(result) == result_to_data(other):
            continue
        name = result.contract_id or result.name
        if result.verdict is not other.verdict:
            said.append(
                f"{where}: the cached result of contract '{name}' is "
                f"{result.verdict.value.upper()}; decided without the cache it is "
                f"{other.verdict.value.upper()}"
            )
        else:
            said.append(
                f"{where}: the cached result of contract '{name}' holds other findings than a run "
                f"without the cache ({len(result.violations)} cached, {len(other.violations)} "
                "decided)"
            )
    return said


def _shown(settings: Settings, path: str) -> str:
    return settings.display_path(path)
