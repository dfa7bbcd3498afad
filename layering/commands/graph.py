"""`layering graph`: the import graph of a package at a depth, drawn from the graph the
contracts see, with the imports of broken contracts marked on it; or, with `--contract`, the
declared stack of a `layers` contract with the imports that break it.

The graph is grimp's, built through the engine with the configuration's root packages, source
roots and `exclude_type_checking_imports`; the contracts are decided by `check` (static ones
only), and each import a broken contract reports marks the squashed edge that carries it.
"""

from __future__ import annotations

from dataclasses import dataclass

from layering.commands.check import ProbeSelection, check_settings
from layering.contracts import CONTRACT_TYPES, contract_class
from layering.contracts._importlinter import entries
from layering.contracts.layers import layer_modules
from layering.domain.errors import (
    ConfigError,
    Problem,
    SourceUnreadable,
    UsageError,
    closest_module,
    did_you_mean,
)
from layering.domain.layer_stack import LayerStack, placed, stack_groups
from layering.domain.loads import PARENT_PACKAGE
from layering.domain.package_graph import PackageGraph, Pair, components, squash
from layering.domain.patterns import ModulePattern, is_within
from layering.domain.results import Hop, RunReport, Verdict
from layering.engine.config import ContractSpec, Settings
from layering.engine.evidence import Evidence
from layering.engine.plan import RunPlan


@dataclass(frozen=True)
class GraphRun:
    """The graph drawn, and the contracts' report when they were checked."""

    graph: PackageGraph
    report: RunReport | None
    warnings: tuple[str, ...] = ()
    """What reading the package for the drawing had to say, and the check's warnings."""

    @property
    def exit_code(self) -> int:
        return self.report.exit_code if self.report is not None else 0


def draw_graph(
    settings: Settings,
    package: str | None,
    depth: int | None,
    contracts: bool = True,
    use_cache: bool = True,
) -> GraphRun:
    """The graph of `package` (default: the root packages) at `depth` (default: one level
    below it), marked with the broken static contracts unless `contracts` is False."""
    if settings.problems:
        raise ConfigError(list(settings.problems))
    # External packages are in the graph, shown only where configured or a broken import reaches
    # one.
    evidence = Evidence(settings, RunPlan(keeps_cache=use_cache, draws_graph=True))
    drawn = _drawn_packages(settings, evidence, package)
    depth = _depth(settings, drawn, depth)
    report = None
    if contracts:
        report, checked = _check(settings, use_cache)
        evidence = checked or evidence
    try:
        imports = Evidence.imports_of(evidence.graph)
    except SourceUnreadable as unreadable:
        raise ConfigError(
            Problem(
                unreadable.path,
                unreadable.line,
                unreadable.reason,
                hint="fix the file to draw its graph",
            )
        ) from None
    broken = _broken_imports(report, evidence) if report is not None else {}
    internal = [m for m in imports if any(is_within(m, p) for p in drawn)]
    if settings.include_external_packages:
        external = {m for m in imports if not evidence.is_internal(m)}
    else:
        drawn_importers = set(internal)
        external = {
            b
            for (a, b) in broken
            if a in drawn_importers and b in imports and not evidence.is_internal(b)
        }
    nodes, edges, undrawn = squash(imports, internal, external, depth, broken)
    broken_contracts = (
        tuple(r.contract_id for r in report.results if r.verdict is Verdict.BROKEN)
        if report
        else ()
    )
    graph = PackageGraph(
        package, settings.root_packages, depth, nodes, edges, broken_contracts, undrawn
    )
    said = tuple(evidence.warnings()) + (report.warnings if report is not None else ())
    return GraphRun(graph, report, said)


def _packages_beside(package: str, packages: set[str], roots: tuple[str, ...]) -> str:
    """What to name instead of `package`: the packages in its nearest parent that is one."""
    parent = package.rpartition(".")[0]
    while parent and parent not in packages:
        parent = parent.rpartition(".")[0]
    if not parent:
        return "Name a package of the root packages: " + ", ".join(roots)
    inside = sorted(p for p in packages if p.rpartition(".")[0] == parent)
    if not inside:
        return f"'{parent}' holds no package: name '{parent}' itself"
    shown = ", ".join(inside[:10]) + (f" and {len(inside) - 10} more" if len(inside) > 10 else "")
    return f"The packages in '{parent}': {shown}"


def _drawn_packages(
    settings: Settings, evidence: Evidence, package: str | None
) -> tuple[str, ...]:
    """The packages whose modules are drawn: `package`, checked to be one of the root
    packages' (with the closest name as a suggestion), else the root packages."""
    roots = settings.root_packages
    if package is None:
        return roots
    modules = evidence.modules
    packages = {module.rpartition(".")[0] for module in modules} - {""} | set(roots)
    if not evidence.is_internal(package):
        raise UsageError(
            "PACKAGE",
            f"'{package}' is not in the root packages "
            f"({', '.join(roots)}).{did_you_mean(package, packages)} "
            "Name a package of the root packages, or add its own to root_packages.",
        )
    if package not in packages:
        if package in modules:
            message = f"'{package}' is a module, not a package: its graph is one node."
            hint = f"Name its package, '{package.rpartition('.')[0]}'"
        else:
            close = closest_module(package, packages)
            message = f"no package '{package}' in the root packages." + (
                f" Did you mean '{close}'?" if close else ""
            )
            hint = _packages_beside(package, packages, roots)
        raise UsageError("PACKAGE", f"{message} {hint}.")
    return (package,)


