"""`probe`: importing a module in a fresh interpreter must not load a forbidden module."""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from layering.contracts._common import (
    Contract,
    Decision,
    Findings,
    Option,
    OptionError,
    judge_expected,
    option,
    require_expected_among,
)
from layering.domain.codes import (
    PROBE_CANNOT_FAIL,
    PROBE_CRASHED,
    PROBE_IMPORT_FAILED,
    PROBE_LOADED,
    PROBE_SETUP_FAILED,
    PROBE_TIMED_OUT,
)
from layering.domain.errors import Problem
from layering.domain.patterns import ModulePattern, is_dotted_name, is_within
from layering.domain.probes import (
    MAX_TIMEOUT,
    LoadedBefore,
    LoadedForbidden,
    ProbeOutcome,
    ProbeOutcomeKind,
    ProbeRequest,
    ProbeSetting,
    RuntimeHop,
    is_environment_name,
    is_setup_entry,
)
from layering.domain.results import (
    ContractResult,
    Hop,
    ItemResult,
    Verdict,
    Violation,
)

if TYPE_CHECKING:
    from layering.adapters.grimp_graph import ImportGraph
    from layering.engine.evidence import Evidence

_ERROR_CODES = {
    ProbeOutcomeKind.IMPORT_FAILED: (PROBE_IMPORT_FAILED, "importing {module} failed"),
    ProbeOutcomeKind.TIMED_OUT: (PROBE_TIMED_OUT, "importing {module} timed out"),
    ProbeOutcomeKind.CRASHED: (PROBE_CRASHED, "importing {module} crashed the interpreter"),
}

_INTERPRETER_HINT = (
    "name the bin/python of the environment the project's dependencies are installed in"
)


def _importable(modules: list[str]) -> list[str]:
    """The modules of `modules` a probe can import: those with a dotted Python name."""
    return [module for module in modules if is_dotted_name(module)]


def _stub_names(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(
        isinstance(v, str) and is_dotted_name(v) for v in value
    ):
        raise OptionError(f"expected a list of dotted module names, got {value!r}")
    return tuple(value)


def _timeout(value: Any) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or not 0 < value <= MAX_TIMEOUT
    ):
        raise OptionError(
            f"expected a number of seconds above 0 and at most {MAX_TIMEOUT:g} (one hour), got "
            f"{value!r}"
        )
    return float(value)


def _interpreter(value: Any) -> str:
    if not isinstance(value, str) or not value.strip() or "\0" in value:
        raise OptionError(f"expected the path of a Python interpreter, got {value!r}")
    return value


def _environment(value: Any) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict):
        raise OptionError(
            'expected a table of variables, e.g. { DJANGO_SETTINGS_MODULE = "mysite.settings" '
            f"}}, got {value!r}"
        )
    for name, text in value.items():
        if not is_environment_name(name):
            raise OptionError(
                f"{name!r} is not an environment variable name (letters, digits and _, not "
                "starting with a digit)"
            )
        if name.upper().startswith("PYTHON"):
            raise OptionError(
                f"{name} would be ignored: probes run Python in isolated mode (-I), which ignores "
                "every PYTHON* "
                "variable; use source_roots for the import path, or python = for another "
                "interpreter"
            )
        if not isinstance(text, str) or "\0" in text:
            raise OptionError(f"the value of {name} must be a string (TOML quotes), got {text!r}")
    return tuple(sorted(value.items()))


