"""`acyclic_siblings`, import-linter's own contract type, run over the shared graph."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from layering.contracts._common import Findings
from layering.contracts._importlinter import ImportLinterContract, entries
from layering.domain.codes import SIBLING_CYCLE
from layering.domain.errors import Problem
from layering.domain.results import Violation

if TYPE_CHECKING:
    from importlinter.domain.contract import ContractCheck

    from layering.adapters.grimp_graph import ImportGraph
    from layering.engine.evidence import Evidence


class AcyclicSiblingsContract(ImportLinterContract):
    """Acyclic siblings: no cycles between the children of a package.

    Options and verdicts are import-linter's
    (`importlinter.contracts.acyclic_siblings.AcyclicSiblingsContract`), with
    the same names as in its TOML configuration, so a team can paste its contracts in.

    Example:
        [[contracts]]
        name = "No cycles between the subpackages of myapp"
        type = "acyclic_siblings"
        ancestors = ["myapp"]
    """

    type_name = "acyclic_siblings"
    importlinter_class = "importlinter.contracts.acyclic_siblings.AcyclicSiblingsContract"
    violation_code = SIBLING_CYCLE

    def check_can_fail(self, options: dict[str, Any]) -> None:
        if not entries(options.get("ancestors")):
            self.refused_in_own_format(
                Problem(
                    self.settings.path,
                    self.spec.line_of("ancestors"),
                    f"contract '{self.name}': 'ancestors' lists no package: a contract that "
                    "cannot fail",
                )
            )

    def validate(self, evidence: Evidence) -> None:
        """Each ancestor has children: without, none can import another in a cycle."""
        for index, text in entries(self.spec.options.get("ancestors")):
            for module in self.require_entry_matches(evidence, "ancestors", index, text):
                if not evidence.descendants(module):
                    path = evidence.path_of(module) or ""
                    what = (
                        "has no children"
                        if os.path.basename(path) == "__init__.py"
                        else "is a module, not a package: it has no children"
                    )
                    self.refused_in_own_format(
                        self.entry_problem(
                            "ancestors",
                            index,
                            f"contract '{self.name}': '{module}' in 'ancestors' {what} whose "
                            "imports could form a cycle",
                            hint="name the package whose children must not import each other in a "
                            "cycle",
                        )
                    )

    def findings(
        self, evidence: Evidence, found: Findings, graph: ImportGraph, check: ContractCheck
    ) -> list[Violation]:
        """The imports import-linter nominates to break every cycle between siblings, statement
        by statement, each naming the two siblings it leads between; a note per package."""
        breakers = check.metadata["cycle_breakers_by_package"]
        violations = []
        notes = []
        for package in sorted(breakers):
            depth = package.count(".") + 2
            pairs = {
                (a, b): (".".join(a.split(".")[:depth]), ".".join(b.split(".")[:depth]))
                for a, b in breakers[package]
            }
            violations.extend(
                self.link_findings(
                    evidence,
                    found,
                    list(pairs),
                    lambda a, b: (
                        f": one of the imports from {pairs[a, b][0]} to {pairs[a, b][1]} that "
                        "close cycles"
                    ),
                )
            )
            notes.append(
                f"The children of {package} import each other in cycles: removing the "
                f"{len(pairs)} import(s) of it above "
                f"({len(set(pairs.values()))} dependencies between children) makes them acyclic."
            )
        found.notes = tuple(notes) + found.notes
        return violations
