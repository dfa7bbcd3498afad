"""What every contract type shares: declared options, allowances, expectations, the verdict.

A contract type is one class in its own module with a docstring that lists its options and
shows a config example; it declares its options as `Option`s and implements `evaluate`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from layering.domain.allowances import (
    Allowance,
    AllowanceUse,
    record_use,
    unused,
    unused_names,
)
from layering.domain.codes import STALE_ALLOWANCE, STALE_EXPECTATION, UNEXPECTEDLY_KEPT
from layering.domain.errors import Problem, closest_module, did_you_mean, packages_among
from layering.domain.patterns import ModulePattern, is_dotted_name
from layering.domain.results import (
    ChainGroup,
    ContractResult,
    CutImport,
    ItemResult,
    StaleEntry,
    Verdict,
    Violation,
    statement_message,
)

if TYPE_CHECKING:
    from layering.adapters.grimp_graph import ImportGraph
    from layering.domain.chains import ChainsAndCut, Edge
    from layering.domain.facts import ImportFact
    from layering.domain.probes import ProbeOutcome, ProbeRequest
    from layering.engine.config import ContractSpec, Settings
    from layering.engine.evidence import Evidence
    from layering.engine.reach import ChainPair

COMMON_OPTIONS = ("id", "name", "type", "expect")

CANNOT_FAIL_HINT = (
    "no pattern of this option matches a module, so the contract cannot fail: fix or remove it"
)
CHECKS_NOTHING_HINT = "a pattern that matches no module checks nothing: fix or remove it"


class OptionError(ValueError):
    """An option's value is not what the option takes."""


class ContractInvalid(Exception):
    """The contract cannot be checked against this package (a named module is missing)."""


