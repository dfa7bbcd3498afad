"""`defining_module`: a name is taken from the module that defines it, not through a re-export."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from layering.contracts._common import Contract, Findings, option
from layering.domain.codes import REEXPORTED_NAME
from layering.domain.facts import NameUse
from layering.domain.patterns import ModulePattern
from layering.domain.reexports import Home, home_of
from layering.domain.results import Violation

if TYPE_CHECKING:
    from layering.adapters.grimp_graph import ImportGraph
    from layering.domain.facts import ImportFact
    from layering.engine.evidence import Evidence


class DefiningModuleContract(Contract):
    """Each of `modules` takes a name of the package from the module that defines it.

    For `from X import N` in a checked module, where X is a module of the root packages and N
    is not a submodule of X: when X does not define N but takes it from module D (`from D
    import N`, possibly `as`, possibly through a chain of such re-exports, followed to its
    end), the statement is a finding naming D. Names X defines (def, class, assignment) or
    binds to a module are fine; a chain the source cannot follow (a star import, a module-level
    `__getattr__`, a name taken from outside the root packages, two imports of one name) is
    not guessed: no finding.

    Options:
        modules: the importers checked (patterns; default, every module of the root packages).
        facades: packages whose re-exports are their intended surface: taking a name from one
                 (or a module below it) is fine for a module outside it. A module inside a
                 facade still takes names from their homes, as any other.
        unchecked: modules whose imports are not checked.
        allow:   allowances, as `leaf`'s: `"X"` (any name taken from X), or
                 `{ module = "X", names = [...], importer = "..." }`. Each must excuse a
                 finding: they only shrink.

    Example:
        [[contracts]]
        id = "names-from-home"
        name = "Take each name from the module that defines it"
        type = "defining_module"
        modules = ["app.executor"]
        facades = ["app.api"]
    """

    type_name = "defining_module"
    baseline_option = "allow"
    allowance_needs_importer = False
    options = {
        "modules": option("patterns", "the importers checked", default=None),
        "facades": option(
            "patterns", "packages whose re-exports are their intended surface", default=()
        ),
        "unchecked": option("patterns", "modules whose imports are not checked", default=()),
        "allow": option("raw", "the re-exported names it may still take", default=[]),
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.values.get("modules") is None:
            self.values["modules"] = tuple(
                ModulePattern.parse(root) for root in self.settings.root_packages
            )

    @property
    def reads_names(self) -> bool:
        return True

    def validate(self, evidence: Evidence) -> None:
        if "modules" in self.spec.options:
            self.require_matches(evidence, "modules", self.values["modules"])
        self.require_matches(evidence, "facades", self.values["facades"])
        self.require_matches(evidence, "unchecked", self.values["unchecked"])

    def find(
        self, evidence: Evidence, found: Findings, graph: ImportGraph | None
    ) -> list[Violation]:
        importers = sorted({m for p in self.values["modules"] for m in self._covered(evidence, p)})
        taken: dict[tuple[str, int, str, str, tuple[str, ...]], list[tuple[ImportFact, Home]]] = {}
        for importer in importers:
            for fact in evidence.facts_of(importer):
                home = self._home(evidence, fact)
                if home is None or self.skips(fact, found, evidence):
                    continue
                key = (fact.path, fact.first_line, fact.module, home.module, home.through)
                taken.setdefault(key, []).append((fact, home))
        return [self._violation(group) for group in taken.values()]

    @staticmethod
    def _covered(evidence: Evidence, pattern: ModulePattern) -> list[str]:
        """The modules a pattern names, and those below it (a package stands for its tree)."""
        named = evidence.expand(pattern)
        return [*named, *(d for m in named for d in evidence.descendants(m))]

    def _home(self, evidence: Evidence, fact: ImportFact) -> Home | None:
        """Where the name `fact` takes is defined, when that is not the module it names."""
        if fact.use is not NameUse.IMPORT or fact.name is None or fact.name == "*":
            return None
        if fact.imported == fact.dotted or not evidence.is_internal(fact.module):
            return None  # a submodule, or a module outside the package
        if any(
            p.covers(fact.module) and not p.covers(fact.importer) for p in self.values["facades"]
        ):
            return None
        home = home_of(fact.module, fact.name, evidence.top_level_names)
        if home is None or home.module == fact.importer:
            return None
        return home

    @staticmethod
    def _violation(group: list[tuple[ImportFact, Home]]) -> Violation:
        """One finding per statement and home: the names it takes from one module that are
        all defined in one other, at the line of the first."""
        group.sort(key=lambda taken: (taken[0].line, taken[0].name or ""))
        fact, home = group[0]
        names = tuple(sorted({f.name for f, _ in group if f.name}))
        renamed = sorted({(f.name, h.name) for f, h in group if f.name and h.name != f.name})
        if len(names) == 1:
            what = f"{names[0]} from {fact.module}; it is defined in {home.module}"
            what += f" as {renamed[0][1]}" if renamed else ""
        else:
            what = f"{', '.join(names)} from {fact.module}; they are defined in {home.module}"
            what += "".join(f"; {name} is {there} there" for name, there in renamed)
        through = f" (re-exported through {', '.join(home.through)})" if home.through else ""
        return Violation(
            path=fact.path,
            line=fact.line,
            code=REEXPORTED_NAME,
            message=f"{fact.importer} takes {what}{through}",
            importer=fact.importer,
            imported=fact.module,
            names=names,
            qualifiers=fact.qualifiers(),
        )
