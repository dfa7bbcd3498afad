"""In-memory fakes of the evidence's ports (`layering.engine.ports`): a package held as text,
its files, its sources and grimp's graph of it, so that a contract is decided in process, in
milliseconds, with nothing read from the disk.

    package = InMemoryPackage({"pkg/__init__.py": "", "pkg/a.py": "import pkg.b\\n", "pkg/b.py":
    ""})
    run = decide(package, '''
        [[contracts]]
        type = "forbidden"
        source_modules = ["pkg.a"]
        forbidden_modules = ["pkg.b"]
    ''')
    assert findings(run.result) == [("LY001", "src/pkg/a.py", 1, "pkg.a imports pkg.b")]

The configuration is `HEADER` followed by the text a test gives: line `BODY + n` is line `n` of
that text. Files sit under `src/` beside the configuration, so a finding's path reads
`src/pkg/a.py`.

The fakes live with the tests, not in `layering`: the contract types and the evidence are not
layering's public API (its users' own contract types are import-linter's, tested with
import-linter's and grimp's own in-memory graphs).
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, TypeVar

import grimp

from layering.adapters.facts_cache import TextFilter
from layering.adapters.package_files import PackageFiles
from layering.adapters.source_facts import RawImport, parse_imports
from layering.commands.check import (
    _plan,  # the plan a run decides from its contracts: decided here as `check` decides it
    load_contracts,
)
from layering.contracts._common import Contract
from layering.deciding.fresh import Decided, decide_each, warnings_of
from layering.domain.errors import SourceUnreadable
from layering.domain.patterns import is_within
from layering.domain.results import ContractResult, Violation
from layering.engine.config import Settings, settings_from_text
from layering.engine.evidence import Evidence
from layering.engine.plan import RunPlan
from layering.engine.ports import GraphRequest

ROOT = os.path.join(os.sep, "in-memory")
"""Where the package seems to be: a directory nothing reads (every file is text held here)."""
CONFIG = os.path.join(ROOT, "contracts.toml")
SOURCE_ROOT = os.path.join(ROOT, "src")

HEADER = 'root_packages = ["pkg"]\nsource_roots = ["src"]\ncache_dir = false\n'
BODY = HEADER.count("\n")
"""The line before a test's configuration text: its line n is line BODY + n of the file."""

NO_CACHE = RunPlan(keeps_cache=False)
T = TypeVar("T")


class InMemorySources:
    """`Sources` over texts held in memory, by path."""

    def __init__(self, texts: Mapping[str, str]) -> None:
        self.texts = dict(texts)
        self.reads: list[str] = []
        """Every path read, in order (to tell what a decision read)."""

    def read(self, path: str) -> str:
        self.reads.append(path)
        try:
            return self.texts[path]
        except KeyError:
            raise SourceUnreadable(path, 0, "cannot be read (No such file or directory)") from None

    def facts(self, path: str, read: Callable[[str, str], T]) -> T:
        return read(path, self.read(path))

    def facts_if(self, path: str, read: Callable[[str, str], T], admits: TextFilter) -> T | None:
        text = self.read(path)
        return read(path, text) if admits(text) else None


class InMemoryGraphSource:
    """`GraphSource` that builds grimp's `ImportGraph()` in memory from the sources.

    Each file's imports are read with layering's own reader (`parse_imports`) and resolved as
    grimp resolves them: an internal name is the module it names, else its parent module, else
    nothing; an external one is its top-level package, kept only when the graph holds external
    packages (squashed). Each import is at the line its statement starts on, as grimp records
    it. `test_fakes.py` holds it to grimp's own graph of the same package on disk.
    """

    def __init__(self, sources: InMemorySources) -> None:
        self.sources = sources
        self.builds = 0

    def build(self, request: GraphRequest) -> Any:
        self.builds += 1
        files = request.files
        roots = request.root_packages
        graph = grimp.ImportGraph()
        for module in sorted(files.modules):
            graph.add_module(module)
        for importer, path in sorted(files.files.items()):
            text = self.sources.read(path)
            lines = text.splitlines()
            for raw in parse_imports(path, text):
                if raw.type_checking and request.exclude_type_checking_imports:
                    continue
                for imported in _imported_modules(importer, path, raw, files.modules, roots):
                    if not any(is_within(imported, r) for r in roots):
                        if not request.include_external_packages:
                            continue
                        imported = imported.partition(".")[0]
                        graph.add_module(imported, is_squashed=True)
                    graph.add_import(
                        importer=importer,
                        imported=imported,
                        line_number=raw.first_line,
                        line_contents=lines[raw.first_line - 1].strip(),
                        is_lazy=True if raw.lazy else None,
                    )
        return graph

    def imports_of_module(
        self, files: PackageFiles, module: str, exclude_type_checking_imports: bool
    ) -> list[tuple[str, int]] | None:
        return None  # as where grimp cannot scan one module alone: the evidence builds the graph


