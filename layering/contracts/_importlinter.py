"""Run one of import-linter's own contract types over the shared grimp graph.

`layers`, `independence`, `acyclic_siblings` and `protected` are import-linter's: the options
are its options, with the same names as its TOML config, and the verdict is its verdict.
`layering` only adds located option errors, `expect = "broken"`, and file:line per hop.
"""

from __future__ import annotations

import dataclasses
import io
from typing import TYPE_CHECKING, Any, ClassVar

from layering.contracts._common import COMMON_OPTIONS, STALE_ALLOWANCE, Contract, ContractInvalid, suggest_module
from layering.domain.allowances import Allowance
from layering.domain.errors import Problem, did_you_mean
from layering.domain.patterns import ModulePattern
from layering.domain.results import Hop, StaleEntry, Violation

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
    return [(index, entry) for index, entry in enumerate(value) if isinstance(entry, str) and entry.strip()]


def is_internal_expression(evidence: "Evidence", text: str) -> bool:
    """Whether a module expression names modules of the root packages (judged on the part
    before its first wildcard)."""
    parts = text.strip().split(".")
    fixed = parts[: next((i for i, part in enumerate(parts) if "*" in part), len(parts))]
    return bool(fixed) and evidence.is_internal(".".join(fixed))


def _name(value: Any) -> str:
    return getattr(value, "name", value) if not isinstance(value, str) else value


def _hop_of(item: Any) -> tuple[str, str, tuple[int, ...]] | None:
    if dataclasses.is_dataclass(item) and not isinstance(item, type):
        item = {f.name: getattr(item, f.name) for f in dataclasses.fields(item)}
    elif not isinstance(item, dict) and hasattr(item, "importer") and hasattr(item, "imported"):
        item = {"importer": item.importer, "imported": item.imported}
    if isinstance(item, dict) and "importer" in item and "imported" in item:
        lines = item.get("line_numbers") or ()
        if isinstance(lines, int):
            lines = (lines,)
        return _name(item["importer"]), _name(item["imported"]), tuple(int(n) for n in lines)
    return None


def chains_in(metadata: Any) -> list[list[tuple[str, str, tuple[int, ...]]]]:
    """Every chain of imports that import-linter's result metadata holds, whatever its shape."""
    found: list[list[tuple[str, str, tuple[int, ...]]]] = []

    def walk(node: Any) -> None:
        if isinstance(node, (list, tuple, set, frozenset)):
            items = list(node)
            hops = [_hop_of(i) for i in items]
            if items and all(h is not None for h in hops):
                if all(not isinstance(i, (list, tuple)) for i in items) and _is_chain(hops):
                    found.append(hops)  # type: ignore[arg-type]
                else:
                    found.extend([h] for h in hops)  # type: ignore[list-item]
                return
            for i in items:
                walk(i)
        elif isinstance(node, dict):
            hop = _hop_of(node)
            if hop is not None and not any(isinstance(v, (list, dict)) for k, v in node.items() if k not in ("line_numbers",)):
                found.append([hop])
                return
            for value in node.values():
                walk(value)
        elif dataclasses.is_dataclass(node) and not isinstance(node, type):
            for f in dataclasses.fields(node):
                walk(getattr(node, f.name))

    walk(metadata)
    return found


