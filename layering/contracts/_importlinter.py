"""Run one of import-linter's own contract types over the shared grimp graph.

`layers`, `independence`, `acyclic_siblings` and `protected` are import-linter's: the options
are its options, with the same names as its TOML config, and the verdict is its verdict.
`layering` only adds located option errors, `expect = "broken"`, and file:line per hop.
"""

from __future__ import annotations

import dataclasses
import io
from typing import TYPE_CHECKING, Any, ClassVar

from layering.contracts._common import COMMON_OPTIONS, Contract, ContractInvalid
from layering.domain.errors import did_you_mean
from layering.domain.allowances import Allowance
from layering.domain.results import Hop, Violation

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


class ImportLinterContract(Contract):
    """Base of the contract types that import-linter implements."""

    importlinter_class: ClassVar[str]
    violation_code: ClassVar[str]
    needs_graph = True
    rendered: tuple[str, ...] = ()

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
        try:
            check = self.delegate.check(evidence.graph_copy(), verbose=False)
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
