"""`external`: every third-party package the code imports is a declared dependency, and every
declared dependency is imported somewhere."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from layering.contracts._common import Contract, Findings, option
from layering.domain.baseline import IGNORE_DISTRIBUTIONS
from layering.domain.codes import STALE_ALLOWANCE, UNDECLARED_DEPENDENCY, UNUSED_DEPENDENCY
from layering.domain.dependencies import (
    LATER_STANDARD_LIBRARY,
    Declared,
    distributions_of,
    normalized,
    undeclared_imports,
    unused_dependencies,
)
from layering.domain.results import StaleEntry, Violation, statement_message

if TYPE_CHECKING:
    from layering.adapters.grimp_graph import ImportGraph
    from layering.engine.evidence import Evidence


class ExternalContract(Contract):
    """The package's third-party imports and its declared dependencies agree.

    Options:
        pyproject:  the file that declares them (relative to this configuration; default
                    "pyproject.toml"): `[project] dependencies`, and every extra of
                    `[project.optional-dependencies]`, which count as declared.
        modules:    the importers checked (patterns; default: the root packages, whole).
        module_map: { module = "Distribution" } for a top-level module whose distribution
                    is not installed here (else read from the installed metadata).
        ignore:     packages neither required nor reported, each a distribution's name or a
                    top-level module's (what `layering baseline` writes); each must be declared
                    or imported: they only shrink.
        unused:     whether a dependency no module imports is a finding (default true; the
                    extras never are).

    Example:
        [[contracts]]
        id = "deps"
        name = "Imports and declared dependencies agree"
        type = "external"
        module_map = { yaml = "PyYAML" }
        ignore = ["setuptools"]

    A module is third-party when it is neither the standard library's (`<stdlib>`) nor of the
    root packages. Every import counts (module level, in functions, under TYPE_CHECKING, as the
    contract's `type_checking` and `function_level` say).
    """

    type_name = "external"
    baseline_option = IGNORE_DISTRIBUTIONS
    options = {
        "pyproject": option("string", "the file that declares the dependencies", default=""),
        "modules": option("patterns", "the importers checked", default=()),
        "module_map": option("raw", "distributions of modules not installed here", default={}),
        "ignore": option("strings", "packages neither required nor reported", default=()),
        "unused": option(
            "boolean", "a declared dependency no module imports breaks it", default=True
        ),
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.module_map: dict[str, str] = {}
        raw = self.spec.options.get("module_map", {})
        if not isinstance(raw, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and k and v for k, v in raw.items()
        ):
            self.problem(
                "module_map",
                f"contract '{self.name}', option 'module_map': a table of module = "
                '"Distribution"',
                hint='e.g. module_map = { yaml = "PyYAML" }',
            )
        else:
            self.module_map = {k.split(".")[0]: v for k, v in raw.items()}
        self.declared: Declared | None = None

    def validate(self, evidence: Evidence) -> None:
        self.require_matches(evidence, "modules", self.values["modules"])
        from layering.adapters.declared_dependencies import DependenciesUnreadable, read_declared

        path = self._pyproject_path()
        try:
            self.declared = read_declared(path)
        except DependenciesUnreadable as unreadable:
            self.problem(
                "pyproject" if "pyproject" in self.spec.options else "type",
                f"contract '{self.name}': {self.settings.display_path(path)} {unreadable}",
                hint="point 'pyproject' at the file whose [project] dependencies the code has",
            )

    def _pyproject_path(self) -> str:
        import os

        given = self.values["pyproject"] or "pyproject.toml"
        return os.path.normpath(os.path.join(self.settings.base_dir, given))

    def find(
        self, evidence: Evidence, found: Findings, graph: ImportGraph | None
    ) -> list[Violation]:
        from layering.adapters.declared_dependencies import installed_distributions

        declared = self.declared
        assert declared is not None, "validate read the declared dependencies"
        importers = sorted(
            evidence.expand_all(self.values["modules"])
            if self.values["modules"]
            else evidence.modules
        )
        classes = self.settings.module_classes
        installed = installed_distributions()
        ignored = {
            normalized(name): position for position, name in enumerate(self.values["ignore"])
        }
        facts = [
            fact
            for importer in importers
            for fact in evidence.facts_of(importer)
            if fact.module != "__future__"
            and classes.class_of(fact.imported) == "<third-party>"
            and fact.imported.split(".")[0] not in LATER_STANDARD_LIBRARY
            and not self.skips(fact, found, evidence)
        ]
        seen_ignored: set[str] = set()

        def distributions(module: str) -> tuple[str, ...]:
            return distributions_of(module, self.module_map, installed)

        violations = []
        for fact, dist in undeclared_imports(facts, declared, distributions):
            top = fact.imported.split(".")[0]
            if normalized(dist) in ignored or normalized(top) in ignored:
                seen_ignored.update({normalized(dist), normalized(top)} & set(ignored))
                continue
            why = (
                f", of the distribution {dist}, which {declared.shown} does not declare"
                if top in installed or top in self.module_map
                else f", which is not installed here, and {declared.shown} declares no"
                f" distribution '{top}' (declare the one that provides it, or name it:"
                f' module_map = {{ {top} = "..." }})'
            )
            violations.append(
                Violation(
                    path=fact.path,
                    line=fact.line,
                    code=UNDECLARED_DEPENDENCY,
                    message=statement_message(fact.importer, fact.imported, (), why),
                    importer=fact.importer,
                    imported=fact.imported,
                    qualifiers=fact.qualifiers(),
                    detail=why,
                )
            )
        imported = {normalized(d) for fact in facts for d in distributions(fact.imported)}
        imported |= {normalized(fact.imported.split(".")[0]) for fact in facts}
        seen_ignored |= imported & set(ignored)
        seen_ignored |= {normalized(r.name) for r in declared.requirements} & set(ignored)
        if self.values["unused"]:
            where = self.settings.display_path(declared.path)
            for requirement, modules in unused_dependencies(
                facts, declared, distributions, installed
            ):
                if normalized(requirement.name) in ignored:
                    continue
                provides = f" (it provides {', '.join(modules)})" if modules else ""
                violations.append(
                    Violation(
                        path=where,
                        line=requirement.line,
                        code=UNUSED_DEPENDENCY,
                        imported=requirement.name,
                        message=f"dependency '{requirement.name}' is declared and no module of"
                        f" {', '.join(self.settings.root_packages)} imports it{provides}",
                    )
                )
        config = self.settings.display_path(self.settings.path)
        for name, position in sorted(ignored.items(), key=lambda item: item[1]):
            if name in seen_ignored:
                continue
            text = self.values["ignore"][position]
            found.stale_entries.append(StaleEntry("ignore", position, text))
            violations.append(
                Violation(
                    path=config,
                    line=self.spec.line_of_entry("ignore", position),
                    code=STALE_ALLOWANCE,
                    message=f"ignored package '{text}' is neither declared nor imported:"
                    " remove it",
                )
            )
        return violations