def _setup_entries(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise OptionError(
            f'expected a list of "module:callable" or "module" entries, got {value!r}'
        )
    for entry in value:
        if not isinstance(entry, str) or not is_setup_entry(entry):
            raise OptionError(
                f'{entry!r} is not "module:callable" or "module" (e.g. "django:setup")'
            )
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
        timeout:       seconds per probe (default 60, at most 3600).
        python:        the interpreter probes run in (relative to the configuration file,
                       or a name looked up on PATH); default: the one running `layering`.
                       `layering check --python PATH` overrides it.
        env:           environment variables added to the child's clean environment.
        setup:         `module:callable` (or `module`) entries run in the child before each
                       import; what they load is never blamed on the probed module.
        optional:      forbidden modules that may be absent where the probes run: absent,
                       one counts as not loaded (its positive control has nothing to show).

    Example:
        [[contracts]]
        name = "The auth models never load the admin"
        type = "probe"
        modules = ["django.contrib.auth.models"]
        forbidden = ["django.contrib.admin"]
        python = ".venv/bin/python"
        env = { DJANGO_SETTINGS_MODULE = "mysite.settings" }
        setup = ["django:setup"]

    A positive control runs with every check: a probe that imports each forbidden module
    itself must see it loaded, or the contract cannot fail and is an error. So is a forbidden
    module already loaded before the probed import (at interpreter start, or by `setup`).
    """

    type_name = "probe"
    takes_scope = False
    runs_code = True
    baseline_option = "expect_loaded"
    options = {
        "modules": option("patterns", "modules to import", required=True),
        "forbidden": option("patterns", "modules that must not load", required=True),
        "stub": option("raw", "placeholder modules", default=[]),
        "expect_loaded": option(
            "expected_loads", "modules known to load a forbidden one", default=()
        ),
        "timeout": Option(_timeout, "seconds per probe", default=60.0),
        "python": Option(_interpreter, "the interpreter probes run in", default=None),
        "env": Option(_environment, "environment variables of the child", default=()),
        "setup": Option(_setup_entries, "callables run before each import", default=()),
        "optional": option("patterns", "forbidden modules that may be absent", default=()),
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.interpreter = ""
        self.interpreter_override = ""
        try:
            self.stubs = _stub_names(self.values.get("stub") or [])
        except OptionError as error:
            self.stubs = ()
            self.problem("stub", f"contract '{self.name}', option 'stub': {error}")

    def run_in(self, interpreter: str) -> None:
        """Run the probes in `interpreter` (an absolute path, already checked), whatever `python`
        says."""
        self.interpreter_override = interpreter
        self.interpreter = interpreter

    def validate(self, evidence: Evidence) -> None:
        self.require_matches(evidence, "modules", self.values["modules"], external_ok=True)
        self.require_matches(evidence, "forbidden", self.values["forbidden"], external_ok=True)
        for option_name in ("modules", "forbidden"):
            for pattern in self.values[option_name]:
                if (
                    pattern.has_wildcard
                    and not evidence.is_internal(pattern.text)
                    and not evidence.expand(pattern)
                ):
                    self.problem(
                        option_name,
                        f"contract '{self.name}': '{pattern}' in '{option_name}' matches no "
                        "module of the root "
                        "packages, and outside them a wildcard cannot be expanded, so no probe "
                        "can import what it names",
                        hint="name the external module itself (a forbidden package covers its "
                        "submodules)",
                    )
        for pattern in self.values["forbidden"]:
            for stub in self.stubs:
                if pattern.covers(stub) or ModulePattern(stub).covers(
                    pattern.text.replace("*", "x")
                ):
                    self.problem(
                        "stub",
                        f"contract '{self.name}': forbidden '{pattern}' overlaps stub '{stub}': "
                        "a stubbed module is never reported loaded",
                        hint="remove the stub, or forbid a module the stub does not cover",
                    )
        for pattern in self.values["optional"]:
            if not any(f.covers(pattern.text) for f in self.values["forbidden"]):
                self.problem(
                    "optional",
                    f"contract '{self.name}': optional '{pattern}' is not a forbidden module",
                    hint="list in optional only modules that 'forbidden' names",
                )
        self._require_importable_names(evidence)
        self.interpreter = self.interpreter_override or self._configured_interpreter()
        if not self.problems:
            require_expected_among(self, set(self.probed_modules(evidence)), "probed")

    def _require_importable_names(self, evidence: Evidence) -> None:
        """A probe names the module it imports to its child by a dotted Python name, and the
        runner refuses anything else before a child starts: text that is no such name
        (`os;open('x','w')`) is refused here, at its entry. So is a `modules` wildcard that
        matches a file no `import` statement can name (Django's `0001_initial.py`): leaving that
        module out would keep the contract without probing it. A forbidden wildcard's positive
        control imports only the modules it matches that have such names."""
        for option_name in ("modules", "forbidden"):
            for pattern in self.values[option_name]:
                matched = evidence.expand(pattern)
                unnamed = [module for module in matched if not is_dotted_name(module)]
                if not pattern.has_wildcard and not is_dotted_name(pattern.text):
                    message = (
                        f"'{pattern}' in '{option_name}' is not a dotted module name (Python "
                        "identifiers joined by dots)"
                    )
                    hint = (
                        "write the module's name as an import statement names it, e.g. "
                        '"package.module"'
                    )
                elif unnamed and option_name == "modules":
                    message = (
                        f"'{pattern}' in 'modules' matches {unnamed[0]}, whose name is not a "
                        "dotted Python name, so no probe can import it"
                    )
                    hint = "list the modules to probe so that no such file is among them"
                elif unnamed and len(unnamed) == len(matched):
                    message = (
                        f"'{pattern}' in 'forbidden' matches only modules whose names are not "
                        f"dotted Python names ({unnamed[0]}), so its positive control can import "
                        "none of them"
                    )
                    hint = (
                        "forbid a module with a dotted Python name, or the package that holds "
                        "these"
                    )
                else:
                    continue
                line = self._pattern_line(option_name, pattern)
                self.problems.append(
                    Problem(
                        self.settings.path, line, f"contract '{self.name}': {message}", hint=hint
                    )
                )

    def _configured_interpreter(self) -> str:
        """The checked absolute path that `python` names, or "" (the one running layering)."""
        text = self.values["python"]
        if text is None:
            return ""
        from layering.adapters.probe_runner import InterpreterUnusable, find_interpreter

        try:
            return find_interpreter(text, self.settings.base_dir)
        except InterpreterUnusable as unusable:
            self.problem(
                "python",
                f"contract '{self.name}', option 'python': '{text}' {unusable}",
                hint=_INTERPRETER_HINT,
            )
            return ""

    def warnings(self, evidence: Evidence, decision: Decision | None) -> list[str]:
        """Only what reading the options found: whether an external module exists is decided
        by the probes themselves."""
        return list(self.notices)

    def probed_modules(self, evidence: Evidence) -> list[str]:
        found: set[str] = set()
        for pattern in self.values["modules"]:
            found.update(
                evidence.expand(pattern) or ([pattern.text] if not pattern.has_wildcard else [])
            )
        return sorted(found)

    def control_modules(self, evidence: Evidence) -> list[str]:
        """For each forbidden pattern, one module the positive control imports."""
        controls = []
        for pattern in self.values["forbidden"]:
            matched = _importable(evidence.expand(pattern))
            controls.append(matched[0] if matched else pattern.text)
        return controls

    def requests(self, evidence: Evidence) -> list[ProbeRequest]:
        """One request per probed module, then one per positive control."""
        return [*self._module_requests(evidence), *self._control_requests(evidence)]

    def _request(
        self, evidence: Evidence, module: str, fallbacks: tuple[str, ...] = ()
    ) -> ProbeRequest:
        return ProbeRequest(
            module,
            tuple(p.text for p in self.values["forbidden"]),
            self.stubs,
            tuple(evidence.settings.source_roots),
            self.values["timeout"],
            self.interpreter,
            self.values["env"],
            self.values["setup"],
            fallbacks,
        )

    def _module_requests(self, evidence: Evidence) -> list[ProbeRequest]:
        return [self._request(evidence, module) for module in self.probed_modules(evidence)]

    def _control_requests(self, evidence: Evidence) -> list[ProbeRequest]:
        """A wildcard's control may import any module it matches: the first that setup did not
        load."""
        requests = []
        for pattern, module in zip(self.values["forbidden"], self.control_modules(evidence)):
            matched = _importable(evidence.expand(pattern)) if pattern.has_wildcard else []
            requests.append(
                self._request(evidence, module, tuple(m for m in matched if m != module))
            )
        return requests

    def setting(self) -> ProbeSetting:
        """What the report header shows: the interpreter (if chosen), `env` and `setup`."""
        python = self.settings.display_path(self.interpreter) if self.interpreter else ""
        return ProbeSetting(python, self.values["env"], self.values["setup"])

    def find(
        self, evidence: Evidence, found: Findings, graph: ImportGraph | None
    ) -> list[Violation]:
        raise NotImplementedError("probe contracts are judged from probe outcomes")

    def judge(
        self, evidence: Evidence, outcomes: Mapping[ProbeRequest, ProbeOutcome]
    ) -> ContractResult:
        """The verdict from the outcome of each of this contract's `requests`."""
        found = Findings()
        expected = {entry.module for entry in self.values["expect_loaded"]}
        config_path = self.settings.display_path(self.settings.path)
        mine = [outcomes[request] for request in self.requests(evidence)]
        cannot_fail = self._preloaded_violations(evidence, mine, config_path)
        items = []
        for request in self._module_requests(evidence):
            outcome = outcomes[request]
            items.append(
                self._judge_module(
                    evidence, outcome, request.module in expected, config_path, found
                )
            )
        for request in self._control_requests(evidence):
            module, outcome = request.module, outcomes[request]
            preloaded = [v for pattern, v in cannot_fail if pattern.covers(module)]
            if preloaded:
                items.append(ItemResult(f"control:{module}", Verdict.ERROR, tuple(preloaded)))
            elif outcome.kind is ProbeOutcomeKind.LOADED or self._absent_optional(module, outcome):
                items.append(ItemResult(f"control:{module}", Verdict.KEPT))
            else:
                items.append(
                    ItemResult(
                        f"control:{module}",
                        Verdict.ERROR,
                        (self._control_failure(evidence, outcome, config_path),),
                    )
                )
        broken = [v for i in items if i.verdict is Verdict.BROKEN for v in i.violations]
        stale = [v for i in items if i.verdict is Verdict.UNEXPECTEDLY_KEPT for v in i.violations]
        errors = {v for i in items if i.verdict is Verdict.ERROR for v in i.violations} | {
            v for _, v in cannot_fail
        }
        if broken and not self.expects_broken:
            # A forbidden module seen loaded breaks the contract, whatever else could not be
            # decided: a failed control beside it must not turn BROKEN into "could not decide".
            result = self.verdict(
                broken + sorted(errors), stale, found.decision([]), found.stale_entries
            )
        elif errors:
            result = self.error(tuple(sorted(errors) + sorted(broken + stale)))
        else:
            result = self.verdict(broken, stale, found.decision([]), found.stale_entries)
        return result._replace(items=tuple(items), probe_setting=self.setting())

    def _absent_optional(self, module: str, outcome: ProbeOutcome) -> bool:
        """Whether `module` is an optional forbidden module that is not installed where the
        probes run: then nothing can load it, and its control has nothing to show."""
        return (
            any(pattern.covers(module) for pattern in self.values["optional"])
            and bool(outcome.missing)
            and is_within(module, outcome.missing)
        )

    # ----------------------------------------------------------------- messages

    def _interpreter_shown(self) -> str:
        return self.settings.display_path(self.interpreter or sys.executable)

    def _missing(self, evidence: Evidence, module: str, missing: str) -> str:
        """Why importing `module` found no `missing`, and what to do about it."""
        where = f"the interpreter probes run in ({self._interpreter_shown()})"
        elsewhere = "point python = (or --python) at the project's environment"
        if evidence.is_internal(missing):
            return f"there is no module '{missing}' on the source roots, in {where}"
        if is_within(module, missing):
            return (
                f"'{missing}' is not installed in {where}: check the spelling, install it there, "
                f"or {elsewhere}"
            )
        return (
            f"'{missing}' is not installed in {where}: install it there, {elsewhere}, or add it "
            "to stub"
        )

    def _failure(self, evidence: Evidence, module: str, outcome: ProbeOutcome) -> str:
        """One line on why importing `module` (or running the setup) did not complete."""
        if outcome.missing:
            return self._missing(evidence, module, outcome.missing)
        if outcome.kind is ProbeOutcomeKind.TIMED_OUT:
            return (
                f"no result within {self.values['timeout']:g} s (raise timeout, or stub what "
                "makes it slow)"
            )
        lines = outcome.detail.strip().splitlines()
        if outcome.kind is ProbeOutcomeKind.CRASHED:
            return "the interpreter crashed" + (f": {lines[0]}" if lines else "")
        return lines[-1] if lines else "no detail"

    @staticmethod
    def _with_traceback(message: str, outcome: ProbeOutcome) -> str:
        traceback = outcome.detail.strip()
        return f"{message}\n{traceback}" if traceback.startswith("Traceback") else message

    def _setup_failure(
        self, evidence: Evidence, outcome: ProbeOutcome, config_path: str
    ) -> Violation:
        entry = outcome.failed_setup
        reason = self._failure(evidence, entry.partition(":")[0], outcome)
        return Violation(
            path=config_path,
            line=self.spec.line_of("setup"),
            code=PROBE_SETUP_FAILED,
            message=self._with_traceback(
                f"setup '{entry}' failed, so no module could be probed: {reason}", outcome
            ),
        )

    def _control_failure(
        self, evidence: Evidence, outcome: ProbeOutcome, config_path: str
    ) -> Violation:
        module = outcome.imported or outcome.module
        if outcome.kind is ProbeOutcomeKind.SETUP_FAILED:
            return self._setup_failure(evidence, outcome, config_path)
        if outcome.kind is ProbeOutcomeKind.CLEAN:
            reason = f"importing {module} leaves no {module} in sys.modules"
        else:
            reason = (
                f"importing {module} did not complete: {self._failure(evidence, module, outcome)}"
            )
        return Violation(
            path=config_path,
            line=self.spec.line_of("forbidden"),
            code=PROBE_CANNOT_FAIL,
            message=self._with_traceback(
                f"positive control: this contract cannot fail for '{module}', since {reason}",
                outcome,
            ),
        )

    def _preloaded_violations(
        self, evidence: Evidence, outcomes: Iterable[ProbeOutcome], config_path: str
    ) -> list[tuple[ModulePattern, Violation]]:
        """A located error for each forbidden pattern that only names modules loaded before the
        import.

        Such a module is in `sys.modules` before the probed import starts (the interpreter
        loads it at start, or setup does), so no probe can see it loaded: the contract
        cannot fail for it.
        """
        preloaded: dict[str, LoadedBefore] = {}
        for outcome in outcomes:
            for item in outcome.forbidden_before:
                preloaded.setdefault(item.module, item)
        found = []
        for pattern in self.values["forbidden"]:
            covered = sorted(name for name in preloaded if pattern.covers(name))
            if not covered:
                continue
            if pattern.has_wildcard and not all(
                name in preloaded for name in evidence.expand(pattern)
            ):
                continue  # other modules it names can still be loaded by a probe
            item = preloaded[covered[0]]
            what = (
                f"'{pattern}'" if item.module == pattern.text else f"'{pattern}' ({item.module})"
            )
            message = (
                f"forbidden {what} is already loaded {self._when(item)}, before any probed "
                "import, "
                "so this contract cannot fail for it: remove it from forbidden"
                + (", or use a setup that does not load it" if item.setup else "")
            )
            found.append(
                (pattern, self._loaded_before_violation(config_path, "forbidden", message, item))
            )
        return found

    def _when(self, item: LoadedBefore) -> str:
        if item.setup:
            return f"by setup '{item.setup}'"
        return f"when the interpreter starts ({self._interpreter_shown()})"

    def _loaded_before_violation(
        self, config_path: str, option_name: str, message: str, item: LoadedBefore
    ) -> Violation:
        chain = tuple(self._hop(hop) for hop in item.chain)
        return Violation(
            path=config_path,
            line=self.spec.line_of(option_name),
            code=PROBE_CANNOT_FAIL,
            message=message,
            imported=item.module,
            chain=chain,
        )

    # ----------------------------------------------------------------- probed modules

    def _judge_module(
        self,
        evidence: Evidence,
        outcome: ProbeOutcome,
        expected: bool,
        config_path: str,
        found: Findings,
    ) -> ItemResult:
        module = outcome.module
        if outcome.module_before is not None and outcome.kind is not ProbeOutcomeKind.SETUP_FAILED:
            message = (
                f"{module} is already loaded {self._when(outcome.module_before)}, before the "
                "probe imports it, "
                "so probing it cannot fail: remove it from modules"
                + (", or use a setup that does not load it" if outcome.module_before.setup else "")
            )
            return ItemResult(
                module,
                Verdict.ERROR,
                (
                    self._loaded_before_violation(
                        config_path, "modules", message, outcome.module_before
                    ),
                ),
                expected,
            )
        if outcome.kind is ProbeOutcomeKind.SETUP_FAILED:
            return ItemResult(
                module,
                Verdict.ERROR,
                (self._setup_failure(evidence, outcome, config_path),),
                expected,
            )
        if outcome.kind in _ERROR_CODES:
            code, text = _ERROR_CODES[outcome.kind]
            detail = outcome.detail.strip()
            message = text.format(module=module)
            if outcome.missing:
                message = self._with_traceback(
                    f"{message}: {self._missing(evidence, module, outcome.missing)}", outcome
                )
            elif detail:
                message += f":\n{detail}"
            path = evidence.display_path(module)
            return ItemResult(
                module,
                Verdict.ERROR,
                (
                    Violation(
                        path=path,
                        line=1 if path else 0,
                        code=code,
                        message=message,
                        importer=module,
                    ),
                ),
                expected,
            )
        if outcome.kind is ProbeOutcomeKind.LOADED:
            loads = tuple(
                self._loaded_violation(evidence, module, loaded) for loaded in outcome.loaded
            )
            return judge_expected(self, module, loads, found)
        return judge_expected(self, module, (), found)

    def _hop(self, hop: RuntimeHop) -> Hop:
        return Hop(
            importer=hop.importer or "<probe>",
            imported=hop.imported,
            path=self.settings.display_path(hop.path) if hop.path else "",
            line=hop.line,
            qualifiers=("parent package",) if hop.via_parent else (),
        )

    def _loaded_violation(
        self, evidence: Evidence, module: str, loaded: LoadedForbidden
    ) -> Violation:
        hops = tuple(self._hop(hop) for hop in loaded.chain)
        first = next((h for h in hops if h.path), None)
        how = ""
        if hops and hops[0].importer != module and is_within(module, hops[0].importer):
            how = f" through its parent package {hops[0].importer}"
        return Violation(
            path=first.path if first else evidence.display_path(module),
            line=first.line if first else 0,
            code=PROBE_LOADED,
            message=f"importing {module} loads {loaded.module}{how}",
            importer=module,
            imported=loaded.module,
            chain=hops,
        )
