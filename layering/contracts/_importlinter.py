"""Run one of import-linter's own contract types over the shared grimp graph.

`layers`, `independence`, `acyclic_siblings` and `protected` are import-linter's: the options
are its options, with the same names as its TOML config, and the verdict is its verdict.
`layering` only adds located option errors, `expect = "broken"`, and file:line per hop.
"""

from __future__ import annotations

import copy
import io
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from layering.contracts._common import (
    CHECKS_NOTHING_HINT,
    COMMON_OPTIONS,
    KNOWN_CHAINS,
    Contract,
    ContractInvalid,
    Findings,
    OptionError,
    import_expression,
    leaving_out,
    matching_edges,
    suggest_module,
)
from layering.domain.chains import ChainGraph
from layering.domain.errors import Problem, did_you_mean
from layering.domain.patterns import ModulePattern
from layering.domain.results import Violation, statement_message

if TYPE_CHECKING:
    from importlinter.domain.contract import ContractCheck

    from layering.adapters.grimp_graph import ImportGraph
    from layering.engine.evidence import Evidence


_STRING_HINTS = {
    "layers": 'write a layer of several modules as one string: "a | b" (independent) or "a : b"',
}


def entries(value: Any) -> list[tuple[int, str]]:
    """(position, text) of each entry of a list option as import-linter reads it: a string is a
    list of one, and blank entries are skipped (the position still counts them)."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return []
    return [
        (index, entry)
        for index, entry in enumerate(value)
        if isinstance(entry, str) and entry.strip()
    ]


def is_internal_expression(evidence: Evidence, text: str) -> bool:
    """Whether a module expression names modules of the root packages (judged on the part
    before its first wildcard)."""
    parts = text.strip().split(".")
    fixed = parts[: next((i for i, part in enumerate(parts) if "*" in part), len(parts))]
    return bool(fixed) and evidence.is_internal(".".join(fixed))


class ContractTypeUnavailable(Exception):
    """The class behind a contract type cannot be loaded here."""


class ImportLinterContract(Contract):
    """Base of the contract types that import-linter implements (and of the user's own
    import-linter contract types, `contract_types`).

    The options are handed to import-linter's class as import-linter's own reader would hand
    them over (strings and lists of strings), so each means what it means to `lint-imports`.
    layering adds located errors, a check that named modules exist (all at once, before
    anything runs), and ignored imports that match nothing reported as findings at their own
    line, with import-linter's alerting level.
    """

    importlinter_class: ClassVar[str]
    violation_code: ClassVar[str]
    needs_graph = True
    module_options: ClassVar[tuple[str, ...]] = ()
    """Options whose module expressions must each match a module of the package."""
    options_read_before_count: ClassVar[bool] = True
    """Whether a run may trust that these options read well before (`read_options`): only when
    their meaning is import-linter's, which the cache's key names; a plugin's is its own code."""
    _delegate: Any = None
    _unread: dict[str, Any] | None = None

    def _read_options(self, raw: dict[str, Any]) -> None:
        self._unread = raw

    @property
    def delegate(self) -> Any:
        """import-linter's contract object (None when the options could not make one)."""
        self.read_options()
        return self._delegate

    def read_options(self) -> None:
        """Read the options through import-linter's class, once, adding a located problem for
        each it rejects. Done when first needed, or when a run's configuration loads: importing
        import-linter (with grimp and rich) costs a run 170 ms, which a run whose verdicts all
        come from the cache need not pay when the same options read well before."""
        if self._unread is None:
            return
        raw, self._unread = self._unread, None
        from importlinter.domain import fields
        from importlinter.domain.contract import InvalidContractOptions

        if "expect" in raw and raw["expect"] != "broken":
            self.problem(
                "expect",
                f"contract '{self.name}': expect takes only \"broken\", got {raw['expect']!r}",
            )
        try:
            klass = self._class()
        except ContractTypeUnavailable as unavailable:
            self.problem("type", f"contract '{self.name}': {unavailable}")
            return
        layering_only = set(COMMON_OPTIONS) | (
            {KNOWN_CHAINS} if self.takes_known_chains else set()
        )
        known = {
            name for name in dir(klass) if isinstance(getattr(klass, name), fields.Field)
        } | layering_only
        for key in sorted(set(raw) - known):
            self.problem(
                key,
                f"contract '{self.name}', option '{key}': Unrecognized "
                f"option.{did_you_mean(key, known)}",
                hint=f"options of '{self.type_name}': " + ", ".join(sorted(known)),
            )
        options = {}
        for key in sorted(known & set(raw) - layering_only):
            value = self._as_importlinter_value(key, raw[key])
            if value is not None:
                options[key] = value
        if len(options) < len(known & set(raw) - layering_only):
            return
        options["name"] = self.name
        session: dict[str, Any] = {"root_packages": list(self.settings.root_packages)}
        if self.settings.include_external_packages:
            session["include_external_packages"] = "True"
        try:
            self._delegate = klass(
                name=self.name, session_options=session, contract_options=options
            )
        except InvalidContractOptions as invalid:
            for option, message in sorted(invalid.errors.items()):
                self.problem(option, f"contract '{self.name}', option '{option}': {message}")
            return
        except Exception as error:  # noqa: BLE001 - a user's type may raise anything
            self.problem(
                "type",
                f"contract '{self.name}': {type(error).__name__} from {klass.__qualname__}: "
                f"{error}",
            )
            return
        self.check_can_fail(options)

    def _as_importlinter_value(self, key: str, value: Any) -> Any:
        """`value` as import-linter's own reader hands it over: a string, or a list of strings
        (TOML booleans and numbers written as text). None, with a located problem, for a
        value import-linter cannot take (a nested list or a table)."""
        if isinstance(value, bool):
            return str(value)
        if isinstance(value, (int, float, str)):
            return str(value)
        if isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, (list, dict)):
                    kind = "a list" if isinstance(item, list) else "a table"
                    self.problems.append(
                        self.entry_problem(
                            key,
                            index,
                            f"contract '{self.name}', option '{key}': entry {index + 1} is "
                            f"{kind}; import-linter options take strings",
                            hint=_STRING_HINTS.get(
                                key, f"write each entry of {key} as one string"
                            ),
                        )
                    )
                    return None
            return [str(item) for item in value]
        self.problem(
            key,
            f"contract '{self.name}', option '{key}': expected a string or a list of strings, got "
            "a table",
        )
        return None

    def importer_patterns(self) -> tuple[ModulePattern, ...] | None:
        """The importers of `ignore_imports` (import-linter's own types have no `allow`)."""
        raw = self.spec.options.get("ignore_imports") or []
        patterns = []
        for text in [raw] if isinstance(raw, str) else raw:
            try:
                patterns.append(import_expression(text)[0])
            except OptionError:
                return None
        return tuple(patterns)

    def before_check(self, graph: ImportGraph, evidence: Evidence) -> None:
        """Prepare the graph the delegate is about to check (types override)."""

    def check_can_fail(self, options: dict[str, Any]) -> None:
        """Add a problem when the options make a contract that cannot fail (types override)."""

    def validate(self, evidence: Evidence) -> None:
        """Each module expression of `module_options` must match a module of the package."""
        for option in self.module_options:
            for index, text in entries(self.spec.options.get(option)):
                self.require_entry_matches(evidence, option, index, text)

    def require_entry_matches(
        self, evidence: Evidence, option: str, index: int, text: str, detail: str = ""
    ) -> list[str]:
        """The modules entry `index` of `option` matches; a located problem when none.

        Names outside the root packages are left to import-linter (external packages, when
        the graph holds them), and so is text that is no module pattern of layering's.
        """
        try:
            pattern = ModulePattern.parse(text.strip())
        except ValueError:
            return []
        if not is_internal_expression(evidence, pattern.text):
            return []
        matched = evidence.expand(pattern)
        left_out = [] if matched else pattern.expand(evidence.excluded)
        if left_out:
            by, remedy = leaving_out(self.settings, left_out)
            self.problems.append(
                self.entry_problem(
                    option,
                    index,
                    f"contract '{self.name}': '{pattern}'{detail} in '{option}' matches only "
                    f"modules that {by} leaves out",
                    hint=f"{remedy}, or take the pattern out of the contract",
                )
            )
        elif not matched:
            self.problems.append(
                self.entry_problem(
                    option,
                    index,
                    f"contract '{self.name}': '{pattern}'{detail} in '{option}' matches no module "
                    "in the package "
                    + ", ".join(self.settings.root_packages)
                    + "."
                    + suggest_module(evidence, pattern),
                    hint=CHECKS_NOTHING_HINT,
                )
            )
        return matched

    def entry_problem(self, option: str, index: int, message: str, hint: str = "") -> Problem:
        """A problem located at entry `index` of list option `option`."""
        return Problem(
            self.settings.path, self.spec.line_of_entry(option, index), message, hint=hint
        )

    def _class(self) -> Any:
        import importlib

        from importlinter import configuration

        configuration.configure()
        module_name, _, class_name = self.importlinter_class.rpartition(".")
        try:
            return getattr(importlib.import_module(module_name), class_name)
        except (ImportError, AttributeError):
            from importlinter import __version__

            raise ContractTypeUnavailable(
                f"the installed import-linter ({__version__}) has no '{self.type_name}' contract "
                "type; "
                "upgrade import-linter to check it"
            ) from None

    def find(
        self, evidence: Evidence, found: Findings, graph: ImportGraph | None
    ) -> list[Violation]:
        assert graph is not None, "a contract that needs_graph is handed a graph"
        delegate, stale = self._without_unmatched_ignores(graph, found)
        self.before_check(graph, evidence)
        try:
            check = delegate.check(graph, verbose=False)
        except ValueError as error:  # import-linter's word for options that do not fit the graph
            raise ContractInvalid(str(error)) from None
        found.ignored_imports = getattr(check, "ignored_import_count", 0)
        where = (
            f"{self.settings.display_path(self.settings.path)}:{self.spec.line}: contract "
            f"'{self.name}'"
        )
        found.alerts.extend(f"{where}: {warning}" for warning in check.warnings)
        if check.kept:
            return stale
        return stale + self.findings(evidence, found, graph, check)

    def _without_unmatched_ignores(
        self, graph: ImportGraph, found: Findings
    ) -> tuple[Any, list[Violation]]:
        """import-linter's contract for this decision, without the ignored imports that match
        nothing in `graph`, and those as stale entries, reported one by one at their alerting
        level (import-linter raises on the first)."""
        raw = self.spec.options.get("ignore_imports") or []
        entries = [raw] if isinstance(raw, str) else raw
        expressions = [(i, text, import_expression(text)) for i, text in enumerate(entries)]
        unmatched = [
            (i, text, (a.text, b.text))
            for i, text, (a, b) in expressions
            if not matching_edges(graph, a, b)
        ]
        delegate = self.delegate
        if unmatched:
            gone = {pair for _, _, pair in unmatched}
            delegate = copy.copy(delegate)  # the contract's own is read once, for every decision
            delegate.ignore_imports = {
                e
                for e in delegate.ignore_imports
                if (e.importer.expression, e.imported.expression) not in gone
            }
        return delegate, self.stale_ignores([(i, text) for i, text, _ in unmatched], found)

    def findings(
        self, evidence: Evidence, found: Findings, graph: ImportGraph, check: ContractCheck
    ) -> list[Violation]:
        """The violations of a broken contract; a type without its own reading of import-linter's
        result shows import-linter's report (in place of the guidance, which it holds), located
        at the contract."""
        found.notes = self._render(check)
        return [
            Violation(
                path=evidence.settings.display_path(evidence.settings.path),
                line=self.spec.line,
                code=self.violation_code,
                message="broken; import-linter's report follows",
            )
        ]

    def _render(self, check: ContractCheck) -> tuple[str, ...]:
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

    def cut_findings(
        self,
        evidence: Evidence,
        found: Findings,
        graph: ImportGraph,
        pairs: list[tuple[str, str, set[str]]],
        check: ContractCheck,
    ) -> list[Violation]:
        """For each (importer package, imported package, modules left out) that import-linter
        found broken, the minimum cut between the two and its chains, found by layering (the
        same every run); import-linter decides only which pairs are broken."""
        chain_graph = ChainGraph(evidence.imports_of(graph))
        violations: list[Violation] = []
        for importer, imported, left_out in pairs:
            left_out_members = {m for x in left_out for m in members(graph, x)}
            sources, targets = members(graph, importer), members(graph, imported)
            groups = self.chain_groups_between(
                evidence,
                found,
                chain_graph,
                (sources, targets, left_out_members),
                (importer, imported),
                lambda _: self.violation_code,
            )
            if not groups and not self.known_chains:
                # import-linter saw a route that layering cannot trace: show its report
                return ImportLinterContract.findings(self, evidence, found, graph, check)
            violations.extend(v for group in groups for cut in group.cut for v in cut.statements)
        return violations

    def link_findings(
        self,
        evidence: Evidence,
        found: Findings,
        links: list[tuple[str, str]],
        describe: Callable[[str, str], str] = lambda a, b: "",
    ) -> list[Violation]:
        """One finding per import statement of each (importer, imported) import-linter reported
        (those that count, where the contract's scope leaves some out)."""
        return [
            Violation(
                path=hop.path,
                line=hop.line,
                code=self.violation_code,
                message=statement_message(
                    hop.importer, hop.imported, hop.names, describe(importer, imported)
                ),
                importer=hop.importer,
                imported=hop.imported,
                names=hop.names,
                qualifiers=hop.qualifiers,
                detail=describe(importer, imported),
            )
            for importer, imported in sorted(set(links))
            for hop in evidence.statements(
                importer, imported, found.counted_facts.get((importer, imported))
            )
        ]


def members(graph: ImportGraph, module: str) -> set[str]:
    """A module and its descendants in the graph (none for a squashed external package)."""
    try:
        return {module, *graph.find_descendants(module)}
    except ValueError:
        return {module}
