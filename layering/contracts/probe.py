"""`probe`: importing a module in a fresh interpreter must not load a forbidden module."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from layering.contracts._common import Contract, OptionError, option
from layering.domain.allowances import Allowance
from layering.domain.patterns import ModulePattern, is_dotted_name, is_within
from layering.domain.probes import ProbeOutcome, ProbeOutcomeKind, ProbeRequest
from layering.domain.results import ContractResult, Hop, ItemResult, StaleEntry, Verdict, Violation

if TYPE_CHECKING:
    from layering.engine.evidence import Evidence

LOADED = "LY020"
IMPORT_FAILED = "LY021"
TIMED_OUT = "LY022"
CRASHED = "LY023"
CANNOT_FAIL = "LY024"
STALE_EXPECTATION = "LY032"

_ERROR_CODES = {
    ProbeOutcomeKind.IMPORT_FAILED: (IMPORT_FAILED, "importing {module} failed"),
    ProbeOutcomeKind.TIMED_OUT: (TIMED_OUT, "importing {module} timed out"),
    ProbeOutcomeKind.CRASHED: (CRASHED, "importing {module} crashed the interpreter"),
}


def _stub_names(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and is_dotted_name(v) for v in value):
        raise OptionError(f"expected a list of dotted module names, got {value!r}")
    return tuple(value)


class ProbeContract(Contract):
    """Each of `modules`, imported alone in a fresh interpreter, loads none of `forbidden`.

    Static analysis cannot see what runs at import time (a parent package's `__init__`,
    `importlib.import_module`, plugin registries); this imports the module for real and
    looks at `sys.modules`, reporting the chain of import statements behind each load.

    Options:
        modules:       modules to import, one fresh interpreter each (patterns allowed).
        forbidden:     modules that must not be loaded (patterns; external packages too).
        stub:          names importable as inert placeholders in the child (heavy or absent
                       dependencies such as torch); a stubbed name is never reported loaded.
        expect_loaded: modules known to load a forbidden one today (strict: once they no
                       longer do, remove them; they only shrink).
        timeout:       seconds per probe (default 60).

    Example:
        [[contracts]]
        name = "The disaggregated server never loads the Responses implementation"
        type = "probe"
        modules = ["tensorrt_llm.serve.openai_disagg_service"]
        forbidden = ["tensorrt_llm.serve.responses_utils"]
        stub = ["torch", "fastapi"]

    A positive control runs with every check: a probe that imports each forbidden module
    itself must see it loaded, or the contract cannot fail and is an error.
    """

    type_name = "probe"
    options = {
        "modules": option("patterns", "modules to import", required=True),
        "forbidden": option("patterns", "modules that must not load", required=True),
        "stub": option("raw", "placeholder modules", default=[]),
        "expect_loaded": option("modules", "modules known to load a forbidden one", default=()),
        "timeout": option("seconds", "seconds per probe", default=60.0),
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        try:
            self.stubs = _stub_names(self.values.get("stub") or [])
        except OptionError as error:
            self.stubs = ()
            self.problem("stub", f"contract '{self.name}', option 'stub': {error}")

    def validate(self, evidence: "Evidence") -> None:
        self.require_matches(evidence, "modules", self.values["modules"], external_ok=True)
        self.require_matches(evidence, "forbidden", self.values["forbidden"], external_ok=True)
        for pattern in self.values["forbidden"]:
            for stub in self.stubs:
                if pattern.covers(stub) or ModulePattern(stub).covers(pattern.text.replace("*", "x")):
                    self.problem(
                        "stub",
                        f"contract '{self.name}': forbidden '{pattern}' overlaps stub '{stub}': "
                        "a stubbed module is never reported loaded",
                        hint="remove the stub, or forbid a module the stub does not cover",
                    )
        if not self.problems:
            modules = set(self.probed_modules(evidence))
            for expected in self.values["expect_loaded"]:
                if expected not in modules:
                    self.problem(
                        "expect_loaded",
                        f"contract '{self.name}': expect_loaded names '{expected}', which is not probed",
                        hint="list only modules that 'modules' names",
                    )

    def probed_modules(self, evidence: "Evidence") -> list[str]:
        found: set[str] = set()
        for pattern in self.values["modules"]:
            found.update(evidence.expand(pattern) or ([pattern.text] if not pattern.has_wildcard else []))
        return sorted(found)

    def control_modules(self, evidence: "Evidence") -> list[str]:
        """For each forbidden pattern, one module the positive control imports."""
        controls = []
        for pattern in self.values["forbidden"]:
            matched = evidence.expand(pattern)
            controls.append(matched[0] if matched else pattern.text)
        return controls

    def requests(self, evidence: "Evidence") -> list[ProbeRequest]:
        forbidden = tuple(p.text for p in self.values["forbidden"])
        roots = tuple(evidence.settings.source_roots)
        timeout = self.values["timeout"]
        return [
            ProbeRequest(module, forbidden, self.stubs, roots, timeout)
            for module in [*self.probed_modules(evidence), *self.control_modules(evidence)]
        ]

    def evaluate(self, evidence: "Evidence", used: set[Allowance]) -> list[Violation]:
        raise NotImplementedError("probe contracts are judged from probe outcomes")

    def judge(self, evidence: "Evidence", outcomes: dict[str, ProbeOutcome]) -> ContractResult:
        expected = set(self.values["expect_loaded"])
        items = []
        config_path = self.settings.display_path(self.settings.path)
        for module in self.probed_modules(evidence):
            outcome = outcomes[module]
            items.append(self._judge_module(evidence, outcome, module in expected, config_path))
        for module in self.control_modules(evidence):
            outcome = outcomes[module]
            if outcome.kind is ProbeOutcomeKind.LOADED:
                items.append(ItemResult(f"control:{module}", Verdict.KEPT))
            else:
                detail = f": {outcome.detail.strip().splitlines()[-1]}" if outcome.detail.strip() else ""
                items.append(
                    ItemResult(
                        f"control:{module}",
                        Verdict.ERROR,
                        (
                            Violation(
                                path=config_path,
                                line=self.spec.line_of("forbidden"),
                                code=CANNOT_FAIL,
                                message=(
                                    f"positive control: importing {module} itself was {outcome.kind.value}, "
                                    f"not loaded{detail}; this contract cannot fail"
                                ),
                            ),
                        ),
                    )
                )
        broken = [v for i in items if i.verdict is Verdict.BROKEN for v in i.violations]
        stale = [v for i in items if i.verdict is Verdict.UNEXPECTEDLY_KEPT for v in i.violations]
        if any(item.verdict is Verdict.ERROR for item in items):
            errors = [v for i in items if i.verdict is Verdict.ERROR for v in i.violations]
            return dataclasses.replace(self.error(tuple(sorted(errors + broken + stale))), items=tuple(items))
        return dataclasses.replace(self.verdict(broken, stale), items=tuple(items))

    def _judge_module(self, evidence: "Evidence", outcome: ProbeOutcome, expected: bool, config_path: str) -> ItemResult:
        module = outcome.module
        if outcome.kind in _ERROR_CODES:
            code, text = _ERROR_CODES[outcome.kind]
            detail = outcome.detail.strip()
            message = text.format(module=module) + (f":\n{detail}" if detail else "")
            path = evidence.display_path(module)
            return ItemResult(module, Verdict.ERROR, (Violation(path=path, line=1 if path else 0, code=code, message=message, importer=module),), expected)
        if outcome.kind is ProbeOutcomeKind.LOADED:
            found = tuple(self._loaded_violation(evidence, module, loaded) for loaded in outcome.loaded)
            return ItemResult(module, Verdict.EXPECTED_BROKEN if expected else Verdict.BROKEN, found, expected)
        if expected:
            position = self.values["expect_loaded"].index(module)
            self.stale_entries.append(StaleEntry("expect_loaded", position, module))
            stale = Violation(
                path=config_path,
                line=self.spec.line_of("expect_loaded"),
                code=STALE_EXPECTATION,
                message=f"{module} no longer loads a forbidden module: remove it from expect_loaded (it only shrinks)",
                importer=module,
            )
            return ItemResult(module, Verdict.UNEXPECTEDLY_KEPT, (stale,), expected)
        return ItemResult(module, Verdict.KEPT, (), expected)

    def _loaded_violation(self, evidence: "Evidence", module: str, loaded: Any) -> Violation:
        hops = tuple(
            Hop(
                importer=hop.importer or "<probe>",
                imported=hop.imported,
                path=self.settings.display_path(hop.path) if hop.path else "",
                line=hop.line,
                qualifiers=("parent package",) if hop.via_parent else (),
            )
            for hop in loaded.chain
        )
        first = next((h for h in hops if h.path), None)
        how = ""
        if hops and hops[0].importer != module and is_within(module, hops[0].importer):
            how = f" through its parent package {hops[0].importer}"
        return Violation(
            path=first.path if first else evidence.display_path(module),
            line=first.line if first else 0,
            code=LOADED,
            message=f"importing {module} loads {loaded.module}{how}",
            importer=module,
            imported=loaded.module,
            chain=hops,
        )
