"""`loads`: what importing a module executes, read from the source, must hold no forbidden
module."""

from __future__ import annotations

from typing import TYPE_CHECKING

from layering.contracts._common import (
    Contract,
    Findings,
    cut_group,
    judge_expected,
    option,
    require_expected_among,
)
from layering.domain.chains import ChainGraph, Question, chains_and_cut, contract_cut
from layering.domain.codes import LOADS_FORBIDDEN
from layering.domain.loads import (
    CONDITIONAL,
    ExecutedImports,
    LoadClosure,
    ancestors_and_self,
    loaded_through,
)
from layering.domain.patterns import is_within
from layering.domain.results import ItemResult, Verdict, Violation
from layering.engine.loads import LoadReader

if TYPE_CHECKING:
    from layering.adapters.grimp_graph import ImportGraph
    from layering.engine.evidence import Evidence


class LoadsContract(Contract):
    """Importing any of `modules` executes none of `forbidden`, as far as the source says.

    The static counterpart of `probe`: it follows what `import M` runs without running it.
    Executing a module runs its module-level imports (also inside `if`, `try`, `with` and
    class bodies; not in functions, under `if TYPE_CHECKING:` or `lazy import`); importing
    `a.b.c` first executes `a` and `a.b` (hops marked `parent package`); `from p import x`
    executes `p`, then `p.x` when it is a submodule; both sides of an `if` or `try` are
    followed (hops marked `conditional`). An external package counts as loaded when an
    executed statement imports it or one of its submodules; its own code is not read.
    Dynamic imports (`importlib.import_module`, `__import__`, a module `__getattr__`) are
    not seen: `layering audit` compares this with the probe.

    Options:
        modules:       modules whose import is followed (patterns allowed; the package's own).
        forbidden:     modules that must not be executed (patterns; external packages too).
        expect_loaded: modules known to load a forbidden one today (strict: once they no
                       longer do, remove them; they only shrink).

    Example:
        [[contracts]]
        name = "Importing a disaggregated module does not load responses_utils"
        type = "loads"
        modules = ["tensorrt_llm.serve.openai_client", "tensorrt_llm.serve.openai_disagg_service"]
        forbidden = ["tensorrt_llm.serve.responses_utils", "torch"]
        expect_loaded = []

    For each module that loads a forbidden one, the report gives the chain of statements
    that the interpreter would run to get there (the first to reach it, in source order);
    first, as for a graph contract, the fewest import statements that cut every chain from the
    modules (and the parent packages their import executes) to what they load that no
    `expect_loaded` entry names: modules that load the same forbidden ones form one group.
    """

    type_name = "loads"
    takes_scope = False
    baseline_option = "expect_loaded"
    options = {
        "modules": option("patterns", "modules whose import is followed", required=True),
        "forbidden": option("patterns", "modules that must not load", required=True),
        "expect_loaded": option(
            "expected_loads", "modules known to load a forbidden one", default=()
        ),
    }

    def validate(self, evidence: Evidence) -> None:
        self.require_matches(evidence, "modules", self.values["modules"])
        self.require_matches(evidence, "forbidden", self.values["forbidden"], external_ok=True)
        if not self.problems:
            require_expected_among(self, set(self.checked_modules(evidence)), "checked")

    def checked_modules(self, evidence: Evidence) -> list[str]:
        return evidence.expand_all(self.values["modules"])

    def find(
        self, evidence: Evidence, found: Findings, graph: ImportGraph | None
    ) -> list[Violation]:
        reader = LoadReader.of(evidence)
        forbidden = self.values["forbidden"]
        closures = [
            reader.closure(module, stop_at=forbidden) for module in self.checked_modules(evidence)
        ]
        found.items = tuple(self._judge_module(evidence, c, found) for c in closures)
        self._find_cuts(closures, ExecutedImports(closures), evidence.listed_chains, found)
        found.stale.extend(
            v
            for item in found.items
            if item.verdict is Verdict.UNEXPECTEDLY_KEPT
            for v in item.violations
        )
        return [
            v for item in found.items if item.verdict is Verdict.BROKEN for v in item.violations
        ]

    def _find_cuts(
        self, closures: list[LoadClosure], executed: ExecutedImports, listed: int, found: Findings
    ) -> None:
        """The chains from the broken modules to the loads that break them, with their cut, and
        the one cut of all of them where there are several groups (`chains.contract_cut`).

        The modules whose `expect_loaded` entries excuse the same loads form one group (a chain
        from one to a load another does not excuse is a load that breaks it too), apart from
        those that are forbidden themselves or lie in a forbidden package: their import loads
        it before any statement runs, and there is no import to cut for it."""
        groups: dict[tuple[frozenset[str], frozenset[str]], tuple[list[str], set[str]]] = {}
        for closure, item in zip(closures, found.items):
            if item.verdict is not Verdict.BROKEN:
                continue
            breaking = {v.imported for v in item.violations}
            excused = frozenset(closure.covered(self.values["forbidden"])) - breaking
            own = frozenset(loaded for loaded in breaking if is_within(item.key, loaded))
            members, loads = groups.setdefault((excused, own), ([], set()))
            members.append(item.key)
            loads.update(breaking - own)
        graph = ChainGraph(executed.imports)
        questions = []
        for modules, targets in sorted((sorted(m), sorted(t)) for m, t in groups.values() if t):
            sources = {s for module in modules for s in ancestors_and_self(module)}
            chains = chains_and_cut(graph, sources, set(targets), listed=listed)
            if not chains.cut:
                continue
            found.chain_groups.append(
                cut_group(
                    chains,
                    (", ".join(modules), ", ".join(targets)),
                    lambda _: LOADS_FORBIDDEN,
                    executed.located,
                    lambda edge: executed.statements(*edge),
                )
            )
            questions.append((Question(sources, set(targets), frozenset()), chains.cut))
        if len(questions) > 1:
            found.cut = tuple(
                hop
                for edge in contract_cut(graph, questions)
                for hop in executed.statements(*edge)
            )

    def _judge_module(
        self, evidence: Evidence, closure: LoadClosure, found: Findings
    ) -> ItemResult:
        module = closure.module
        where = evidence.display_path(module)
        loads = tuple(
            _loaded_violation(closure, forbidden, where)
            for forbidden in closure.covered(self.values["forbidden"])
        )
        return judge_expected(self, module, loads, found)


def _loaded_violation(closure: LoadClosure, loaded: str, module_path: str) -> Violation:
    """`importing M loads X`, at the first statement of the chain (or M's file when X is M
    itself or a parent package of it), with every hop."""
    module = closure.module
    chain = closure.chain(loaded)
    hops = tuple(step.hop() for step in chain)
    parent = loaded_through(module, chain)
    if parent:
        how = f" through its parent package {parent}"
    elif not chain:
        how = ": it is forbidden itself" if loaded == module else ", its own parent package"
    else:
        how = ""
    return Violation(
        path=hops[0].path if hops else module_path,
        line=hops[0].line if hops else 1,
        code=LOADS_FORBIDDEN,
        message=f"importing {module} loads {loaded}{how}",
        importer=module,
        imported=loaded,
        qualifiers=(CONDITIONAL,) if any(step.conditional for step in chain) else (),
        chain=hops,
    )
