"""Deciding graph contracts with the result cache: reuse what an edit cannot have changed.

Three cases, cheapest first:

* no module the verdicts depend on has other imports than when they were decided (a body edit,
  a fresh checkout of the same tree): every verdict is reused, the lines a report shows in an
  edited file read again;
* some have (an import added or removed): the graph is built, and each contract whose chains
  no changed module can reach keeps its verdict (`engine.reach`); the others are decided again;
* the module set changed, or nothing is cached: every contract is decided.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from layering.adapters import cache_files, result_cache
from layering.deciding.fresh import decide_each, warnings_of
from layering.domain.errors import SourceUnreadable
from layering.domain.patterns import index_patterns
from layering.domain.results import ContractResult, Verdict
from layering.domain.serialization import result_from_data, result_to_data
from layering.engine.config import Settings
from layering.engine.evidence import Evidence
from layering.engine.reach import (
    ModuleIndex,
    StoredImports,
    summarize,
    unaffected,
    widened,
)

if TYPE_CHECKING:
    from layering.adapters.cache_builder import Hashed
    from layering.adapters.grimp_graph import ImportGraph
    from layering.adapters.grimp_scan import ModuleReading
    from layering.adapters.package_files import PackageFiles
    from layering.contracts._common import Contract


def decide_with_cache(
    contracts: list[Contract],
    evidence: Evidence,
    settings: Settings,
    chains: int,
) -> tuple[list[ContractResult], list[str], list[list[str]]]:
    """The results of the graph `contracts`, what the cache itself has to say, and each
    contract's warnings, reusing cached ones where the package's imports allow it."""
    settings_key = settings_digest(settings)
    assert settings.cache_dir is not None  # a run without a cache does not come here
    cache = result_cache.ResultCache(settings.cache_dir, settings_key)
    files = evidence.package_files
    # The configuration's text too, not only its options: results hold lines of it (a contract's
    # table, a stale entry), which any edit above them moves.
    key = result_cache.digest_of(
        [
            settings_key,
            settings.content_digest(),
            [c.spec.options for c in contracts],
            chains,
            evidence.records_chain_ends,
            # `<stdlib>` and `<third-party>` are the modules of the interpreter the code runs in.
            sorted(settings.stdlib_modules) if settings.names_external_classes else None,
        ]
    )
    # Which modules are packages too: a module made a package (`c.py` to `c/__init__.py`) reads
    # `from . import a` anew.
    packages = sorted(
        m for m, path in files.files.items() if os.path.basename(path) == "__init__.py"
    )
    modules = result_cache.digest_of(
        [sorted(files.files), packages, sorted(files.namespace_packages)]
    )
    if not cache.knows_files():
        # Nothing to reuse: decide while a builder hashes the files, signs what the graph read
        # and writes it all down for the next run, the verdicts last.
        from layering.adapters.cache_builder import CacheBuilder

        builder = CacheBuilder(files, _Writer(cache, files, key, modules, settings.base_dir))
        evidence.key_graph_by(builder)
        run = _CachedRun(contracts, evidence, settings, cache, cache.file_states(files))
        try:
            results = run.decide_all()
        except BaseException:
            builder.cancel()
            raise
        problems = builder.finish(run.verdicts(modules, results))
        return results, list(dict.fromkeys(problems + cache.warnings)), run.warnings
    states = cache.file_states(files)
    evidence.key_graph_by(_Digests(states))
    run = _CachedRun(contracts, evidence, settings, cache, states)
    entry = cache.load(key)
    if cache.modules_changed(modules):
        evidence.discard_graph_cache()
    reused = run.reuse(entry, modules, key) if entry is not None else None
    results = reused if reused is not None else run.decide_all()
    if run.stored_anew:
        run.store(key, run.verdicts(modules, results))
    cache.store_manifest(
        run.states,
        {
            **{m: r.signature for m, r in run.learned.items()},
            **{m: r.signature for m, r in evidence.readings.items()},
        },
        modules,
    )
    return results, cache.warnings, run.warnings


def settings_digest(settings: Settings) -> str:
    """What every cached result depends on beyond the package and the contracts: layering's
    version and code, grimp's and import-linter's versions and the run-wide settings."""
    from layering.domain.version import VERSION

    return result_cache.digest_of(
        [
            VERSION,
            cache_files.own_fingerprint(),
            result_cache.library_fingerprint("grimp"),
            result_cache.library_fingerprint("importlinter"),
            settings.root_packages,
            settings.source_roots,
            settings.exclude_type_checking_imports,
            settings.include_external_packages,
            [pattern.text for pattern in settings.exclude],
        ]
    )


class _Writer:
    """What a cache builder writes through (`cache_builder.CacheWriter`): the files' states,
    then the verdicts, signed (in a builder process forked from the run, or on a thread)."""

    def __init__(
        self,
        cache: result_cache.ResultCache,
        files: PackageFiles,
        key: str,
        modules: str,
        base_dir: str,
    ) -> None:
        self._cache = cache
        self._files = files
        self._key = key
        self._modules = modules
        self._base_dir = base_dir

    def keep(self, hashed: Hashed, signatures: dict[str, str]) -> list[str]:
        states = self._cache.file_states(self._files, hashed)
        self._cache.store_manifest(states, signatures, self._modules)
        return self._cache.warnings

    def store(
        self, hashed: Hashed, signatures: bytes, imported: bytes, verdicts: Any
    ) -> list[str]:
        # The stamps the run took after a builder process was forked.
        self._files.stamps.update(verdicts["stamps"])
        states = self._cache.file_states(self._files, hashed)
        module_at = _ModuleAt(self._files.files, self._base_dir)
        entry = signed(verdicts, signatures, imported, states, module_at)
        if entry is not None:
            self._cache.store(self._key, entry)
        return self._cache.warnings


class _CachedRun:
    def __init__(
        self,
        contracts: list[Contract],
        evidence: Evidence,
        settings: Settings,
        cache: result_cache.ResultCache,
        states: result_cache.FileStates,
    ) -> None:
        self.contracts = contracts
        self.evidence = evidence
        self.settings = settings
        self.cache = cache
        self.states = states
        self.learned: dict[str, ModuleReading] = {}
        """What grimp reads of the files this run scanned alone (those an edit changed)."""
        self.warnings: list[list[str]] = [[] for _ in contracts]
        self.reach: list[dict[str, Any] | None] = [None] * len(contracts)
        self.depends: dict[str, str] = {}
        """What the verdicts depend on beyond the graph built this run (all of it, when no
        graph was built; the whole-content dependences on unchanged files otherwise)."""
        self.stored_graph: dict[str, Any] | None = None
        """The graph's imports as the cache keeps them, when this run built no graph."""
        self.stored_anew = True
        """Whether the entry must be written: false only when every verdict was reused as it
        was."""
        self._module_at = _ModuleAt(evidence.package_files.files, settings.base_dir)

    def reuse(
        self, entry: result_cache.StoredVerdicts, modules: str, key: str
    ) -> list[ContractResult] | None:
        """The results from `entry`, every one reused or some decided again; None when the entry
        cannot serve (another module set, a change that cannot be told)."""
        if entry.modules != modules or not len(entry.results) == len(entry.warnings) == len(
            entry.reach
        ) == len(self.contracts):
            return None
        changed = self._changed(entry.depends)
        if changed is None:
            return None
        try:
            cached = [result_from_data(r) for r in entry.results]
        except (KeyError, TypeError, ValueError, AttributeError):
            self.cache.damaged(key)
            return None
        edited = {path for path, digest in entry.shown.items() if self._digest_at(path) != digest}
        if not changed:
            reused = _relocated(cached, edited, self.evidence)
            if reused is None:  # some cannot be read again: decide those, keep the others
                return self._reuse_unaffected(entry, cached, changed, edited)
            self.warnings = [list(w) for w in entry.warnings]
            self.reach = list(entry.reach)
            self.depends = dict(entry.depends)
            self.stored_graph = entry.graph
            self.stored_anew = bool(edited)
            return reused
        return self._reuse_unaffected(entry, cached, changed, edited)

    def _reuse_unaffected(
        self,
        entry: result_cache.StoredVerdicts,
        cached: list[ContractResult],
        changed: set[str],
        edited: set[str],
    ) -> list[ContractResult] | None:
        """Keep each verdict no changed module can reach (found on the cached imports with the
        changed modules' new ones), decide the others on the graph."""
        stored = StoredImports.from_data(entry.graph, self.evidence.is_internal)
        if stored is None:
            return None
        imports = stored.replaced({m: self.learned[m].imported for m in changed})
        index = ModuleIndex(self.evidence.modules)
        read_whole = {m for m in changed if entry.depends[m].startswith(result_cache.CONTENT)}
        results: list[ContractResult | None] = [None] * len(self.contracts)
        for position, (contract, summary) in enumerate(zip(self.contracts, entry.reach)):
            if (
                summary is None
                or (contract.depends_on_source and read_whole)
                or _names_an_importer(contract, changed)
            ):
                continue
            if not unaffected(summary, changed, stored, imports, index):
                continue
            reused = _relocated([cached[position]], edited, self.evidence)
            if reused is not None:
                results[position] = reused[0]
                self.warnings[position] = list(entry.warnings[position])
                self.reach[position] = widened(summary, changed, imports, index)
        undecided = [p for p, r in enumerate(results) if r is None]
        if not undecided:
            self.stored_graph = imports.to_data()
            self.depends = {**entry.depends, **{m: self.learned[m].signature for m in changed}}
            return [r for r in results if r is not None]
        self.depends = {
            m: d
            for m, d in entry.depends.items()
            if d.startswith(result_cache.CONTENT) and m not in changed
        }
        try:
            graph = self.evidence.graph
        except SourceUnreadable:
            return None
        self._summarize(graph, index)
        decided = self._decide_each(undecided)
        return [r if r is not None else decided[p] for p, r in enumerate(results)]

    def decide_all(self) -> list[ContractResult]:
        try:
            graph = self.evidence.graph
        except SourceUnreadable:
            graph = None  # each contract reports the file
        if graph is not None:
            self._summarize(graph, ModuleIndex(self.evidence.modules))
        decided = self._decide_each(list(range(len(self.contracts))))
        return [decided[position] for position in range(len(self.contracts))]

    def _decide_each(self, positions: list[int]) -> dict[int, ContractResult]:
        """Decide the contracts at `positions`, then say their warnings, once all are decided
        (a warning may depend on what the run has read), as a run without the cache does."""
        contracts = [self.contracts[p] for p in positions]
        decided = decide_each(contracts, self.evidence)
        for position, said in zip(positions, warnings_of(contracts, self.evidence, decided)):
            self.warnings[position] = said
        return {position: d.result for position, d in zip(positions, decided)}

    def _summarize(self, graph: ImportGraph, index: ModuleIndex) -> None:
        """What each contract's chains reach in `graph`, before any contract takes its ignored
        imports out of it."""
        for position, contract in enumerate(self.contracts):
            pairs = contract.chain_pairs(self.evidence, graph)
            self.reach[position] = None if pairs is None else summarize(pairs, graph, index)

    def _changed(self, depends: dict[str, str]) -> set[str] | None:
        """The modules whose imports (or, where names are read, content) are no longer what the
        cached verdicts depend on, each read again alone; None when that cannot be told."""
        changed = set()
        unread = set()
        for module, before in depends.items():
            state = self.states.get(module)
            if state is None:
                return None
            if before.startswith(result_cache.CONTENT):
                if before[len(result_cache.CONTENT) :] != state.digest:
                    changed.add(module)
                    unread.add(module)
            elif state.signature != before:
                unread.add(module)  # changed, or not known for this content
        if unread:
            from layering.adapters.grimp_graph import readings_of_modules

            found = readings_of_modules(
                self.evidence.package_files,
                unread,
                self.settings.exclude_type_checking_imports,
                self.evidence.include_external_packages,
            )
            if found is None or found.keys() != unread:
                return None
            self.learned.update(found)
            changed.update(m for m in unread if found[m].signature != depends[m])
        return changed

    def _digest_at(self, display_path: str) -> str | None:
        """The digest of the file a report names by `display_path`."""
        module = self._module_at(display_path)
        return None if module is None else self.states[module].digest

    def verdicts(
        self, modules: str, results: list[ContractResult]
    ) -> result_cache.VerdictsToStore | None:
        """What the cache keeps of `results` but what the graph's readings say (`signed` adds
        it); None when they are not to be kept: a contract could not be decided, or the graph
        was built the public way, with nothing to key the verdicts by."""
        if any(r.verdict is Verdict.ERROR for r in results):
            return None
        if (
            self.evidence.graph_built
            and not self.evidence.readings
            and self.evidence.package_files.files
        ):
            return None
        content = (
            sorted(self.evidence.modules_read())
            if any(c.depends_on_source for c in self.contracts)
            else []
        )
        shown = sorted(shown_paths(results))
        shown_modules = (m for m in map(self._module_at, shown) if m is not None)
        read = sorted(self.evidence.modules_read().union(shown_modules))
        return {
            "modules": modules,
            "depends": self.depends,
            "content": content,
            "results": result_cache.encoded([result_to_data(r) for r in results]),
            "warnings": self.warnings,
            "reach": self.reach,
            "graph": result_cache.encoded(self.stored_graph) if self.stored_graph else None,
            "shown": shown,
            "read": read,
            "stamps": self.evidence.package_files.stamps_of(read),
        }

    def store(self, key: str, verdicts: result_cache.VerdictsToStore | None) -> None:
        """Keep `verdicts` with what they depend on, signed by the readings of this run."""
        if verdicts is not None:
            readings = self.evidence.readings
            signatures = result_cache.encoded({m: r.signature for m, r in readings.items()})
            imported = (
                None
                if verdicts["graph"] is not None
                else result_cache.encoded({m: r.imported for m, r in readings.items()})
            )
            entry = signed(verdicts, signatures, imported, self.states, self._module_at)
            if entry is not None:
                self.cache.store(key, entry)


