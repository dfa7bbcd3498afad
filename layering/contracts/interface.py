"""`interface`: outside a package, import only what the package exports."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from layering.contracts._common import (
    Contract,
    Findings,
    OptionError,
    option,
    statement_violations,
)
from layering.domain.codes import INTERFACE_IMPORT
from layering.domain.errors import Problem, SourceUnreadable
from layering.domain.facts import NameUse
from layering.domain.interface import Unreadable, breaches, exported_names
from layering.domain.patterns import is_dotted_name, is_within
from layering.domain.results import Violation

if TYPE_CHECKING:
    from layering.adapters.grimp_graph import ImportGraph
    from layering.domain.facts import ImportFact
    from layering.engine.evidence import Evidence

ALL = "__all__"


def _public(value: Any) -> str | frozenset[str]:
    """`"__all__"` or a list of names and submodules, relative to the package."""
    if value == ALL:
        return ALL
    if isinstance(value, str):
        raise OptionError(
            'expected "__all__" or a list of names and submodules (["Model", "fields"]), got '
            f"{value!r}"
        )
    if not isinstance(value, list) or not value:
        raise OptionError(f"expected a list of at least one name or submodule, got {value!r}")
    for entry in value:
        if not isinstance(entry, str) or not is_dotted_name(entry):
            raise OptionError(
                f"{entry!r} is not a name or a submodule relative to the package ('Model', "
                "'fields.related')"
            )
    return frozenset(value)


class InterfaceContract(Contract):
    """Outside each package of `modules`, only what it exports is imported.

    An import by a module outside the package (not the package, not below it) of a deeper
    module (`pkg._impl`, `pkg.fields.related`) that lies under no public submodule, or of a
    name the package does not export (`from pkg import _helper`), is a finding.

    Options:
        modules: the packages whose surface is guarded (patterns).
        public:  "__all__" (the default): each package's `__all__`, read statically (literal
                 lists or tuples of strings, summed with other modules' `__all__`); or a list
                 of names and submodules relative to the package (`"Model"`, `"fields"`):
                 a public submodule is public with everything under it.
        unchecked: modules that are never the importer of a finding.
        allow:   allowances: `"importer -> pkg.sub"` or
                 `{ importer = "...", module = "...", names = [...] }`; each must match an
                 import (they only shrink).

    Example:
        [[contracts]]
        id = "db-models-interface"
        name = "Outside django.db.models, only its public names"
        type = "interface"
        modules = ["django.db.models"]
        public = "__all__"
    """

    type_name = "interface"
    baseline_option = "allow"
    options = {
        "modules": option("patterns", "the packages whose surface is guarded", required=True),
        "public": option("raw", '"__all__", or the public names and submodules', default=ALL),
        "unchecked": option("patterns", "modules never the importer of a finding", default=()),
        "allow": option("raw", "the imports excused (only shrink)", default=[]),
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.public: str | frozenset[str] = ALL
        try:
            self.public = _public(self.values.get("public", ALL))
        except OptionError as error:
            self.problem("public", f"contract '{self.name}', option 'public': {error}")

    def validate(self, evidence: Evidence) -> None:
        before = len(self.problems)
        self.require_matches(evidence, "modules", self.values["modules"])
        self.require_matches(evidence, "unchecked", self.values["unchecked"])
        if len(self.problems) > before:
            return
        for pattern in self.values["modules"]:
            for package in evidence.expand(pattern):
                surface = self.surface(evidence, package)
                if isinstance(surface, Unreadable):
                    self.problem_at(
                        "modules",
                        pattern,
                        f"contract '{self.name}': the public names of '{package}' cannot be read "
                        "from "
                        f"its __all__ ({surface})",
                        hint='list them: public = ["Name", "submodule", ...] (relative to the '
                        "package)",
                    )
                else:
                    self._check_entries(evidence, package)

    def _check_entries(self, evidence: Evidence, package: str) -> None:
        """An entry of `public` that is neither a name the package defines nor a submodule
        guards nothing (a misspelling): an error at its line, where the package's names can be
        told (not past a star import)."""
        raw = self.spec.options.get("public")
        if self.public == ALL or not isinstance(raw, list):
            return
        defined = evidence.defined_names(package)
        for index, entry in enumerate(raw):
            if "." in entry:
                missing = not evidence.is_module(f"{package}.{entry}")
            else:
                missing = defined is not None and entry not in defined
            if missing:
                self.problems.append(
                    Problem(
                        self.settings.path,
                        self.spec.line_of_entry("public", index),
                        f"contract '{self.name}', option 'public': '{entry}' is neither a name "
                        f"'{package}' defines nor one of its submodules",
                        hint="fix or remove it",
                    )
                )

    def surface(self, evidence: Evidence, package: str) -> frozenset[str] | Unreadable:
        """The public entries of `package`, relative to it."""
        if self.public != ALL:
            assert isinstance(self.public, frozenset)
            return self.public
        return exported_names(package, evidence.exports_of)

    def _uses(self, evidence: Evidence, importer: str, found: Findings) -> tuple[ImportFact, ...]:
        """The uses of names on modules in `importer`; none, with a warning, for a file this
        Python cannot parse (its import statements are still read as grimp reads them)."""
        try:
            return _deepest(evidence.name_uses_of(importer))
        except SourceUnreadable as unreadable:
            where = f"{evidence.settings.display_path(unreadable.path)}:{unreadable.line}"
            alert = (
                f"{where}: contract '{self.name}': {unreadable.reason}: only the import "
                "statements "
                "of this file are checked, not its uses of names (`models.sql.Query`)"
            )
            if alert not in found.alerts:
                found.alerts.append(alert)
            return ()

    @property
    def reads_names(self) -> bool:
        """Imported names, and the `__all__` they are checked against, are read from the source."""
        return True

    def find(
        self, evidence: Evidence, found: Findings, graph: ImportGraph | None
    ) -> list[Violation]:
        packages = evidence.expand_all(self.values["modules"])
        violations = []
        summaries = []
        for package in packages:
            surface = self.surface(evidence, package)
            if isinstance(surface, Unreadable):
                continue  # validation said so
            taken = []
            for importer in sorted(evidence.modules):
                if is_within(importer, package):
                    continue
                facts = evidence.facts_of(importer)
                if any(_on_the_way(fact, package) for fact in facts):
                    facts = facts + self._uses(evidence, importer, found)
                for fact in facts:
                    if fact.name == ALL or not breaches(fact, package, surface):
                        continue
                    if self.skips(fact, found, evidence):
                        continue
                    taken.append(fact)
            found_here = statement_violations(
                taken, INTERFACE_IMPORT, lambda _: f", not exported by {package}"
            )
            violations.extend(found_here)
            if found_here:
                summaries.append(_summary(package, found_here))
        found.notes = (*found.notes, *summaries)
        return violations


def _deepest(uses: tuple[ImportFact, ...]) -> tuple[ImportFact, ...]:
    """Of the facts one chain of names gives (`a.b.c.X`: `b` of `a`, `c` of `a.b`, `X` of
    `a.b.c`), the last, which names all it reaches: one finding per use."""
    owners = {(fact.line, fact.use, fact.module) for fact in uses}
    return tuple(fact for fact in uses if (fact.line, fact.use, fact.dotted) not in owners)


def _on_the_way(fact: ImportFact, package: str) -> bool:
    """Whether an import binds `package` or a package above it (`import a.b` binds `a`;
    `from a import b` binds `a.b`), from which a use (`models.sql.Query`) can reach into it.
    A binding of a module inside it is an import of that module, public or a finding itself."""
    if fact.use is not NameUse.IMPORT:
        return False
    bound = fact.module.partition(".")[0] if fact.name is None else fact.dotted
    return is_within(package, bound)


def _summary(package: str, violations: list[Violation], shown: int = 12) -> str:
    """What the findings of one package reach, most taken first: the submodule each imports
    (`.sql.query`, relative to the package), or the names taken from the package itself."""
    counts: dict[str, int] = {}
    for violation in violations:
        reached = (
            violation.names
            if violation.imported == package
            else ("." + violation.imported[len(package) + 1 :],)
        )
        for what in reached:
            counts[what] = counts.get(what, 0) + 1
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    listed = ", ".join(f"{what} {count}" for what, count in ranked[:shown])
    more = f", and {len(ranked) - shown} more" if len(ranked) > shown else ""
    importers = len({v.importer for v in violations})
    uses = sum(1 for v in violations if set(v.qualifiers) & _USES)
    statements = len(violations) - uses
    counted = " and ".join(
        f"{count} {_plural(count, word)}"
        for count, word in ((statements, "import statement"), (uses, "use"))
        if count
    )
    verb = "reaches" if len(violations) == 1 else "reach"
    return (
        f"{package}: {counted} in {importers} {_plural(importers, 'module')} {verb} past its "
        f"surface; what they take, most first: {listed}{more}"
    )


_USES = frozenset(use.value for use in NameUse if use is not NameUse.IMPORT)


def _plural(count: int, word: str) -> str:
    return word if count == 1 else word + "s"
