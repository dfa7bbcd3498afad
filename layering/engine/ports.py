"""The evidence's ports: where it reads a file's source text, and where it gets the import graph.

`Evidence` reads the outside world through these two interfaces and one value, so that a test
can hand it a package held in memory and decide a contract in milliseconds:

* the package's files (module -> path, `PackageFiles`): a value, walked from the disk unless
  the caller hands one over (`Evidence(..., files=...)`);
* `Sources`: a file's text by its path, and what a reading of it gives; `DiskSources` (the
  default) reads it as Python decodes it, and reads it again for every run (`FactsCache`, in
  a run that keeps a cache, remembers each reading by the file's content);
* `GraphSource`: the import graph of the package's files; `GrimpGraphSource` (the default) has
  grimp build it from the disk, with layering's walk, reach and cache.

The defaults are the code a run always ran, and each imports its adapter only when first used:
a run answered from the cache reads no source and builds no graph.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar

if TYPE_CHECKING:
    from layering.adapters.cache_builder import CacheBuilder
    from layering.adapters.facts_cache import FactsCache, TextFilter
    from layering.adapters.grimp_scan import ModuleReading
    from layering.adapters.package_files import PackageFiles


T = TypeVar("T")


class Sources(Protocol):
    """The source text of the package's files."""

    def read(self, path: str) -> str:
        """The text of the file at `path`, decoded as Python decodes source; SourceUnreadable,
        located, when it cannot be read or decoded."""
        ...

    def facts(self, path: str, read: Callable[[str, str], T]) -> T:
        """What `read(path, text)` gives for the file's text (a pure function of it);
        SourceUnreadable as `read`, or reading the file, raises it."""
        ...

    def facts_if(self, path: str, read: Callable[[str, str], T], admits: TextFilter) -> T | None:
        """`facts(path, read)`, or None where `admits` refuses the file's text (`read` is then
        spared)."""
        ...


class DiskSources:
    """The files on the disk, decoded the way Python decodes source (BOM and coding cookie
    honoured): what every run reads."""

    def read(self, path: str) -> str:
        from layering.adapters.source_facts import read_source

        return read_source(path)

    def facts(self, path: str, read: Callable[[str, str], T]) -> T:
        return read(path, self.read(path))

    def facts_if(self, path: str, read: Callable[[str, str], T], admits: TextFilter) -> T | None:
        text = self.read(path)
        return read(path, text) if admits(text) else None


class CachedSources:
    """The files on the disk, each reading remembered in `directory` by the file's content
    (`adapters.facts_cache.FactsCache`), which is loaded when first read: a run answered from
    the result cache never loads it."""

    def __init__(self, directory: str) -> None:
        self._directory = directory
        self._cache: FactsCache | None = None

    def _kept(self) -> FactsCache:
        if self._cache is None:
            from layering.adapters.facts_cache import FactsCache

            self._cache = FactsCache(self._directory)
        return self._cache

    def read(self, path: str) -> str:
        return self._kept().read(path)

    def facts(self, path: str, read: Callable[[str, str], T]) -> T:
        return self._kept().facts(path, read)

    def facts_if(self, path: str, read: Callable[[str, str], T], admits: TextFilter) -> T | None:
        return self._kept().facts_if(path, read, admits)

    def save(self, package_paths: Callable[[], Iterable[str] | None]) -> list[str]:
        """Write what this run read (`FactsCache.save`); what to say of the cache."""
        return [] if self._cache is None else self._cache.save(package_paths)


class GraphRequest(NamedTuple):
    """What the evidence asks of a graph source: the graph of `files`, read as the run's plan
    says, once per run."""

    root_packages: tuple[str, ...]
    source_roots: tuple[str, ...]
    files: PackageFiles
    exclude_type_checking_imports: bool
    include_external_packages: bool
    """Whether external packages are in the graph, each squashed to its top-level package."""
    reach: tuple[frozenset[str], frozenset[str]] | None
    """(starts, also): only what `starts` reach needs reading (and `also`); None: every module."""
    cache_dir: str | None
    """Where the graph source may keep what it read (None: nowhere)."""
    digests: Mapping[str, str] | CacheBuilder | None
    """Each file's content digest, to key what is kept by (`Evidence.key_graph_by`)."""
    readings: dict[str, ModuleReading] | None
    """Filled with what was read of each module, for the result cache (None: not wanted)."""
    warnings: list[str]
    """Added to with what the run should say about building the graph (its cache)."""


class GraphSource(Protocol):
    """The import graph of the package: grimp's `ImportGraph`, or one with its methods."""

    def build(self, request: GraphRequest) -> Any:
        """The graph of `request.files`; SourceUnreadable, located, where a file it needs
        cannot be read."""
        ...

    def imports_of_module(
        self, files: PackageFiles, module: str, exclude_type_checking_imports: bool
    ) -> list[tuple[str, int]] | None:
        """(imported, line) of each import the graph would hold for `module`, read from its file
        alone, external packages squashed; None where this source cannot tell without building
        the whole graph (the evidence then builds it)."""
        ...


class GrimpGraphSource:
    """grimp's graph, built from the files on the disk (`grimp_graph.build_graph`)."""

    def build(self, request: GraphRequest) -> Any:
        from layering.adapters.grimp_graph import build_graph

        starts, also = request.reach if request.reach is not None else (None, frozenset())
        return build_graph(
            request.root_packages,
            request.source_roots,
            request.exclude_type_checking_imports,
            request.cache_dir,
            request.include_external_packages,
            files=request.files,
            digests=request.digests,
            starts=starts,
            also=also,
            readings=request.readings,
            warnings=request.warnings,
        )

    def imports_of_module(
        self, files: PackageFiles, module: str, exclude_type_checking_imports: bool
    ) -> list[tuple[str, int]] | None:
        from layering.adapters.grimp_graph import imports_of_module

        return imports_of_module(files, module, exclude_type_checking_imports)


DISK_SOURCES = DiskSources()
GRIMP_GRAPHS = GrimpGraphSource()