def _string(value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise OptionError(f"expected a non-empty string, got {value!r}")
    return value


def _text(value: Any) -> str:
    """Text that may span lines: in INI, a value over several lines is the list of its lines."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "\n".join(value)
    return _string(value)


def _boolean(value: Any) -> bool:
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    if not isinstance(value, bool):
        raise OptionError(f"expected true or false, got {value!r}")
    return value


def _seconds(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise OptionError(f"expected a positive number of seconds, got {value!r}")
    return float(value)


def _strings(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise OptionError(f"expected a list of strings, got {value!r}")
    return tuple(value)


def _pattern(value: Any) -> ModulePattern:
    try:
        return ModulePattern.parse(_string(value))
    except ValueError as error:
        raise OptionError(str(error)) from None


def _patterns(value: Any) -> tuple[ModulePattern, ...]:
    patterns = tuple(_pattern(v) for v in _strings(value))
    if not patterns:
        raise OptionError("expected at least one module")
    return patterns


def _module_names(value: Any) -> tuple[str, ...]:
    names = _strings(value)
    for name in names:
        if not is_dotted_name(name):
            raise OptionError(f"{name!r} is not a dotted module name")
    return names


def parse_allowance(value: Any, importer_required: bool) -> Allowance:
    """`"importer -> module"`, `"module"` (when the contract names its importers), or a table
    `{ importer = "...", module = "...", names = [...] }`."""
    if isinstance(value, str):
        importer_text, arrow, module_text = value.partition("->")
        if not arrow:
            importer_text, module_text = "", value
        importer_text, module_text = importer_text.strip(), module_text.strip()
        if not importer_text and importer_required:
            raise OptionError(f"{value!r}: write 'importer -> module'")
        return Allowance(
            module=_pattern(module_text),
            importer=_pattern(importer_text) if importer_text else None,
        )
    if isinstance(value, dict):
        keys = ("importer", "module", "names")
        unknown = sorted(set(value) - set(keys))
        if unknown:
            raise OptionError(
                f"unknown key {unknown[0]!r} in an allowance.{did_you_mean(unknown[0], keys)} (keys: importer, module, names)"
            )
        if "module" not in value:
            raise OptionError("an allowance table needs 'module'")
        if importer_required and "importer" not in value:
            raise OptionError("an allowance table here needs 'importer'")
        names = None
        if "names" in value:
            names = _strings(value["names"])
            if not names:
                raise OptionError("'names' must list at least one name (or leave it out)")
            for name in names:
                if not name.isidentifier() and name != "*":
                    raise OptionError(f"{name!r} is not a name")
        return Allowance(
            module=_pattern(value["module"]),
            importer=_pattern(value["importer"]) if "importer" in value else None,
            names=names,
        )
    raise OptionError(f"an allowance is a string or a table, got {value!r}")


def import_expression(value: Any) -> tuple[ModulePattern, ModulePattern]:
    if not isinstance(value, str) or "->" not in value:
        raise OptionError(f"{value!r}: an ignored import is written 'importer -> imported'")
    importer, _, imported = value.partition("->")
    try:
        return ModulePattern.parse(importer.strip()), ModulePattern.parse(imported.strip())
    except ValueError as error:
        raise OptionError(str(error)) from None


def matching_edges(
    graph: ImportGraph, importer: ModulePattern, imported: ModulePattern
) -> list[tuple[str, str]]:
    importers = [m for m in graph.modules if importer.matches(m)]
    edges = []
    for module in importers:
        for target in graph.find_modules_directly_imported_by(module):
            if imported.matches(target):
                edges.append((module, target))
    return sorted(edges)


class Option(NamedTuple):
    """A declared option: how to read it, whether it is required, its default, what it means."""

    parse: Callable[[Any], Any]
    help: str
    required: bool = False
    default: Any = None


def option(kind: str, help: str, *, required: bool = False, default: Any = None) -> Option:
    readers: dict[str, Callable[[Any], Any]] = {
        "string": _string,
        "text": _text,
        "boolean": _boolean,
        "seconds": _seconds,
        "strings": _strings,
        "pattern": _pattern,
        "patterns": _patterns,
        "modules": _module_names,
        "raw": lambda v: v,
    }
    return Option(readers[kind], help, required, default)


class Decision(NamedTuple):
    """What deciding a contract found (`Contract.evaluate`): a value, made once per decision.
    The contract keeps none of it; `Contract.result` turns it into the contract's result."""

    violations: tuple[Violation, ...]
    used: frozenset[AllowanceUse] = frozenset()
    """The allowances that excused an import, and (allowance, name) for each name a name-level
    one excused (`allowances.record_use`)."""
    chain_groups: tuple[ChainGroup, ...] = ()
    stale_entries: tuple[StaleEntry, ...] = ()
    """Entries found stale while deciding (ignored imports that match nothing)."""
    alerts: tuple[str, ...] = ()
    """What the run should say without failing, found while deciding."""
    ignored_imports: int = 0
    off_chain: frozenset[Allowance] = frozenset()
    """Allowances whose import exists but lies on no chain the contract is about."""
    notes: tuple[str, ...] = ()
    items: tuple[ItemResult, ...] = ()
    stale: tuple[Violation, ...] = ()
    """Findings of items that are stale (a module in `expect_loaded` that loads nothing now)."""


class Findings:
    """What one decision finds as it goes: made by `Contract.evaluate` for each decision and
    handed to the type's `find`, then frozen into a `Decision`. Nothing found is written onto
    the contract, so deciding a contract twice gives the same decision."""

    def __init__(self) -> None:
        self.used: set[AllowanceUse] = set()
        self.chain_groups: list[ChainGroup] = []
        self.stale_entries: list[StaleEntry] = []
        self.alerts: list[str] = []
        self.ignored_imports = 0
        self.off_chain: set[Allowance] = set()
        self.notes: tuple[str, ...] = ()
        self.items: tuple[ItemResult, ...] = ()
        self.stale: list[Violation] = []

    def decision(self, violations: list[Violation]) -> Decision:
        return Decision(
            violations=tuple(violations),
            used=frozenset(self.used),
            chain_groups=tuple(self.chain_groups),
            stale_entries=tuple(self.stale_entries),
            alerts=tuple(self.alerts),
            ignored_imports=self.ignored_imports,
            off_chain=frozenset(self.off_chain),
            notes=self.notes,
            items=self.items,
            stale=tuple(self.stale),
        )


class Contract:
    """Base class of every contract type.

    Subclasses set `type_name`, declare `options`, and implement `find`, which returns the
    violations found and records what else it finds on the decision's `Findings`; the base
    class turns the `Decision` into a verdict (`result`), adds a finding for each allowance that
    excused nothing (allowances only shrink), and applies `expect = "broken"`. A contract holds
    its options and what validating them found, never what deciding it found.
    """

    type_name: ClassVar[str]
    options: ClassVar[dict[str, Option]] = {}
    allowance_needs_importer: ClassVar[bool] = True
    baseline_option: ClassVar[str] = "ignore_imports"
    """The option `layering baseline` adds a finding's excuse to."""

    def __init__(self, spec: ContractSpec, settings: Settings) -> None:
        self.spec = spec
        self.settings = settings
        self.values: dict[str, Any] = {}
        self.allowances: tuple[Allowance, ...] = ()
        self.problems: list[Problem] = []
        self.lenient: list[Problem] = []
        """What layering's own format refuses and `lint-imports` accepts (`refused_in_own_format`)."""
        self.unseen_externals: list[tuple[str, ModulePattern]] = []
        raw = spec.options
        name, contract_id = raw.get("name"), raw.get("id")
        self.name = name if isinstance(name, str) else f"{self.type_name} #{spec.index + 1}"
        self.contract_id = contract_id if isinstance(contract_id, str) else ""
        self.numbered_key = ""
        """The key of a contract without an id that shares its name with an earlier one in an
        import-linter configuration (`lint-imports` checks both): its name and its place."""
        self._read_options(raw)

    @property
    def key(self) -> str:
        """The id that `--contract` and test node ids use: the `id`, else the name."""
        return self.numbered_key or self.contract_id or self.name

    runs_code: ClassVar[bool] = False
    """Whether the contract is decided by running the project's code (a probe imports the
    modules it names, in a child process) rather than from its source: such a contract's
    requests run first, all at once (`requests`), and `judge` decides it from their outcomes."""

    @property
    def needs_graph(self) -> bool:
        """Whether checking needs the whole module graph (chains), not only some files' imports.
        A type that always does says `needs_graph = True`; one whose options decide overrides
        this."""
        return False

    def graph_reach(self, evidence: Evidence) -> tuple[set[str], set[str]] | None:
        """(starts, also) when the contract needs only what `starts` reach in the graph (and
        the imports of `also`); None when it needs the whole graph."""
        return None

    def needs_external_packages(self, evidence: Evidence) -> bool:
        """Whether the graph must hold external packages (squashed) for this contract."""
        return False

    def chain_pairs(self, evidence: Evidence, graph: ImportGraph) -> list[ChainPair] | None:
        """The chains that decide a graph contract, so that its cached verdict outlives an edit
        of imports that cannot reach them (`engine.reach`); None when it cannot say: any such
        edit then decides it again."""
        return None

    def importer_patterns(self) -> tuple[ModulePattern, ...] | None:
        """The importers the contract's ignored imports and allowances name: an edit of one's
        imports may start or stop a match, so it decides the contract again. None when an
        entry names any importer."""
        patterns = []
        for allowance in self.allowances:
            if allowance.importer is None:
                return None
            patterns.append(allowance.importer)
        return tuple(patterns)

    @property
    def reads_names(self) -> bool:
        """Whether the verdict depends on imported names, which the graph does not hold (the
        files read for them are then keyed by their content)."""
        return False

    @property
    def expects_broken(self) -> bool:
        return self.spec.options.get("expect") == "broken"

    def problem(self, option: str, message: str, hint: str = "") -> None:
        self.problems.append(
            Problem(self.settings.path, self.spec.line_of(option), message, hint=hint)
        )

    def refused_in_own_format(self, problem: Problem) -> None:
        """What layering's format refuses and `lint-imports` accepts (a contract that cannot
        fail, two contracts of one name): refused where the user chose layering's format and its
        checks; in an import-linter configuration a warning, the verdict import-linter's (it
        keeps a contract that cannot fail), so that switching from `lint-imports` changes no
        verdict."""
        if self.settings.is_importlinter:
            self.lenient.append(problem)
        else:
            self.problems.append(problem)

    def _read_options(self, raw: dict[str, Any]) -> None:
        known = set(self.options) | set(COMMON_OPTIONS)
        for key in sorted(set(raw) - known):
            self.problem(
                key,
                f"contract '{self.name}': unrecognized option '{key}'.{did_you_mean(key, known)}",
                hint=f"options of '{self.type_name}': " + ", ".join(sorted(known)),
            )
        if "expect" in raw and raw["expect"] != "broken":
            self.problem(
                "expect",
                f"contract '{self.name}': expect takes only \"broken\", got {raw['expect']!r}",
            )
        for key in ("id", "name"):
            if key in raw and (not isinstance(raw[key], str) or not raw[key].strip()):
                self.problem(
                    key, f"contract #{self.spec.index + 1}: '{key}' must be a non-empty string"
                )
        for key, declared in self.options.items():
            if key in self.values:  # read by the type itself (`ForbiddenContract._read_options`)
                continue
            if key not in raw:
                if declared.required:
                    self.problem(
                        "type",
                        f"contract '{self.name}': missing required option '{key}' ({declared.help})",
                    )
                else:
                    self.values[key] = declared.default
                continue
            try:
                self.values[key] = declared.parse(raw[key])
            except OptionError as error:
                self.problem(key, f"contract '{self.name}', option '{key}': {error}")
        if "allow" in self.options and "allow" in raw:
            self.allowances = self._read_allowances(raw["allow"])

    def _read_allowances(self, raw: Any) -> tuple[Allowance, ...]:
        """Each entry of `allow`, with the line it stands on (a single one may stand alone)."""
        if not isinstance(raw, list):
            raw = [raw]
        allowances = []
        for index, entry in enumerate(raw):
            line = self.spec.line_of_entry("allow", index)
            try:
                allowance = parse_allowance(entry, self.allowance_needs_importer)
            except OptionError as error:
                self.problems.append(
                    Problem(
                        self.settings.path,
                        line,
                        f"contract '{self.name}', option 'allow': {error}",
                    )
                )
                continue
            allowances.append(
                Allowance(allowance.module, allowance.importer, allowance.names, line, index)
            )
        return tuple(allowances)

    def validate(self, evidence: Evidence) -> None:
        """Check the options against the evidence (patterns that match nothing); add problems."""

    def excused(self, fact: ImportFact, found: Findings) -> bool:
        """Whether an allowance excuses `fact`; each one that does is marked as used."""
        excusing = [a for a in self.allowances if a.excuses(fact)]
        for allowance in excusing:
            record_use(found.used, allowance, fact)
        return bool(excusing)

    def guidance(self) -> tuple[str, ...]:
        """Text shown under a broken contract's violations: its broken_contract_guidance."""
        guidance = self.spec.options.get("broken_contract_guidance")
        return (guidance,) if isinstance(guidance, str) and guidance.strip() else ()

    def evaluate(self, evidence: Evidence, graph: ImportGraph | None = None) -> Decision:
        """Decide the contract: what it finds, as a value. `graph`, for a contract that
        `needs_graph`, is a graph of its own, which it may change (remove ignored imports)."""
        found = Findings()
        found.notes = self.guidance()
        violations = self.find(evidence, found, graph)
        return found.decision(violations)

    def find(
        self, evidence: Evidence, found: Findings, graph: ImportGraph | None
    ) -> list[Violation]:
        """The violations; each allowance that excused an import, and whatever else is found
        on the way, recorded on `found`."""
        raise NotImplementedError

    # A contract that `runs_code` is decided by these instead of `evaluate`:

    def run_in(self, interpreter: str) -> None:
        """Run the code in `interpreter` (`--python`) rather than the contract's own."""
        raise NotImplementedError(f"a {self.type_name} contract runs no code")

    def requests(self, evidence: Evidence) -> list[ProbeRequest]:
        """What must be run to decide the contract (the run runs all contracts' at once)."""
        raise NotImplementedError(f"a {self.type_name} contract runs no code")

    def judge(
        self, evidence: Evidence, outcomes: Mapping[ProbeRequest, ProbeOutcome]
    ) -> ContractResult:
        """The result, from the outcome of each of the contract's `requests`."""
        raise NotImplementedError(f"a {self.type_name} contract runs no code")

    def probed_modules(self, evidence: Evidence) -> list[str]:
        """The modules whose import is run and watched (the pytest plugin's items)."""
        raise NotImplementedError(f"a {self.type_name} contract runs no code")

    def control_modules(self, evidence: Evidence) -> list[str]:
        """The modules imported as positive controls, which must load what is forbidden."""
        raise NotImplementedError(f"a {self.type_name} contract runs no code")

    def require_matches(
        self,
        evidence: Evidence,
        option: str,
        patterns: tuple[ModulePattern, ...],
        *,
        external_ok: bool = False,
    ) -> None:
        """A pattern that matches no module checks nothing: an error. The hint says the
        contract cannot fail only where that is so: when no pattern of the option matches.

        With `external_ok`, a name outside the root packages may stand for an external package;
        one that is not installed here is still checked (nothing may import it); `warnings`
        then says so if no import read in the run names it either, in case it is misspelt.
        """
        unmatched = []
        for pattern in patterns:
            if evidence.expand(pattern):
                continue
            if external_ok and not evidence.is_internal(pattern.text):
                if not evidence.is_installed(pattern.top_level):
                    self.unseen_externals.append((option, pattern))
                continue
            unmatched.append(pattern)
        where = "the package " + ", ".join(self.settings.root_packages)
        for pattern in unmatched:
            self.problems.append(
                Problem(
                    self.settings.path,
                    self._pattern_line(option, pattern),
                    f"contract '{self.name}': '{pattern}' in '{option}' matches no module in {where}.{suggest_module(evidence, pattern)}",
                    hint=CANNOT_FAIL_HINT
                    if len(unmatched) == len(patterns)
                    else CHECKS_NOTHING_HINT,
                )
            )

    def _pattern_line(self, option: str, pattern: ModulePattern) -> int:
        """The line of the entry of `option` that is `pattern` (the option's line if unknown)."""
        raw = self.spec.options.get(option)
        entries = raw if isinstance(raw, list) else [raw]
        for index, entry in enumerate(entries):
            if isinstance(entry, str) and entry.strip() == pattern.text:
                return self.spec.line_of_entry(option, index)
        return self.spec.line_of(option)

    def warnings(self, evidence: Evidence, decision: Decision | None) -> list[str]:
        """What the run should say without failing: the contract that cannot fail which an
        import-linter configuration may hold, external names that are neither installed nor
        imported by what was read, and alerts raised while deciding."""
        where = self.settings.display_path(self.settings.path)
        return (
            [
                f"{where}:{problem.line}: {problem.message}; accepted, as lint-imports accepts it "
                "(an error in layering's own format)"
                for problem in self.lenient
            ]
            + [
                f"{where}:{self._pattern_line(option, pattern)}: contract '{self.name}': '{pattern}' is neither "
                "installed here nor imported by the modules checked (fine if intended; check the spelling)"
                for option, pattern in self.unseen_externals
                if not evidence.mentions(pattern)
            ]
            + list(decision.alerts if decision is not None else ())
        )

    def stale_ignores(self, unmatched: list[tuple[int, str]], found: Findings) -> list[Violation]:
        """Ignored imports (position, text) that match no import, by the contract's
        `unmatched_ignore_imports_alerting`: "error" (default) breaks it, "warn" says so, "none" is silent."""
        alerting = self.spec.options.get("unmatched_ignore_imports_alerting", "error")
        where = self.settings.display_path(self.settings.path)
        violations = []
        for position, text in unmatched:
            line = self.spec.line_of_entry("ignore_imports", position)
            if alerting == "warn":
                found.alerts.append(
                    f"{where}:{line}: contract '{self.name}': ignored import '{text}' matches no import (remove it)"
                )
            elif alerting == "error":
                found.stale_entries.append(StaleEntry("ignore_imports", position, text))
                violations.append(
                    Violation(
                        path=where,
                        line=line,
                        code=STALE_ALLOWANCE,
                        message=f"ignored import '{text}' matches no import: remove it",
                    )
                )
        return violations

    def result(self, decision: Decision) -> ContractResult:
        """Turn a decision into a verdict: stale allowances break; `expect = "broken"` inverts."""
        findings = sorted(set(decision.violations))
        stale_entries = list(decision.stale_entries)
        stale = []
        for allowance in unused(self.allowances, decision.used):
            stale.append(self._stale_allowance(allowance, allowance in decision.off_chain))
            stale_entries.append(StaleEntry("allow", allowance.position, allowance.describe()))
        for allowance, name in unused_names(self.allowances, decision.used):
            stale.append(self._stale_name(allowance, name))
            stale_entries.append(
                StaleEntry("allow", allowance.position, allowance.describe(), name)
            )
        return self.verdict(findings, stale + list(decision.stale), decision, stale_entries)

    def _stale_allowance(self, allowance: Allowance, off_chain: bool) -> Violation:
        return Violation(
            path=self.settings.display_path(self.settings.path),
            line=allowance.line or self.spec.line,
            code=STALE_ALLOWANCE,
            message=(
                f"allowance '{allowance.describe()}' excuses no import on a chain the contract is about (its import lies "
                "off every chain): remove it (allowances only shrink)"
                if off_chain
                else f"allowance '{allowance.describe()}' matches no import: remove it (allowances only shrink)"
            ),
        )

    def _stale_name(self, allowance: Allowance, name: str) -> Violation:
        return Violation(
            path=self.settings.display_path(self.settings.path),
            line=allowance.line or self.spec.line,
            code=STALE_ALLOWANCE,
            message=f"allowance '{allowance.describe()}': no import takes '{name}' any more: remove the name (allowances only shrink)",
        )

    def verdict(
        self,
        findings: list[Violation],
        stale: list[Violation],
        decision: Decision,
        stale_entries: list[StaleEntry],
    ) -> ContractResult:
        """The result of `findings` and `stale` ones, with what else `decision` holds."""
        stale_entries = list(stale_entries)
        if self.expects_broken:
            if findings:
                verdict = Verdict.EXPECTED_BROKEN
            else:
                verdict = Verdict.UNEXPECTEDLY_KEPT
                stale_entries.append(StaleEntry("expect", None, 'expect = "broken"'))
                findings = [
                    Violation(
                        path=self.settings.display_path(self.settings.path),
                        line=self.spec.line_of("expect"),
                        code=UNEXPECTEDLY_KEPT,
                        message='contract is kept but says expect = "broken": remove the expectation',
                    )
                ]
            if stale:
                verdict = Verdict.BROKEN
        else:
            verdict = Verdict.BROKEN if findings or stale else Verdict.KEPT
        return ContractResult(
            contract_id=self.key,
            name=self.name,
            type_name=self.type_name,
            verdict=verdict,
            violations=tuple(sorted(findings)) + tuple(stale),
            notes=decision.notes,
            source_path=self.settings.path,
            source_line=self.spec.line,
            items=decision.items,
            stale=tuple(sorted(stale_entries, key=lambda e: (e.option, e.position or 0))),
            chain_groups=decision.chain_groups,
            ignored_imports=decision.ignored_imports,
        )

    def error(self, violations: tuple[Violation, ...]) -> ContractResult:
        """A contract that could not be decided, with what stopped it: never reported as kept."""
        return ContractResult(
            contract_id=self.key,
            name=self.name,
            type_name=self.type_name,
            verdict=Verdict.ERROR,
            violations=violations,
            source_path=self.settings.path,
            source_line=self.spec.line,
        )


def suggest_module(evidence: Evidence, pattern: ModulePattern) -> str:
    """' Did you mean 'x'?' with the module of the package closest to a name that matches none;
    for a wildcard pattern, the pattern with its named part (`pkg.comands` of `pkg.comands.*`)
    put right, where that part is what names no module."""
    segments = pattern.text.split(".")
    wildcard = next((i for i, s in enumerate(segments) if "*" in s), len(segments))
    named = ".".join(segments[:wildcard])
    if not named or (pattern.has_wildcard and evidence.is_module(named)):
        return ""
    modules = evidence.modules if wildcard == len(segments) else packages_among(evidence.modules)
    close = closest_module(named, modules)
    return f" Did you mean '{close}{pattern.text[len(named) :]}'?" if close else ""


def chain_group(
    evidence: Evidence,
    found: ChainsAndCut,
    source: str,
    target: str,
    code: Callable[[Edge], str],
    facts: dict[Edge, list[ImportFact]] | None = None,
) -> ChainGroup:
    """A cut and its chains as a report shows them: one finding per import statement of each
    import of the cut, its example chain located; most-crossed imports first. Only the files of
    what is shown are read (`evidence.listed_chains` more chains are listed)."""
    facts = facts or {}
    cut = []
    for edge in found.cut:
        example = evidence.locate(found.example[edge], facts)
        statements = tuple(
            Violation(
                path=hop.path,
                line=hop.line,
                code=code(edge),
                message=statement_message(hop.importer, hop.imported, hop.names),
                importer=hop.importer,
                imported=hop.imported,
                names=hop.names,
                qualifiers=hop.qualifiers,
                chain=example,
            )
            for hop in evidence.statements(*edge, facts.get(edge))
        )
        cut.append(CutImport(edge[0], edge[1], statements, found.through[edge], example))
    cut.sort(key=lambda c: (-c.chains, c.importer, c.imported))
    listed = tuple(evidence.locate(chain, facts) for chain in found.listed)
    return ChainGroup(source, target, found.chains, tuple(cut), listed, found.shown)


def statement_violations(
    facts: list[ImportFact], code: str, suffix: Callable[[ImportFact], str] | None = None
) -> list[Violation]:
    """One finding per import statement (and module it imports) among `facts`, at the line of
    its first name, naming every one of them: `importer imports module (names)`."""
    by_statement: dict[tuple[str, int, str], list[ImportFact]] = {}
    for fact in sorted(facts):
        by_statement.setdefault((fact.path, fact.first_line, fact.imported), []).append(fact)
    violations = []
    for group in by_statement.values():
        first = group[0]
        names = tuple(sorted({f.shown_name for f in group if f.shown_name}))
        detail = suffix(first) if suffix else ""
        violations.append(
            Violation(
                path=first.path,
                line=first.line,
                code=code,
                message=statement_message(first.importer, first.imported, names, detail),
                detail=detail,
                importer=first.importer,
                imported=first.imported,
                names=names,
                qualifiers=first.qualifiers(),
            )
        )
    return violations


def require_expected_among(contract: Contract, modules: set[str], verb: str) -> None:
    """`expect_loaded` may name only modules the contract looks at (`verb`: "probed", "checked")."""
    for expected in contract.values["expect_loaded"]:
        if expected not in modules:
            contract.problem(
                "expect_loaded",
                f"contract '{contract.name}': expect_loaded names '{expected}', which is not {verb}",
                hint="list only modules that 'modules' names",
            )


def stale_expectation(contract: Contract, module: str, found: Findings) -> ItemResult:
    """A module in `expect_loaded` that loads no forbidden module any more: strict, it must go."""
    found.stale_entries.append(
        StaleEntry("expect_loaded", contract.values["expect_loaded"].index(module), module)
    )
    stale = Violation(
        path=contract.settings.display_path(contract.settings.path),
        line=contract.spec.line_of("expect_loaded"),
        code=STALE_EXPECTATION,
        message=f"{module} no longer loads a forbidden module: remove it from expect_loaded (it only shrinks)",
        importer=module,
    )
    return ItemResult(module, Verdict.UNEXPECTEDLY_KEPT, (stale,), True)