def signed(
    verdicts: result_cache.VerdictsToStore,
    signatures: bytes,
    imported: bytes | None,
    states: result_cache.FileStates,
    module_at: Callable[[str], str | None],
) -> result_cache.SignedVerdicts | None:
    """The cache's entry of `verdicts` (`_CachedRun.verdicts`): they depend on the signature of
    each module the graph holds (`signatures`, `result_cache.encoded`) and on the content of
    each file read for names; the graph's imports (`imported`, encoded, unless the verdicts
    hold the stored graph they were reused on) and the digest of each file whose lines they
    show. None where a file the run read the source of changed while it did: the verdicts
    may then hold grimp's reading of one content and lines or names of another, and are not
    kept (the next run decides anew)."""
    if not all(states.unchanged_now(m) for m in verdicts["read"] if m in states):
        return None
    depends = dict(verdicts["depends"])
    depends.update(
        (m, result_cache.CONTENT + _digest_read(states, m))
        for m in verdicts["content"]
        if m in states
    )
    shown = {}
    for path in verdicts["shown"]:
        module = module_at(path)
        if module is not None:
            shown[path] = _digest_read(states, module)
    return {
        "modules": verdicts["modules"],
        "signed": signatures,
        "depends": depends,
        "results": verdicts["results"],
        "warnings": verdicts["warnings"],
        "reach": verdicts["reach"],
        "graph": imported if verdicts["graph"] is None else verdicts["graph"],
        "shown": shown,
    }


