"""`layering init`: propose the contracts a package's imports justify today, write them as a
commented configuration (checked to be kept before it is written), or say how today's
contracts differ from them (`--check`)."""

from __future__ import annotations

import os

from layering.adapters.config_editor import EditFailed, write_atomically
from layering.commands.check import ProbeSelection, check_settings
from layering.contracts._importlinter import entries
from layering.contracts.layers import layer_modules
from layering.domain.errors import ConfigError, Problem
from layering.domain.inferred_contracts import (
    Difference,
    InferredContract,
    PassedOver,
    Proposal,
    children_reach,
    infer,
)
from layering.domain.patterns import is_dotted_name
from layering.domain.results import RunReport
from layering.engine.config import (
    CONTRACTS_FILE,
    PYPROJECT_FILE,
    ContractSpec,
    Settings,
    has_layering_section,
    settings_from_text,
)
from layering.engine.config_mapping import located_by_key, settings_from_mapping
from layering.engine.evidence import Evidence
from layering.engine.plan import RunPlan


def propose(package: str, base_dir: str, depth: int = 2, apart: bool = False) -> Proposal:
    """The contracts for `package` (found from `base_dir` as `check` finds a root package) and
    its subpackages down to `depth` name components below it, counting itself as 1; with
    `apart`, children in an import cycle get layers of their own (`infer`)."""
    if not is_dotted_name(package):
        raise ConfigError(Problem("PACKAGE", 0, f"'{package}' is not a package name"))
    settings = settings_from_mapping({"root_packages": [package]}, base_dir)
    evidence = Evidence(settings, RunPlan(keeps_cache=False))
    try:
        imports = Evidence.imports_of(evidence.graph)
    except ConfigError as error:
        raise located_by_key(settings, error) from None
    top = package.count(".") + depth
    packages = sorted(
        {m.rpartition(".")[0] for m in imports if m.startswith(package + ".")} | {package}
    )
    contracts, passed = [], []
    for parent in packages:
        if parent.count(".") >= top:
            continue
        children = sorted({m for m in imports if m.rpartition(".")[0] == parent})
        found = infer(parent, children_reach(parent, children, imports), apart)
        if isinstance(found, InferredContract):
            contracts.append(found)
        elif isinstance(found, PassedOver):
            passed.append(found)
    return Proposal(package, tuple(contracts), tuple(passed), depth)


def target_path(base_dir: str, pyproject: bool) -> str:
    return os.path.join(base_dir, PYPROJECT_FILE if pyproject else CONTRACTS_FILE)


def refuse_overwrite(path: str, pyproject: bool) -> None:
    """A ConfigError (exit 2) where writing would replace a configuration."""
    if pyproject and has_layering_section(path):
        raise ConfigError(
            Problem(
                path,
                0,
                "already holds a [tool.layering] table: init does not replace it",
                hint="remove the table, or give --force to replace it",
            )
        )
    if not pyproject and os.path.exists(path):
        raise ConfigError(
            Problem(
                path,
                0,
                "already exists: init does not overwrite it",
                hint="give --force to replace it, or --check to compare it with what init"
                " proposes",
            )
        )


def write_proposal(path: str, text: str, pyproject: bool, comment: str = "") -> RunReport:
    """Check the configuration `text` (what `path` will hold), then write it atomically; the
    check's report. A configuration that would not be kept is not written (a ConfigError).
    With a `comment`, today's findings are baselined first (`layering baseline`, its entries
    marked by the comment), and the file is written only if that keeps every contract."""
    full = _pyproject_text(path, text) if pyproject else text
    if comment:
        return _write_baselined(path, full, comment)
    settings = settings_from_text(path, full)
    report = check_settings(settings, (), ProbeSelection.STATIC, use_cache=False)
    if report.exit_code != 0:
        raise ConfigError(
            Problem(
                path,
                0,
                "the proposed contracts are not kept on today's code, so nothing was written",
                hint="please report this: init proposes only contracts today's imports keep",
            )
        )
    try:
        write_atomically(path, full)
    except EditFailed as failure:
        raise ConfigError(Problem(path, 0, str(failure))) from None
    return report