def _is_chain(hops: list) -> bool:
    return all(a[1] == b[0] for a, b in zip(hops, hops[1:]))


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
    rendered: tuple[str, ...] = ()
    delegate: Any = None
    module_options: ClassVar[tuple[str, ...]] = ()
    """Options whose module expressions must each match a module of the package."""

    def _read_options(self, raw: dict[str, Any]) -> None:
        from importlinter.domain import fields
        from importlinter.domain.contract import InvalidContractOptions

        self.ignored_imports: list[tuple[int, str]] = []
        self.unmatched_ignores: list[tuple[int, str]] = []
        self.alerting = "error"
        if "expect" in raw and raw["expect"] != "broken":
            self.problem("expect", f"contract '{self.name}': expect takes only \"broken\", got {raw['expect']!r}")
        try:
            klass = self._class()
        except ContractTypeUnavailable as unavailable:
            self.problem("type", f"contract '{self.name}': {unavailable}")
            return
        known = {name for name in dir(klass) if isinstance(getattr(klass, name), fields.Field)} | set(COMMON_OPTIONS)
        for key in sorted(set(raw) - known):
            self.problem(
                key,
                f"contract '{self.name}', option '{key}': Unrecognized option.{did_you_mean(key, known)}",
                hint=f"options of '{self.type_name}': " + ", ".join(sorted(known)),
            )
        options = {}
        for key in sorted(known & set(raw) - set(COMMON_OPTIONS)):
            value = self._as_importlinter_value(key, raw[key])
            if value is not None:
                options[key] = value
        if len(options) < len(known & set(raw) - set(COMMON_OPTIONS)):
            return
        options["name"] = self.name
        session: dict[str, Any] = {"root_packages": list(self.settings.root_packages)}
        if self.settings.include_external_packages:
            session["include_external_packages"] = "True"
        try:
            self.delegate = klass(name=self.name, session_options=session, contract_options=options)
        except InvalidContractOptions as invalid:
            for option, message in sorted(invalid.errors.items()):
                self.problem(option, f"contract '{self.name}', option '{option}': {message}")
            return
        except Exception as error:  # noqa: BLE001 - a contract type of the user's own may raise anything
            self.problem("type", f"contract '{self.name}': {type(error).__name__} from {klass.__qualname__}: {error}")
            return
        self._take_over_unmatched_ignores(options.get("ignore_imports"))
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
                            key, index,
                            f"contract '{self.name}', option '{key}': entry {index + 1} is {kind}; import-linter options take strings",
                            hint=_STRING_HINTS.get(key, f"write each entry of {key} as one string"),
                        )
                    )
                    return None
            return [str(item) for item in value]
        self.problem(key, f"contract '{self.name}', option '{key}': expected a string or a list of strings, got a table")
        return None

    def _take_over_unmatched_ignores(self, ignore_imports: Any) -> None:
        """Decide ignored imports that match nothing here, located at their own entry: the
        delegate is told to say nothing about them (import-linter would raise for the whole
        run), and `before_check` finds them before the delegate checks."""
        from importlinter.application.contract_utils import AlertLevel
        from importlinter.domain import fields

        level = getattr(self.delegate, "unmatched_ignore_imports_alerting", None)
        if not isinstance(level, AlertLevel) or ignore_imports is None:
            return
        self.alerting = level.value
        self.delegate.unmatched_ignore_imports_alerting = AlertLevel.NONE
        for index, entry in entries(ignore_imports):
            self.ignored_imports.append((index, str(fields.ImportExpressionField().parse(entry))))

    def before_check(self, graph: Any, evidence: "Evidence") -> None:
        """Look at the graph before the delegate checks it: the ignored imports that match no
        import, before any is removed."""
        if self.alerting == "none":
            return
        self.unmatched_ignores = [
            (index, expression)
            for index, expression in self.ignored_imports
            if not graph.find_matching_direct_imports(import_expression=expression)
        ]

    def stale_findings(self, used: set[Allowance]) -> list[Violation]:
        findings = super().stale_findings(used)
        if self.alerting != "error":
            return findings
        for index, expression in self.unmatched_ignores:
            self.stale_entries.append(StaleEntry("ignore_imports", index, expression))
            findings.append(
                Violation(
                    path=self.settings.display_path(self.settings.path),
                    line=self.spec.line_of_entry("ignore_imports", index),
                    code=STALE_ALLOWANCE,
                    message=f"ignored import '{expression}' matches no import: remove it",
                )
            )
        return findings

    def warnings(self, evidence: "Evidence") -> list[str]:
        found = super().warnings(evidence)
        if self.alerting == "warn":
            where = self.settings.display_path(self.settings.path)
            found += [
                f"{where}:{self.spec.line_of_entry('ignore_imports', index)}: contract '{self.name}': "
                f"No matches for ignored import {expression}."
                for index, expression in self.unmatched_ignores
            ]
        return found

    def check_can_fail(self, options: dict[str, Any]) -> None:
        """Add a problem when the options make a contract that cannot fail (types override)."""

    def validate(self, evidence: "Evidence") -> None:
        """Each module expression of `module_options` must match a module of the package."""
        for option in self.module_options:
            for index, text in entries(self.spec.options.get(option)):
                self.require_entry_matches(evidence, option, index, text)

    def require_entry_matches(self, evidence: "Evidence", option: str, index: int, text: str, detail: str = "") -> list[str]:
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
        if not matched:
            self.problems.append(
                self.entry_problem(
                    option, index,
                    f"contract '{self.name}': '{pattern}'{detail} in '{option}' matches no module in the package "
                    + ", ".join(self.settings.root_packages) + "." + suggest_module(evidence, pattern),
                    hint="a pattern that matches nothing makes a contract that cannot fail: fix or remove it",
                )
            )
        return matched

    def entry_problem(self, option: str, index: int, message: str, hint: str = "") -> Problem:
        """A problem located at entry `index` of list option `option`."""
        return Problem(self.settings.path, self.spec.line_of_entry(option, index), message, hint=hint)

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
                f"the installed import-linter ({__version__}) has no '{self.type_name}' contract type; "
                "upgrade import-linter to check it"
            ) from None

    def evaluate(self, evidence: "Evidence", used: set[Allowance]) -> list[Violation]:
        graph = evidence.graph_copy()
        self.before_check(graph, evidence)
        try:
            check = self.delegate.check(graph, verbose=False)
        except ValueError as error:  # import-linter's word for options that do not fit the graph
            raise ContractInvalid(str(error)) from None
        if check.kept:
            return []
        violations = [self._violation(evidence, chain) for chain in chains_in(check.metadata)]
        if not violations:
            # A result whose metadata holds no chain: show import-linter's own words for it.
            self.rendered = self._render(check)
            violations = [
                Violation(
                    path=evidence.settings.display_path(evidence.settings.path),
                    line=self.spec.line,
                    code=self.violation_code,
                    message=self.rendered[0] if self.rendered else "broken (see import-linter's report)",
                )
            ]
        return violations

    def notes(self) -> tuple[str, ...]:
        return self.rendered

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

    def _violation(self, evidence: "Evidence", chain: list[tuple[str, str, tuple[int, ...]]]) -> Violation:
        hops = []
        for importer, imported, lines in chain:
            facts = evidence.facts_between(importer, imported)
            names = tuple(sorted({f.name for f in facts if f.name}))
            line = facts[0].line if facts else (min(lines) if lines else 0)
            hops.append(Hop(importer, imported, evidence.display_path(importer), line, names,
                            facts[0].qualifiers() if facts else ()))
        first, last = hops[0], hops[-1]
        through = f" through {len(hops)} imports" if len(hops) > 1 else ""
        return Violation(
            path=first.path,
            line=first.line,
            code=self.violation_code,
            message=f"{first.importer} imports {last.imported}{through}",
            importer=first.importer,
            imported=last.imported,
            names=first.names if len(hops) == 1 else (),
            chain=tuple(hops),
        )