def _digest_read(states: result_cache.FileStates, module: str) -> str:
    """The digest of what this run read of `module`'s file, "" when it may have changed since."""
    return states[module].digest if states.unchanged_now(module) else ""


class _ModuleAt:
    """The module whose file a report names by a display path (as `Settings.display_path` gives
    it: relative to the configuration's directory, or absolute), None for another file."""

    def __init__(self, files: dict[str, str], base_dir: str) -> None:
        self._files = files
        self._base_dir = base_dir
        self._by_path: dict[str, str] | None = None
        self._normalized = False

    def __call__(self, display_path: str) -> str | None:
        wanted = os.path.abspath(os.path.join(self._base_dir, display_path))
        if self._by_path is None:
            # The package's paths as found: normal and absolute, as the source roots are.
            self._by_path = {path: module for module, path in self._files.items()}
        if wanted not in self._by_path and not self._normalized:
            # Made sure of on a miss only (4 ms on homeassistant's 8,805 files).
            self._by_path = {os.path.abspath(path): module for module, path in self._files.items()}
            self._normalized = True
        return self._by_path.get(wanted)


class _Digests(Mapping[str, str]):
    """Each module's content digest, from its file state when first asked for: the scan asks
    only for the modules it reads."""

    def __init__(self, states: result_cache.FileStates) -> None:
        self._states = states

    def __getitem__(self, module: str) -> str:
        return self._states[module].digest

    def read_unchanged(self, module: str) -> bool:
        """Whether what grimp just read of `module` is of this digest's content
        (`result_cache.FileStates.read_unchanged`)."""
        return self._states.read_unchanged(module)

    def __iter__(self) -> Iterator[str]:
        return iter(self._states)

    def __len__(self) -> int:
        return len(self._states)


def _names_an_importer(contract: Contract, changed: set[str]) -> bool:
    patterns = contract.importer_patterns()
    if patterns is None:
        return True
    index = index_patterns(patterns)
    return any(index.matching(module) for module in changed)


def shown_paths(results: list[ContractResult]) -> set[str]:
    """Every source path a report of `results` shows a line of."""
    paths = set()
    for result in results:
        for violation in result.violations:
            paths.add(violation.path)
            paths.update(hop.path for hop in violation.chain)
        for group in result.chain_groups:
            for cut in group.cut:
                paths.update(v.path for v in cut.statements)
                paths.update(hop.path for hop in cut.example)
            paths.update(hop.path for chain in group.listed for hop in chain)
    return paths


def _relocated(
    results: list[ContractResult], edited: set[str], evidence: Evidence
) -> list[ContractResult] | None:
    """`relocation.relocate`, imported only by a run that has an edited file to read again
    (3 ms of a warm run's start-up otherwise)."""
    if not edited:
        return results
    from layering.engine.relocation import relocate

    return relocate(results, edited, evidence)