def _write_baselined(path: str, full: str, comment: str) -> RunReport:
    """Write `full` to `path`, baseline it, and check it: the file as it was before (or none)
    wherever the result would not be kept."""
    from layering.commands.baseline import baseline

    try:
        with open(path, encoding="utf-8") as handle:
            before: str | None = handle.read()
    except FileNotFoundError:
        before = None
    try:
        write_atomically(path, full)
        outcome = baseline(settings_from_text(path, full), comment, (), ProbeSelection.STATIC)
        if outcome.text is None and outcome.added:
            raise ConfigError(
                Problem(
                    path,
                    0,
                    "today's findings of the proposed contracts cannot all be baselined, so "
                    "nothing was written",
                    hint="run init without --baseline: its contracts are kept as they are",
                )
            )
        with open(path, encoding="utf-8") as handle:
            settings = settings_from_text(path, handle.read())
        report = check_settings(settings, (), ProbeSelection.STATIC, use_cache=False)
        if report.exit_code != 0:
            raise ConfigError(
                Problem(
                    path,
                    0,
                    "the proposed contracts are not kept on today's code, even baselined, so "
                    "nothing was written",
                    hint="please report this: init proposes only contracts today's imports keep",
                )
            )
        return report
    except BaseException:
        if before is None:
            os.remove(path)
        else:
            write_atomically(path, before)
        raise


def _pyproject_text(path: str, table: str) -> str:
    """`path`'s text with its [tool.layering] tables replaced by `table` (added at the end when
    it has none); every other line kept as written."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines(keepends=True)
    except FileNotFoundError:
        lines = []
    kept, inside = [], False
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("["):
            name = stripped.strip("[]").strip()
            inside = name == "tool.layering" or name.startswith("tool.layering.")
        if not inside:
            kept.append(line)
    text = "".join(kept).rstrip("\n")
    return (text + "\n\n" if text else "") + table


def compare(settings: Settings, proposal: Proposal) -> list[Difference]:
    """Each proposed contract against today's contracts of its type over the same modules."""
    differences = []
    for contract in proposal.contracts:
        match = next(
            (s for s in settings.contracts if _same_modules(s, contract)),
            None,
        )
        if match is None:
            differences.append(Difference(contract, "", False))
            continue
        same = contract.type_name == "independence" or _layers_of(match) == [
            sorted(layer.modules) for layer in contract.layers
        ]
        key = match.options.get("id") or match.options.get("name")
        differences.append(Difference(contract, str(key), same))
    return differences


def _layers_of(spec: ContractSpec) -> list[list[str]]:
    return [
        sorted(m for m, _ in layer_modules(text))
        for _, text in entries(spec.options.get("layers"))
    ]


def _same_modules(spec: ContractSpec, contract: InferredContract) -> bool:
    if spec.options.get("type") != contract.type_name or spec.options.get("containers"):
        return False
    if contract.type_name == "layers":
        written = [m for layer in _layers_of(spec) for m in layer]
        return sorted(written) == sorted(contract.layer_modules)
    written = [text for _, text in entries(spec.options.get("modules"))]
    return sorted(written) == sorted(contract.modules)


def default_package(base_dir: str) -> str:
    """The package `init` is about when none is named: the root package of the configuration
    `check` would find, else the one package in `base_dir` or its `src/`."""
    from layering.engine.config import find_config, load_settings

    try:
        path, _ = find_config(base_dir)
    except ConfigError:
        pass
    else:
        roots = load_settings(path).root_packages
        if roots:
            return roots[0]
    found = sorted(
        name
        for directory in (base_dir, os.path.join(base_dir, "src"))
        if os.path.isdir(directory)
        for name in os.listdir(directory)
        if is_dotted_name(name) and os.path.isfile(os.path.join(directory, name, "__init__.py"))
    )
    if len(found) != 1:
        raise ConfigError(
            Problem(
                base_dir,
                0,
                f"{'no package' if not found else 'several packages (' + ', '.join(found) + ')'} "
                "here or in src/",
                hint="name the package: layering init PACKAGE",
            )
        )
    return found[0]
