"""Run one of import-linter's own contract types over the shared grimp graph.

`layers`, `independence`, `acyclic_siblings` and `protected` are import-linter's: the options
are its options, with the same names as its TOML config, and the verdict is its verdict.
`layering` only adds located option errors, `expect = "broken"`, and file:line per hop.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from layering.contracts._common import COMMON_OPTIONS, Contract, ContractInvalid, chain_group, import_expression, matching_edges
from layering.domain.allowances import Allowance
from layering.domain.chains import chains_and_cut
from layering.domain.errors import did_you_mean
from layering.domain.results import Violation, shown_names

if TYPE_CHECKING:
    from layering.engine.evidence import Evidence


def _as_importlinter_value(value: Any) -> Any:
    """import-linter's fields parse strings (as from INI files); TOML gives typed values."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, list):
        return [_as_importlinter_value(v) for v in value]
    return value


class ImportLinterContract(Contract):
    """Base of the contract types that import-linter implements."""

    importlinter_class: ClassVar[str]
    violation_code: ClassVar[str]
    needs_graph = True
    rendered: tuple[str, ...] = ()
    summaries: tuple[str, ...] = ()

    def _read_options(self, raw: dict[str, Any]) -> None:
        from importlinter.domain import fields
        from importlinter.domain.contract import InvalidContractOptions

        if "expect" in raw and raw["expect"] != "broken":
            self.problem("expect", f"contract '{self.name}': expect takes only \"broken\", got {raw['expect']!r}")
        klass = self._class()
        known = {name for name in dir(klass) if isinstance(getattr(klass, name), fields.Field)} | set(COMMON_OPTIONS)
        for key in sorted(set(raw) - known):
            self.problem(
                key,
                f"contract '{self.name}', option '{key}': Unrecognized option.{did_you_mean(key, known)}",
                hint=f"options of '{self.type_name}': " + ", ".join(sorted(known)),
            )
        options = {k: _as_importlinter_value(v) for k, v in raw.items() if k in known and k not in COMMON_OPTIONS}
        options["name"] = self.name
        session = {"root_packages": list(self.settings.root_packages)}
        try:
            self.delegate = klass(name=self.name, session_options=session, contract_options=options)
        except InvalidContractOptions as invalid:
            for option, message in sorted(invalid.errors.items()):
                self.problem(option, f"contract '{self.name}', option '{option}': {message}")

    def _class(self) -> Any:
        import importlib

        from importlinter import configuration

        configuration.configure()
        module_name, _, class_name = self.importlinter_class.rpartition(".")
        return getattr(importlib.import_module(module_name), class_name)

    def evaluate(self, evidence: "Evidence", used: set[Allowance]) -> list[Violation]:
        graph = evidence.graph_copy()
        missing = self.missing_modules(graph)
        if missing:  # import-linter names one of them, picked in set order: name all, sorted
            raise ContractInvalid(f"{', '.join(repr(m) for m in missing)} {'does' if len(missing) == 1 else 'do'} not exist", self.modules_option)
        stale = self._drop_unmatched_ignores(graph)
        try:
            check = self.delegate.check(graph, verbose=False)
        except ValueError as error:  # import-linter's word for options that do not fit the graph
            raise ContractInvalid(str(error)) from None
        self.ignored_imports = getattr(check, "ignored_import_count", 0)
        where = f"{self.settings.display_path(self.settings.path)}:{self.spec.line}: contract '{self.name}'"
        self.alerts.extend(f"{where}: {warning}" for warning in check.warnings)
        if check.kept:
            return stale
        return stale + self.findings(evidence, graph, check)

    modules_option: ClassVar[str] = ""

    def missing_modules(self, graph: Any) -> list[str]:
        """The modules `modules_option` names that the graph lacks, sorted (none by default)."""
        return []

    def _drop_unmatched_ignores(self, graph: Any) -> list[Violation]:
        """Ignored imports that match nothing are stale entries, reported one by one at their
        alerting level (import-linter raises on the first); the delegate checks the rest."""
        raw = self.spec.options.get("ignore_imports") or []
        entries = [raw] if isinstance(raw, str) else raw
        expressions = [(i, text, import_expression(text)) for i, text in enumerate(entries)]
        unmatched = [(i, text, (a.text, b.text)) for i, text, (a, b) in expressions if not matching_edges(graph, a, b)]
        if unmatched:
            gone = {pair for _, _, pair in unmatched}
            self.delegate.ignore_imports = {
                e for e in self.delegate.ignore_imports if (e.importer.expression, e.imported.expression) not in gone
            }
        return self.stale_ignores([(i, text) for i, text, _ in unmatched])

    def findings(self, evidence: "Evidence", graph: Any, check: Any) -> list[Violation]:
        """The violations of a broken contract; a type without its own reading of import-linter's
        result shows import-linter's report, located at the contract."""
        self.rendered = self._render(check)
        return [
            Violation(
                path=evidence.settings.display_path(evidence.settings.path),
                line=self.spec.line,
                code=self.violation_code,
                message="broken; import-linter's report follows",
            )
        ]

    def notes(self) -> tuple[str, ...]:
        """Layering's own notes, then import-linter's report where it is shown (it holds the
        guidance), else the contract's broken_contract_guidance."""
        guidance = self.spec.options.get("broken_contract_guidance")
        return self.summaries + (self.rendered or ((guidance,) if isinstance(guidance, str) and guidance.strip() else ()))

    def _render(self, check: Any) -> tuple[str, ...]:
        """import-linter's own report of the broken contract, as plain text."""
        from importlinter.application import output
        from rich.console import Console

        saved = output.console
        buffer = io.StringIO()
        output.console = Console(file=buffer, width=120, no_color=True, highlight=False)
        try:
            self.delegate.render_broken_contract(check)
        finally:
            output.console = saved
        return tuple(line.rstrip() for line in buffer.getvalue().splitlines() if line.strip())

    def cut_findings(self, evidence: "Evidence", graph: Any, pairs: "list[tuple[str, str, set[str]]]", check: Any) -> list[Violation]:
        """For each (importer package, imported package, modules left out) that import-linter
        found broken, the minimum cut between the two and its chains, found by layering (the
        same every run); import-linter decides only which pairs are broken."""
        imports = evidence.imports_of(graph)
        violations = []
        for importer, imported, left_out in pairs:
            left_out_members = {m for x in left_out for m in members(graph, x)}
            found = chains_and_cut(imports, members(graph, importer), members(graph, imported), left_out_members, evidence.listed_chains)
            if not found.cut:  # import-linter saw a route that layering cannot trace: show its report
                return self.findings(evidence, graph, check)
            group = chain_group(evidence, found, importer, imported, lambda _: self.violation_code)
            self.chain_groups.append(group)
            violations.extend(v for cut in group.cut for v in cut.statements)
        return violations

    def link_findings(self, evidence: "Evidence", links: "list[tuple[str, str]]", describe: "Callable[[str, str], str]" = lambda a, b: "") -> list[Violation]:
        """One finding per import statement of each (importer, imported) import-linter reported."""
        return [
            Violation(
                path=hop.path,
                line=hop.line,
                code=self.violation_code,
                message=f"{hop.importer} imports {hop.imported}{shown_names(hop.names)}{describe(importer, imported)}",
                importer=hop.importer,
                imported=hop.imported,
                names=hop.names,
                qualifiers=hop.qualifiers,
            )
            for importer, imported in sorted(set(links))
            for hop in evidence.statements(importer, imported)
        ]


def members(graph: Any, module: str) -> set[str]:
    """A module and its descendants in the graph (none for a squashed external package)."""
    try:
        return {module, *graph.find_descendants(module)}
    except ValueError:
        return {module}