def _imported_modules(
    importer: str, path: str, raw: RawImport, modules: frozenset[str], roots: tuple[str, ...]
) -> list[str]:
    """The modules a statement imports, as grimp resolves them (see `InMemoryGraphSource`)."""
    if raw.is_from:
        base = _absolute(importer, path, raw)
        if base is None:
            return []
        names = [f"{base}.{n.name}" for n in raw.names]
    else:
        names = [n.name for n in raw.names]
    found = []
    for name in names:
        parent = name.rpartition(".")[0]
        if not any(is_within(name, r) for r in roots):
            found.append(name)  # external: squashed by the caller, or left out
        elif name in modules:
            found.append(name)
        elif parent in modules:
            found.append(parent)
    return found


def _absolute(importer: str, path: str, raw: RawImport) -> str | None:
    if raw.level == 0:
        return raw.module
    package = importer if os.path.basename(path) == "__init__.py" else importer.rpartition(".")[0]
    parts = package.split(".")
    if raw.level - 1 >= len(parts):
        return None
    parts = parts[: len(parts) - (raw.level - 1)]
    return ".".join([*parts, raw.module] if raw.module else parts)


class InMemoryPackage:
    """A package held as text: {"pkg/__init__.py": "", "pkg/a.py": "import os\\n"}, each
    path relative to the source root. Every directory holds an `__init__.py` (regular
    packages only)."""

    def __init__(self, texts: Mapping[str, str]) -> None:
        self.relative = {name: textwrap.dedent(text).lstrip("\n") for name, text in texts.items()}
        modules = {}
        for name in self.relative:
            parts = name[: -len(".py")].split("/")
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = os.path.join(SOURCE_ROOT, *name.split("/"))
        for module in modules:
            parent = module.rpartition(".")[0]
            if parent and parent not in modules:
                raise ValueError(f"{module}: its package {parent} has no __init__.py here")
        roots = sorted({m.partition(".")[0] for m in modules})
        self.files = PackageFiles(
            files=modules,
            roots={r: (os.path.join(SOURCE_ROOT, r),) for r in roots},
            namespace_packages=frozenset(),
        )
        self.sources = InMemorySources(
            {os.path.join(SOURCE_ROOT, *n.split("/")): t for n, t in self.relative.items()}
        )
        self.graphs = InMemoryGraphSource(self.sources)

    def evidence(self, settings: Settings, plan: RunPlan = NO_CACHE) -> Evidence:
        """Evidence over this package, read through the fakes only."""
        return Evidence(settings, plan, files=self.files, sources=self.sources, graphs=self.graphs)


def settings(body: str) -> Settings:
    """The settings of `HEADER` followed by `body` (dedented), as a contracts.toml."""
    return settings_from_text(CONFIG, HEADER + textwrap.dedent(body).lstrip("\n"))


class Run(NamedTuple):
    """What deciding a configuration's contracts over a package gave."""

    contracts: list[Contract]
    decided: list[Decided]
    warnings: list[list[str]]
    evidence: Evidence

    @property
    def result(self) -> ContractResult:
        """The result of the only contract."""
        (decided,) = self.decided
        return decided.result

    @property
    def results(self) -> list[ContractResult]:
        return [d.result for d in self.decided]


def decide(package: InMemoryPackage, body: str, chains: int = 0) -> Run:
    """Load the contracts of `body` as a run does (ConfigError for a problem), plan the run
    from them (`chains` listed) and decide them over `package`, each graph contract on a graph
    of its own, without the cache."""
    read = settings(body)
    evidence = package.evidence(read, RunPlan(keeps_cache=False, listed_chains=chains))
    contracts, _ = load_contracts(read, evidence)
    evidence.follow(_plan(contracts, evidence, read, keeps_cache=False, chains=chains))
    decided = decide_each(contracts, evidence)
    return Run(contracts, decided, warnings_of(contracts, evidence, decided), evidence)


def findings(result: ContractResult) -> list[tuple[str, str, int, str]]:
    """(code, path, line, message) of each finding of `result`, in its order."""
    return [as_row(v) for v in result.violations]


def as_row(violation: Violation) -> tuple[str, str, int, str]:
    return (violation.code, violation.path, violation.line, violation.message)


def config_line(n: int) -> int:
    """Line `n` of a test's configuration text, in the configuration file."""
    return BODY + n
