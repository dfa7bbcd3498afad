"""What every contract type shares: declared options, allowances, expectations, the verdict.

A contract type is one class in its own module with a docstring that lists its options and
shows a config example; it declares its options as `Option`s and implements `evaluate`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from layering.domain.allowances import (
    Allowance,
    AllowanceIndex,
    AllowanceUse,
    record_use,
    unused,
    unused_names,
)
from layering.domain.chains import ChainGraph, Question, chains_and_cut, contract_cut
from layering.domain.codes import STALE_ALLOWANCE, STALE_EXPECTATION, UNEXPECTEDLY_KEPT
from layering.domain.errors import Problem, closest_module, did_you_mean, packages_among
from layering.domain.import_scope import COUNT, SCOPE_OPTIONS, SCOPE_VALUES, ImportScope
from layering.domain.known_chains import KnownChain, groups_of, parse_known_chain, unknown_pairs
from layering.domain.patterns import (
    ModulePattern,
    PatternIndex,
    expand_each,
    index_patterns,
    is_dotted_name,
    is_within,
)
from layering.domain.results import (
    ChainGroup,
    ContractResult,
    CutImport,
    Hop,
    ItemResult,
    Severity,
    StaleEntry,
    Verdict,
    Violation,
    statement_message,
)

if TYPE_CHECKING:
    from layering.adapters.grimp_graph import ImportGraph
    from layering.domain.chains import Chain, ChainsAndCut, Edge
    from layering.domain.facts import ImportFact
    from layering.domain.module_classes import ModuleClasses
    from layering.domain.probes import ProbeOutcome, ProbeRequest
    from layering.engine.config import ContractSpec, Settings
    from layering.engine.evidence import Evidence
    from layering.engine.reach import ChainPair

COMMON_OPTIONS = ("id", "name", "type", "expect", "severity", *SCOPE_OPTIONS)
KNOWN_CHAINS = "known_chains"
UNCHECKED = "unchecked"

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


def _pattern(value: Any, classes: ModuleClasses | None = None) -> ModulePattern:
    """A module pattern; with `classes`, a class of modules (`<stdlib>`) too."""
    try:
        return ModulePattern.parse(_string(value), classes)
    except ValueError as error:
        raise OptionError(str(error)) from None


def _patterns(value: Any, classes: ModuleClasses | None = None) -> tuple[ModulePattern, ...]:
    patterns = tuple(_pattern(v, classes) for v in _strings(value))
    if not patterns:
        raise OptionError("expected at least one module")
    return patterns


def _module_names(value: Any) -> tuple[str, ...]:
    names = _strings(value)
    for name in names:
        if not is_dotted_name(name):
            raise OptionError(f"{name!r} is not a dotted module name")
    return names


def parse_allowance(
    value: Any, importer_required: bool, classes: ModuleClasses | None = None
) -> Allowance:
    """`"importer -> module"`, `"module"` (when the contract names its importers), or a table
    `{ importer = "...", module = "...", names = [...] }`; either side may be a class of
    modules (`<stdlib>`) where `classes` says what is in them."""
    if isinstance(value, str):
        importer_text, arrow, module_text = value.partition("->")
        if not arrow:
            importer_text, module_text = "", value
        importer_text, module_text = importer_text.strip(), module_text.strip()
        if not importer_text and importer_required:
            raise OptionError(f"{value!r}: write 'importer -> module'")
        return Allowance(
            module=_pattern(module_text, classes),
            importer=_pattern(importer_text, classes) if importer_text else None,
        )
    if isinstance(value, dict):
        keys = ("importer", "module", "names")
        unknown = sorted(set(value) - set(keys))
        if unknown:
            raise OptionError(
                f"unknown key {unknown[0]!r} in an allowance.{did_you_mean(unknown[0], keys)} "
                "(keys: importer, module, names)"
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
            module=_pattern(value["module"], classes),
            importer=_pattern(value["importer"], classes) if "importer" in value else None,
            names=names,
        )
    raise OptionError(f"an allowance is a string or a table, got {value!r}")


def leaving_out(settings: Settings, modules: Sequence[str]) -> tuple[str, str]:
    """What leaves `modules` out, as an error names it ('exclude', or git's ignore rules with
    `respect_gitignore`: "modules that ... leaves out"), and how to take them back."""
    if any(settings.excludes(m) for m in modules):
        return "'exclude'", "take the modules out of 'exclude'"
    return (
        "git's ignore rules ('respect_gitignore')",
        "stop git ignoring their files (or set respect_gitignore = false)",
    )


def names_external_package(pattern: ModulePattern, root_packages: Sequence[str]) -> bool:
    """Whether `pattern` is the name of a top-level package outside the root packages: the
    graph keeps such a package whole, so an entry naming it stands for its submodules too."""
    return (
        "." not in pattern.text and not pattern.has_wildcard and pattern.text not in root_packages
    )


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
    if importer.has_wildcard:
        importers = [m for m in graph.modules if importer.matches(m)]
    else:
        importers = [importer.text] if importer.text in graph.modules else []
    edges = []
    for module in importers:
        for target in graph.find_modules_directly_imported_by(module):
            if imported.matches(target):
                edges.append((module, target))
    return sorted(edges)


class Option(NamedTuple):
    """A declared option: how to read it, whether it is required, its default, what it means.
    An option that `takes_classes` is read with the run's classes of modules (`parse(value,
    classes)`), so that `<stdlib>`, `<third-party>` and `<first-party>` stand for modules."""

    parse: Callable[..., Any]
    help: str
    required: bool = False
    default: Any = None
    takes_classes: bool = False


def option(kind: str, help: str, *, required: bool = False, default: Any = None) -> Option:
    if kind == "patterns_or_classes":
        return Option(_patterns, help, required, default, takes_classes=True)
    readers: dict[str, Callable[[Any], Any]] = {
        "string": _string,
        "text": _text,
        "boolean": _boolean,
        "seconds": _seconds,
        "strings": _strings,
        "pattern": _pattern,
        "patterns": _patterns,
        "modules": _module_names,
        "expected_loads": expected_loads,
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
    known_used: frozenset[int] = frozenset()
    """The positions of the known chains that name a pair the contract's chains join."""
    expected_used: frozenset[int] = frozenset()
    """The positions of the `expect_loaded` entries that name a load seen today."""
    notes: tuple[str, ...] = ()
    items: tuple[ItemResult, ...] = ()
    stale: tuple[Violation, ...] = ()
    """Findings of items that are stale (a module in `expect_loaded` that loads nothing now)."""
    cut: tuple[Hop, ...] = ()
    """Of a contract with several groups of chains, the statements of the imports that cut
    them all together (`chains.contract_cut`)."""


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
        self.known_used: set[int] = set()
        self.expected_used: set[int] = set()
        self.notes: tuple[str, ...] = ()
        self.items: tuple[ItemResult, ...] = ()
        self.stale: list[Violation] = []
        self.counted_facts: dict[Edge, list[ImportFact]] = {}
        """The statements that count of each import of the graph that some do not (the
        contract's scope leaves the others out): what a report shows of it."""
        self.questions: list[tuple[Question, tuple[Edge, ...]]] = []
        """Each group of chains reported, as the question it answers, with its cut."""
        self.chain_graph: ChainGraph | None = None
        """The graph the questions were asked of."""
        self.uncuttable: AbstractSet[str] = frozenset()
        self.cut: tuple[Hop, ...] = ()
        """The statements of the imports that cut every group of chains together, where
        there are several groups (`chains.contract_cut`)."""

    def decision(self, violations: list[Violation]) -> Decision:
        return Decision(
            cut=self.cut,
            violations=tuple(violations),
            used=frozenset(self.used),
            chain_groups=tuple(self.chain_groups),
            stale_entries=tuple(self.stale_entries),
            alerts=tuple(self.alerts),
            ignored_imports=self.ignored_imports,
            off_chain=frozenset(self.off_chain),
            known_used=frozenset(self.known_used),
            expected_used=frozenset(self.expected_used),
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
    takes_known_chains: ClassVar[bool] = False
    """Whether the type's chains can be excused by pair (`known_chains`, what a baseline of a
    contract with chains writes in layering's own configuration)."""

    def __init__(self, spec: ContractSpec, settings: Settings) -> None:
        self.spec = spec
        self.settings = settings
        self.values: dict[str, Any] = {}
        self.allowances: tuple[Allowance, ...] = ()
        self.problems: list[Problem] = []
        self.lenient: list[Problem] = []
        """What layering's own format refuses and `lint-imports` accepts
        (`refused_in_own_format`)."""
        self.unmatched_externals: list[tuple[str, ModulePattern]] = []
        """(option, pattern) of each name outside the package that matches no module: an
        external package, which `warnings` names if it is neither installed nor imported."""
        self._entry_positions: dict[str, dict[str, int]] = {}
        raw = spec.options
        name, contract_id = raw.get("name"), raw.get("id")
        self.name = name if isinstance(name, str) else f"{self.type_name} #{spec.index + 1}"
        self.contract_id = contract_id if isinstance(contract_id, str) else ""
        self.known_chains: tuple[KnownChain, ...] = ()
        self.notices: list[str] = []
        """What reading the options found worth a warning (a deprecated form)."""
        self.severity = self._read_severity(raw)
        self.numbered_key = ""
        """The key of a contract without an id that shares its name with an earlier one in an
        import-linter configuration (`lint-imports` checks both): its name and its place."""
        self.scope = self._read_scope(raw)
        self._read_options(raw)
        if self.takes_known_chains and KNOWN_CHAINS in raw:
            self.known_chains = self._read_known_chains(raw[KNOWN_CHAINS])

    def _read_known_chains(self, raw: Any) -> tuple[KnownChain, ...]:
        """Each entry of `known_chains`, with the line it stands on."""
        known = []
        for index, entry in enumerate(raw if isinstance(raw, list) else [raw]):
            line = self.spec.line_of_entry(KNOWN_CHAINS, index)
            try:
                chain = parse_known_chain(entry)
            except ValueError as error:
                self.problems.append(
                    Problem(
                        self.settings.path,
                        line,
                        f"contract '{self.name}', option '{KNOWN_CHAINS}': {error}",
                    )
                )
                continue
            known.append(chain._replace(line=line, position=index))
        return tuple(known)

    def chain_groups_between(
        self,
        evidence: Evidence,
        found: Findings,
        chain_graph: ChainGraph,
        ends: tuple[set[str], set[str], set[str]],
        labels: tuple[str, str],
        code: Callable[[Edge], str],
        facts: dict[Edge, list[ImportFact]] | None = None,
        uncuttable: set[str] | frozenset[str] = frozenset(),
    ) -> list[ChainGroup]:
        """The groups of chains the contract reports from `ends` (sources, targets, modules
        left out), labelled `labels` when a group is all of them, each with its cut and its
        findings (the statements of `facts`, else those that count in the contract's scope; no
        import of an `uncuttable` module is cut where another cut exists); recorded on `found`.
        None found: no chain joins them (or, with known chains, none that
        no known chain names)."""
        sources, targets, excluded = ends
        groups = []
        for starts, finishes, left_out, pairs in self._chains_to_report(
            evidence, chain_graph.imports, sources, targets, excluded, found
        ):
            chains = chains_and_cut(
                chain_graph, starts, finishes, left_out, evidence.listed_chains, uncuttable
            )
            if not chains.cut:
                continue
            whole = starts == sources and finishes == targets
            group = chain_group(
                evidence,
                chains,
                labels[0] if whole else ", ".join(sorted(starts)),
                labels[1] if whole else ", ".join(sorted(finishes)),
                code,
                found.counted_facts if facts is None else facts,
                pairs,
                beside_known=bool(self.known_chains),
            )
            found.chain_groups.append(group)
            found.questions.append(
                (
                    Question(starts, finishes, left_out),
                    tuple((c.importer, c.imported) for c in group.cut),
                )
            )
            found.chain_graph, found.uncuttable = chain_graph, uncuttable
            groups.append(group)
        return groups

    def _chains_to_report(
        self,
        evidence: Evidence,
        imports: Mapping[str, Any],
        sources: set[str],
        targets: set[str],
        excluded: set[str],
        found: Findings,
    ) -> list[tuple[set[str], set[str], set[str], tuple[tuple[str, str], ...]]]:
        """(sources, targets, excluded, ends) for each group of chains the contract reports:
        the group as given, or with known chains, the starts and ends of the pairs they do not
        name, every other source and target excluded so that each chain listed is one of them.
        `ends` holds the pairs of the group's chains, where the run records them."""
        if not self.known_chains and not evidence.records_chain_ends:
            return [(sources, targets, excluded, ())]
        from layering.domain.chains import chain_ends

        ends = chain_ends(imports, sources, targets, excluded)
        if not self.known_chains:
            pairs = tuple(sorted((s, t) for s, ends_of in ends.items() for t in ends_of))
            return [(sources, targets, excluded, pairs)]
        groups = []
        for starts, finishes in groups_of(
            unknown_pairs(ends, self.known_chains, found.known_used)
        ):
            others = (sources - starts) | (targets - finishes)
            pairs = tuple(sorted((s, t) for s in starts for t in finishes))
            groups.append((set(starts), set(finishes), excluded | others, pairs))
        return groups

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

    def _read_severity(self, raw: dict[str, Any]) -> Severity:
        """`severity`, read for every type alike (import-linter's types too, whose own options
        are read later or not at all)."""
        value = raw.get("severity", Severity.ERROR.value)
        try:
            return Severity(value)
        except ValueError:
            self.problem(
                "severity",
                f'contract \'{self.name}\': severity takes "error" or "warn", got {value!r}',
                hint='severity = "warn" reports the contract and lets the run pass; leave it out '
                "to enforce it",
            )
            return Severity.ERROR

    takes_scope: ClassVar[bool] = True
    """Whether `type_checking`, `function_level` and `typing_only` apply: not to a contract of
    what runs (a probe, `loads`), which never counts the first two and must count the third
    (an import only annotations need still runs)."""

    def _read_scope(self, raw: dict[str, Any]) -> ImportScope:
        """`type_checking` and `function_level`: "count" (the default) or "ignore";
        `typing_only`: "count" (the default) or "allow"."""
        counted = {}
        for key in SCOPE_OPTIONS:
            if key not in raw:
                continue
            if not self.takes_scope:
                what = (
                    "which runs an import only annotations need like any other"
                    if key == "typing_only"
                    else "which never includes TYPE_CHECKING or function-level imports"
                )
                self.problem(
                    key,
                    f"contract '{self.name}': a {self.type_name} contract follows what runs when "
                    f"a module is imported, {what}",
                    hint=f"remove '{key}'",
                )
            elif raw[key] in (COUNT, SCOPE_VALUES[key]):
                counted[key] = raw[key] == COUNT
            else:
                narrower = SCOPE_VALUES[key]
                self.problem(
                    key,
                    f'contract \'{self.name}\': {key} takes "count" or "{narrower}", got '
                    f"{raw[key]!r}",
                    hint=f'{key} = "{narrower}" leaves those imports out of this contract; the '
                    'default, "count", counts them',
                )
        return ImportScope(**counted)

    @property
    def depends_on_source(self) -> bool:
        """Whether the verdict depends on more of the source than the graph holds: imported
        names, or the kind of each import statement (the files read are then keyed by their
        content)."""
        return self.reads_names or not self.scope.counts_every_import

    def graded(self, result: ContractResult) -> ContractResult:
        """`result` with the contract's severity: applied to every result however it was made
        (decided, from the cache, from probes), since it changes what the run does, not what
        the contract found."""
        return result._replace(severity=self.severity)

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
        if not self.takes_scope:
            known -= set(SCOPE_OPTIONS)
        if self.takes_known_chains:
            known.add(KNOWN_CHAINS)
        for key in sorted(set(raw) - known - set(SCOPE_OPTIONS)):
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
                        f"contract '{self.name}': missing required option '{key}' "
                        f"({declared.help})",
                    )
                else:
                    self.values[key] = declared.default
                continue
            try:
                self.values[key] = (
                    declared.parse(raw[key], self.settings.module_classes)
                    if declared.takes_classes
                    else declared.parse(raw[key])
                )
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
                allowance = parse_allowance(
                    entry, self.allowance_needs_importer, self.settings.module_classes
                )
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
                allowance._replace(
                    line=line,
                    position=index,
                    whole_package=names_external_package(
                        allowance.module, self.settings.root_packages
                    ),
                )
            )
        return tuple(allowances)

    def validate(self, evidence: Evidence) -> None:
        """Check the options against the evidence (patterns that match nothing); add problems."""

    def skips(self, fact: ImportFact, found: Findings, evidence: Evidence) -> bool:
        """Whether `fact` is no finding: an import by a module the contract does not check, of a
        kind it does not count (its scope), or excused by an allowance (marked as used)."""
        return (
            self.is_unchecked(fact.importer)
            or not self.scope.counts(fact, evidence.is_typing_only)
            or self.excused(fact, found)
        )

    def is_unchecked(self, module: str) -> bool:
        """Whether `module` is one of `unchecked` or lies in one: a hop of the contract's
        chains, never the importer of one of its findings."""
        return bool(self._unchecked.covering(module))

    @cached_property
    def _unchecked(self) -> PatternIndex[ModulePattern]:
        return index_patterns(self.values.get(UNCHECKED, ()))

    @cached_property
    def allowance_index(self) -> AllowanceIndex:
        """The allowances, found by the imports they may excuse."""
        return AllowanceIndex(self.allowances)

    def excused(self, fact: ImportFact, found: Findings) -> bool:
        """Whether an allowance excuses `fact`; each one that does is marked as used."""
        excusing = self.allowance_index.excusing(fact)
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
        if graph is not None and not self.scope.counts_every_import:
            found.counted_facts = self._leave_uncounted_out(evidence, graph)
        violations = self.find(evidence, found, graph)
        if len(found.questions) > 1 and found.chain_graph is not None:
            found.cut = tuple(
                hop
                for importer, imported in contract_cut(
                    found.chain_graph, found.questions, found.uncuttable
                )
                for hop in evidence.statements(
                    importer, imported, found.counted_facts.get((importer, imported))
                )
            )
        return found.decision(violations)

    def _leave_uncounted_out(
        self, evidence: Evidence, graph: ImportGraph
    ) -> dict[Edge, list[ImportFact]]:
        """Take out of `graph` each import of the package whose statements all lie outside
        the contract's scope; the statements that count of each import some of whose do not."""
        counted = {}
        for importer in sorted(m for m in graph.modules if evidence.is_internal(m)):
            for imported in sorted(graph.find_modules_directly_imported_by(importer)):
                facts = evidence.facts_between(importer, imported)
                kept = [f for f in facts if self.scope.counts(f, evidence.is_typing_only)]
                if not kept and facts:
                    graph.remove_import(importer=importer, imported=imported)
                elif len(kept) < len(facts):
                    counted[importer, imported] = kept
        return counted

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
        expanded = evidence.expand_each(patterns)
        unmatched = []
        for pattern in patterns:
            if expanded[pattern]:
                continue
            if external_ok and pattern.names_external_class:
                continue  # a class of external modules: whatever is imported of it counts
            if external_ok and not evidence.is_internal(pattern.text):
                self.unmatched_externals.append((option, pattern))
                continue
            unmatched.append(pattern)
        left_out_of = expand_each(unmatched, evidence.excluded)
        for pattern in [p for p in unmatched if left_out_of[p]]:
            by, remedy = leaving_out(self.settings, left_out_of[pattern])
            self.problem_at(
                option,
                pattern,
                f"contract '{self.name}': '{pattern}' in '{option}' matches only modules that "
                f"{by} leaves out",
                "a pattern that matches nothing checked makes a contract that cannot fail: "
                f"{remedy}, or take the pattern out of the contract",
            )
        unmatched = [p for p in unmatched if not left_out_of[p]]
        where = "the package " + ", ".join(self.settings.root_packages)
        for pattern in unmatched:
            self.problems.append(
                Problem(
                    self.settings.path,
                    self._pattern_line(option, pattern),
                    f"contract '{self.name}': '{pattern}' in '{option}' matches no module in "
                    f"{where}.{suggest_module(evidence, pattern)}",
                    hint=CANNOT_FAIL_HINT
                    if len(unmatched) == len(patterns)
                    else CHECKS_NOTHING_HINT,
                )
            )

    def problem_at(self, option: str, pattern: ModulePattern, message: str, hint: str) -> None:
        """A problem at the entry of `option` that is `pattern`."""
        self.problems.append(
            Problem(self.settings.path, self._pattern_line(option, pattern), message, hint=hint)
        )

    def _pattern_line(self, option: str, pattern: ModulePattern) -> int:
        """The line of the entry of `option` that is `pattern` (the option's line if unknown)."""
        if option not in self._entry_positions:
            raw = self.spec.options.get(option)
            entries = raw if isinstance(raw, list) else [raw]
            positions: dict[str, int] = {}
            for index, entry in enumerate(entries):
                if isinstance(entry, str):
                    positions.setdefault(entry.strip(), index)
            self._entry_positions[option] = positions
        position = self._entry_positions[option].get(pattern.text)
        if position is None:
            return self.spec.line_of(option)
        return self.spec.line_of_entry(option, position)

    def warnings(self, evidence: Evidence, decision: Decision | None) -> list[str]:
        """What the run should say without failing: the contract that cannot fail which an
        import-linter configuration may hold, external names that are neither installed nor
        imported by what was read, and alerts raised while deciding."""
        where = self.settings.display_path(self.settings.path)
        mentioned = evidence.mentioned([pattern for _, pattern in self.unmatched_externals])
        return (
            [
                f"{where}:{problem.line}: {problem.message}; accepted, as lint-imports accepts it "
                "(an error in layering's own format)"
                for problem in self.lenient
            ]
            + [
                f"{where}:{self._pattern_line(option, pattern)}: contract '{self.name}': "
                f"'{pattern}' is neither "
                "installed here nor imported by the modules checked (fine if intended; check the "
                "spelling)"
                for option, pattern in self.unmatched_externals
                if pattern not in mentioned and not evidence.is_installed(pattern.top_level)
            ]
            + self.notices
            + list(decision.alerts if decision is not None else ())
        )

    def stale_ignores(self, unmatched: list[tuple[int, str]], found: Findings) -> list[Violation]:
        """Ignored imports (position, text) that match no import, by the contract's
        `unmatched_ignore_imports_alerting`: "error" (default) breaks it, "warn" says so, "none" is
        silent."""
        alerting = self.spec.options.get("unmatched_ignore_imports_alerting", "error")
        where = self.settings.display_path(self.settings.path)
        violations = []
        for position, text in unmatched:
            line = self.spec.line_of_entry("ignore_imports", position)
            if alerting == "warn":
                found.alerts.append(
                    f"{where}:{line}: contract '{self.name}': ignored import '{text}' matches no "
                    "import (remove it)"
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
        for chain in self.known_chains:
            if chain.position not in decision.known_used:
                stale.append(self._stale_known_chain(chain))
                stale_entries.append(StaleEntry(KNOWN_CHAINS, chain.position, chain.describe()))
        return self.verdict(findings, stale + list(decision.stale), decision, stale_entries)

    def _stale_allowance(self, allowance: Allowance, off_chain: bool) -> Violation:
        return Violation(
            path=self.settings.display_path(self.settings.path),
            line=allowance.line or self.spec.line,
            code=STALE_ALLOWANCE,
            message=(
                f"allowance '{allowance.describe()}' excuses no import on a chain the contract is "
                "about (its import lies "
                "off every chain): remove it (allowances only shrink)"
                if off_chain
                else f"allowance '{allowance.describe()}' matches no import: remove it "
                "(allowances only shrink)"
            ),
        )

    def _stale_known_chain(self, chain: KnownChain) -> Violation:
        return Violation(
            path=self.settings.display_path(self.settings.path),
            line=chain.line or self.spec.line,
            code=STALE_ALLOWANCE,
            message=f"known chain '{chain.describe()}': no chain of the contract joins these "
            "modules any more: remove it (known chains only shrink)",
        )

    def _stale_name(self, allowance: Allowance, name: str) -> Violation:
        return Violation(
            path=self.settings.display_path(self.settings.path),
            line=allowance.line or self.spec.line,
            code=STALE_ALLOWANCE,
            message=f"allowance '{allowance.describe()}': no import takes '{name}' any more: "
            "remove the name (allowances only shrink)",
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
                        message='contract is kept but says expect = "broken": remove the '
                        "expectation",
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
            cut=decision.cut,
            ignored_imports=decision.ignored_imports,
            allowances_used=len({u for u in decision.used if isinstance(u, Allowance)})
            + len(decision.known_used)
            + len(decision.expected_used),
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
    ends: tuple[Edge, ...] = (),
    beside_known: bool = False,
) -> ChainGroup:
    """A cut and its chains as a report shows them, each statement read from the evidence: only
    the files of what is shown are read (`evidence.listed_chains` more chains are listed)."""
    facts = facts or {}
    return cut_group(
        found,
        (source, target),
        code,
        lambda chain: evidence.locate(chain, facts),
        lambda edge: evidence.statements(*edge, facts.get(edge)),
        ends,
        beside_known,
    )


def cut_group(
    found: ChainsAndCut,
    labels: tuple[str, str],
    code: Callable[[Edge], str],
    locate: Callable[[Chain], tuple[Hop, ...]],
    statements: Callable[[Edge], Sequence[Hop]],
    ends: tuple[Edge, ...] = (),
    beside_known: bool = False,
) -> ChainGroup:
    """A cut and its chains as a report shows them, from `labels` (source, target): one finding
    per import statement of each import of the cut (`statements`), its example chain located
    (`locate`); most-crossed imports first."""
    cut = []
    for edge in found.cut:
        example = locate(found.example[edge])
        findings = tuple(
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
            for hop in statements(edge)
        )
        cut.append(CutImport(edge[0], edge[1], findings, found.through[edge], example))
    cut.sort(key=lambda c: (-c.chains, c.importer, c.imported))
    listed = tuple(locate(chain) for chain in found.listed)
    return ChainGroup(*labels, found.chains, tuple(cut), listed, found.shown, ends, beside_known)


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


class ExpectedLoad(NamedTuple):
    """An `expect_loaded` entry: `module` is known to load `loaded` today ("M -> F"), or any
    forbidden module (a bare "M", the older and looser form)."""

    module: str
    loaded: str | None
    position: int

    @property
    def text(self) -> str:
        return self.module if self.loaded is None else f"{self.module} -> {self.loaded}"

    def excuses(self, loaded: str) -> bool:
        return self.loaded is None or is_within(loaded, self.loaded)


def expected_loads(value: Any) -> tuple[ExpectedLoad, ...]:
    """`expect_loaded`: "module -> loaded" and "module" entries, each of dotted names."""
    entries = []
    for position, text in enumerate(_strings(value)):
        module, arrow, loaded = (part.strip() for part in text.partition("->"))
        for name in (module, loaded) if arrow else (module,):
            if not is_dotted_name(name):
                raise OptionError(
                    f"{text!r}: write 'module -> forbidden module it loads' (dotted names)"
                )
        entries.append(ExpectedLoad(module, loaded if arrow else None, position))
    return tuple(entries)


def require_expected_among(contract: Contract, modules: set[str], verb: str) -> None:
    """`expect_loaded` may name only modules the contract looks at (`verb`: "probed", "checked");
    a bare module is read, with a warning saying how to narrow it."""
    where = contract.settings.display_path(contract.settings.path)
    for expected in contract.values["expect_loaded"]:
        if expected.module not in modules:
            contract.problem(
                "expect_loaded",
                f"contract '{contract.name}': expect_loaded names '{expected.module}', which is "
                f"not {verb}",
                hint="list only modules that 'modules' names",
            )
        elif expected.loaded is None:
            line = contract.spec.line_of_entry("expect_loaded", expected.position)
            contract.notices.append(
                f"{where}:{line}: contract '{contract.name}': expect_loaded entry "
                f"'{expected.module}' "
                "excuses any forbidden module it loads, tomorrow's too: narrow it to "
                f"'{expected.module} -> <forbidden module>' for each it loads today (deprecated)"
            )


def judge_expected(
    contract: Contract,
    module: str,
    loads: Sequence[Violation],
    found: Findings,
) -> ItemResult:
    """The item of a module whose import loads the forbidden modules of `loads` (each finding's
    `imported`), against `expect_loaded`: a load no entry names breaks the contract; an entry
    that names no load is stale (entries only shrink)."""
    entries = [e for e in contract.values["expect_loaded"] if e.module == module]
    unexcused = tuple(v for v in loads if not any(e.excuses(v.imported) for e in entries))
    stale = [e for e in entries if not any(e.excuses(v.imported) for v in loads)]
    found.expected_used.update(e.position for e in entries if e not in stale)
    if unexcused:
        return ItemResult(module, Verdict.BROKEN, unexcused, bool(entries))
    if stale:
        where = contract.settings.display_path(contract.settings.path)
        violations = []
        for entry in stale:
            found.stale_entries.append(StaleEntry("expect_loaded", entry.position, entry.text))
            what = (
                "a forbidden module: remove it"
                if entry.loaded is None
                else f"{entry.loaded}: remove '{entry.text}'"
            )
            violations.append(
                Violation(
                    path=where,
                    line=contract.spec.line_of_entry("expect_loaded", entry.position),
                    code=STALE_EXPECTATION,
                    message=f"{module} no longer loads {what} from expect_loaded"
                    " (it only shrinks)",
                    importer=module,
                )
            )
        return ItemResult(module, Verdict.UNEXPECTEDLY_KEPT, tuple(violations), True)
    if loads:
        return ItemResult(module, Verdict.EXPECTED_BROKEN, tuple(loads), True)
    return ItemResult(module, Verdict.KEPT, (), False)