def _depth(settings: Settings, drawn: tuple[str, ...], depth: int | None) -> int:
    """The depth asked, or one level below the drawn packages; it must draw one package as
    more than one node, and squash none of several into a shorter name."""
    if len(drawn) == 1:
        least = components(drawn[0]) + 1
        why = f"'{drawn[0]}' would be one node"
    else:
        least = max(components(p) for p in drawn)
        why = (
            f"the root package '{max(drawn, key=components)}' would be squashed into a shorter "
            "name"
        )
    if depth is None:
        return max(least, min(components(p) for p in drawn) + 1)
    if depth < least:
        raise UsageError("--depth", f"{depth} is too shallow: {why}; give --depth {least} or more")
    return depth


def _check(settings: Settings, use_cache: bool) -> tuple[RunReport | None, Evidence | None]:
    """The static contracts decided as `layering check --no-probe` decides them, and the
    evidence they were decided on, whose graph is the one to draw (built once, for both);
    (None, None) when the configuration has none (probe contracts run code, which a drawing
    does not)."""
    if all(_runs_code(spec.options.get("type")) for spec in settings.contracts):
        return None, None
    kept: list[object] = []
    report = check_settings(
        settings, (), ProbeSelection.STATIC, use_cache=use_cache, kept=kept, draws_graph=True
    )
    evidence = kept[0]
    assert isinstance(evidence, Evidence), "check_settings keeps its evidence"
    return report, evidence


def _runs_code(type_name: object) -> bool:
    """Whether a contract of `type_name` is decided by running code (an unknown type is not:
    `check` says what is wrong with it)."""
    return (
        isinstance(type_name, str)
        and type_name in CONTRACT_TYPES
        and contract_class(type_name).runs_code
    )


def _broken_imports(report: RunReport, evidence: Evidence) -> dict[Pair, set[str]]:
    """Each module-to-module import a broken contract reports, with the contracts that report
    it: the imports of each cut; for other findings their import, or every hop of their chain.
    An external package stands as the graph has it, by its top-level name."""
    broken: dict[Pair, set[str]] = {}

    def mark(importer: str, imported: str, contract: str) -> None:
        if not evidence.is_internal(imported):
            imported = imported.partition(".")[0]
        broken.setdefault((importer, imported), set()).add(contract)

    for result in report.results:
        if result.verdict is not Verdict.BROKEN:
            continue
        in_cut = {v for group in result.chain_groups for cut in group.cut for v in cut.statements}
        for group in result.chain_groups:
            for cut in group.cut:
                mark(cut.importer, cut.imported, result.contract_id)
        for violation in result.violations:
            if violation in in_cut or not (violation.importer and violation.imported):
                continue
            hops = violation.chain or (Hop(violation.importer, violation.imported),)
            for hop in hops:
                if PARENT_PACKAGE not in hop.qualifiers:
                    mark(hop.importer, hop.imported, result.contract_id)
    return broken


@dataclass(frozen=True)
class LayerStackRun:
    """The stack drawn, and the contract's report when it was checked."""

    stack: LayerStack
    report: RunReport | None

    @property
    def exit_code(self) -> int:
        return self.report.exit_code if self.report is not None else 0


def draw_layer_stack(
    settings: Settings, contract: str, checked: bool = True, use_cache: bool = True
) -> LayerStackRun:
    """The declared stack of the `layers` contract `contract` (its id or name), with each import
    that breaks it placed on it, unless `checked` is False."""
    if settings.problems:
        raise ConfigError(list(settings.problems))
    spec = _layers_spec(settings, contract)
    report = (
        check_settings(settings, (contract,), ProbeSelection.STATIC, use_cache=use_cache)
        if checked
        else None
    )
    evidence = Evidence(settings, RunPlan(keeps_cache=use_cache))
    present = set(evidence.modules)
    containers = sorted(
        {
            module
            for _, text in entries(spec.options.get("containers"))
            for module in ModulePattern.parse(text).expand(present)
        }
    )
    layers = [
        [(tail, ":" not in text) for tail, _ in layer_modules(text)]
        for _, text in entries(spec.options.get("layers"))
    ]
    groups = stack_groups(layers, containers, present)
    result = report.results[0] if report is not None else None
    statements = []
    if result is not None:
        cut = [v for group in result.chain_groups for c in group.cut for v in c.statements]
        statements = [
            (v.importer, v.imported, v.path, v.line)
            for v in [*cut, *result.violations]
            if v.importer and v.imported and v.path and v.line
        ]
    stack = LayerStack(
        str(spec.options.get("id") or spec.options.get("name")),
        str(spec.options.get("name") or spec.options.get("id")),
        groups,
        placed(groups, statements),
        checked,
    )
    return LayerStackRun(stack, report)


def _layers_spec(settings: Settings, contract: str) -> ContractSpec:
    """The `layers` contract known as `contract` (by id, else by name)."""
    specs = {
        str(s.options.get(key)): s
        for key in ("name", "id")
        for s in settings.contracts
        if isinstance(s.options.get(key), str)
    }
    spec = specs.get(contract)
    if spec is None:
        raise ConfigError(
            Problem(
                settings.path,
                0,
                f"--contract {contract!r} names no contract.{did_you_mean(contract, specs)}",
                hint="ids: "
                + ", ".join(sorted(str(s.options.get("id")) for s in settings.contracts)),
            )
        )
    if spec.options.get("type") != "layers":
        raise ConfigError(
            Problem(
                settings.path,
                spec.line_of("type"),
                f"contract {contract!r} is a {spec.options.get('type')!r} contract: only a layers "
                "contract has a stack to draw",
                hint="name a layers contract, or drop --contract to draw the import graph",
            )
        )
    return spec
