"""The pytest front door: each contract is a test, so `pytest` reports layering with the rest.

Loaded automatically (entry point `pytest11`, name `layering`); `-p no:layering` turns it off.

What is collected, so that installing layering never changes a test suite by surprise:

* `--layering-config PATH` on the command line: that file, always (with or without path
  arguments).
* `layering_config = PATH` in the pytest ini section (relative to the ini file): that file,
  when pytest runs without path arguments (the `testpaths` or the current directory), or
  when a path argument names it or a directory above it.
* Otherwise only a `contracts.toml`, or a `pyproject.toml` with `[tool.layering]` (when no
  `contracts.toml` stands beside it), in the rootdir, and only when pytest's own collection
  reaches it: `pytest` run on the rootdir without `testpaths`, `pytest .`, or
  `pytest contracts.toml`. A suite with `testpaths = ["tests"]` collects no contracts until
  it sets `layering_config`.

Node ids: `contracts.toml::<contract key>` for a static contract (the key is its `id`, else
its name), `contracts.toml::<contract key>::<module>` for each probed module of a probe
contract and `...::control:<module>` for each positive control (a probe contract that says
`expect = "broken"` is one item, like a static contract). `-k` selects on them;
`--layering-no-probe` leaves probe contracts out.

The engine runs lazily, at the first item that needs it: all selected static contracts of a
file in one run, and each probe contract on its own when the first of its items runs, so
deselected probe contracts never start an interpreter, and under pytest-xdist each worker
probes only the contracts whose items it was given (`--dist loadgroup` is not needed; with
`--dist loadscope` a probe contract stays on one worker). A failure shows the violation lines
of the text report, with no plugin traceback. `expect = "broken"` and `expect_loaded` are
strict xfails: broken as expected is xfailed, kept is an XPASS(strict) failure. A contract
with `severity = "warn"` that is not kept passes with a `ContractWarning` (pytest's warnings
summary shows the violation lines), and its expectations are xfails that are not strict;
`-W error::layering.pytest_plugin.ContractWarning` makes it fail. Problems in the
configuration are collection errors located at file:line.

The `layering_report` fixture gives hand-written tests the session's `RunReport` of the
configuration (the configured one, else the one found from the rootdir); `layering.check()`
is the same engine as a function.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from layering.domain.errors import ConfigError
    from layering.domain.results import ContractResult, ItemResult, RunReport

CONTRACTS_FILE = "contracts.toml"
PYPROJECT_FILE = "pyproject.toml"


# --- options and collection triggers -------------------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("layering", "import-layering contracts (layering)")
    group.addoption(
        "--layering-config",
        metavar="PATH",
        default=None,
        help="collect the contracts of this file (contracts.toml, or a pyproject.toml with "
        "[tool.layering]) as tests",
    )
    group.addoption(
        "--layering-no-probe",
        action="store_true",
        default=False,
        help="leave probe contracts out (static contracts only)",
    )
    parser.addini(
        "layering_config",
        help="contracts file collected as tests when pytest runs without path arguments (relative "
        "to the ini file)",
        default="",
    )


class _State:
    """Per session (per xdist worker): which file is collected, and the engine's results."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.no_probe: bool = config.getoption("layering_no_probe")
        self.target: Path | None = None
        self.explicit: set[Path] = set()
        self.static_keys: dict[Path, set[str]] = {}
        self.static_runs: dict[Path, dict[str, Any]] = {}
        self.probe_runs: dict[tuple[Path, str], Any] = {}
        self.fixture_report: Any = None
        option = config.getoption("layering_config")
        ini = config.getini("layering_config")
        if option:
            self.target = (config.invocation_params.dir / option).resolve()
        elif ini:
            base = config.inipath.parent if config.inipath else config.rootpath
            self.target = (base / ini).resolve()
        for arg in config.args if config.args_source is pytest.Config.ArgsSource.ARGS else ():
            self.explicit.add((config.invocation_params.dir / arg.split("::")[0]).resolve())
        if self.target is not None and (
            option or config.args_source is not pytest.Config.ArgsSource.ARGS
        ):
            if not self._reached(self.target):
                config.args.append(str(self.target))

    def _reached(self, path: Path) -> bool:
        """Whether pytest's own collection of its arguments gets to `path`."""
        for arg in self.config.args:
            root = (self.config.invocation_params.dir / arg.split("::")[0]).resolve()
            if root == path or root in path.parents:
                return True
        return False

    def wants(self, path: Path) -> bool:
        path = path.resolve()
        if self.target is not None:
            return path == self.target
        if path.name == CONTRACTS_FILE:
            return path.parent == self.config.rootpath.resolve() or path in self.explicit
        if path.name == PYPROJECT_FILE:
            if path.parent != self.config.rootpath.resolve() and path not in self.explicit:
                return False
            return not (path.parent / CONTRACTS_FILE).exists() and _has_layering_section(path)
        return False

    # --- the engine, run lazily -------------------------------------------------------------

    def static_result(self, path: Path, key: str) -> ContractResult:
        """All selected static contracts of `path` are decided by one run, at the first of them."""
        from layering.commands.check import ProbeSelection

        runs = self.static_runs.setdefault(path, {})
        if key not in runs:
            keys = sorted((self.static_keys.get(path, set()) - set(runs)) | {key})
            outcome = self._run(path, keys, ProbeSelection.STATIC)
            runs.update(dict.fromkeys(keys, outcome))
        return _find(runs[key], key, path)

    def probe_result(self, path: Path, key: str) -> ContractResult:
        if (path, key) not in self.probe_runs:
            from layering.commands.check import ProbeSelection

            self.probe_runs[(path, key)] = self._run(path, [key], ProbeSelection.PROBES)
        return _find(self.probe_runs[(path, key)], key, path)

    def _run(self, path: Path, keys: list[str], selection: Any) -> RunReport | ConfigError:
        from layering.commands.check import check_settings
        from layering.domain.errors import ConfigError
        from layering.engine.config import locate_settings

        try:
            return check_settings(locate_settings(str(path)), keys, selection)
        except ConfigError as error:
            return error


def _has_layering_section(path: Path) -> bool:
    from layering.engine.config import has_layering_section

    return has_layering_section(str(path))


_STATE = pytest.StashKey[_State]()


def _state(config: pytest.Config) -> _State:
    return config.stash[_STATE]


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_STATE] = _State(config)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> ContractsFile | None:
    state = parent.config.stash.get(_STATE, None)
    if state is None:
        return None
    if file_path.name not in (CONTRACTS_FILE, PYPROJECT_FILE) and (
        state.target is None or file_path.name != state.target.name
    ):
        return None
    if not state.wants(file_path):
        return None
    return ContractsFile.from_parent(parent, path=file_path)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Remember which static contracts are still selected (after -k and -m), to run only those."""
    state = config.stash.get(_STATE, None)
    if state is None:
        return
    for item in items:
        if isinstance(item, ContractItem) and not item.runs_code:
            state.static_keys.setdefault(item.path, set()).add(item.key)


# --- failures ------------------------------------------------------------------------------


class ContractFailure(Exception):
    """A contract (or probed module) was not kept; the message is the text report's lines."""


class ExpectedBreak(Exception):
    """Broken as the configuration expects: turned into an xfail by the strict xfail mark."""


class ContractWarning(UserWarning):
    """A contract with `severity = "warn"` is not kept: reported, and the test passes."""


def _find(outcome: RunReport | ConfigError, key: str, path: Path) -> ContractResult:
    from layering.domain.errors import ConfigError
    from layering.reporting import text

    if isinstance(outcome, ConfigError):
        raise ContractFailure(text.render_error(outcome).rstrip())
    for result in outcome.results:
        if result.contract_id == key:
            return result
    raise ContractFailure(
        f"{path.name}: contract '{key}' was not checked (the configuration changed since "
        "collection?)"
    )


def _lines(header: str, result: ContractResult) -> str:
    from layering.reporting import text

    return "\n".join([header, *text.violation_lines(text.paths_from_cwd(result))])


# --- collectors and items ------------------------------------------------------------------


class ContractsFile(pytest.File):
    """A contracts file: one item per static contract, a collector per probe contract."""

    def collect(self) -> Any:
        from layering.commands.check import ProbeSelection, load_contracts
        from layering.domain.errors import ConfigError
        from layering.domain.results import Severity
        from layering.engine.config import locate_settings
        from layering.engine.evidence import Evidence
        from layering.reporting import text

        state = _state(self.config)
        try:
            settings = locate_settings(str(self.path))
            evidence = Evidence(settings)
            contracts, _ = load_contracts(settings, evidence, (), ProbeSelection.ALL)
            if state.no_probe:
                contracts = [c for c in contracts if not c.runs_code]
            nodes: list[pytest.Item | pytest.Collector] = []
            for contract in contracts:
                common = dict(
                    key=contract.key,
                    contract_name=contract.name,
                    type_name=contract.type_name,
                    runs_code=contract.runs_code,
                    line=contract.spec.line,
                )
                strict = contract.severity is Severity.ERROR
                if contract.runs_code and not contract.expects_broken:
                    nodes.append(
                        ProbeContractNode.from_parent(
                            self,
                            name=contract.key,
                            modules=tuple(contract.probed_modules(evidence)),
                            controls=tuple(dict.fromkeys(contract.control_modules(evidence))),
                            expect_loaded=frozenset(
                                e.module for e in contract.values["expect_loaded"]
                            ),
                            expect_line=contract.spec.line_of("expect_loaded"),
                            strict=strict,
                            **common,
                        )
                    )
                else:
                    item = ContractItem.from_parent(self, name=contract.key, **common)
                    if contract.expects_broken:
                        item.add_marker(
                            pytest.mark.xfail(
                                strict=strict,
                                raises=ExpectedBreak,
                                reason=(
                                    f"{self.path.name}:{contract.spec.line_of('expect')}: expect "
                                    '= "broken"; '
                                    "once the contract is kept, remove the expectation"
                                ),
                            )
                        )
                    nodes.append(item)
            return nodes
        except ConfigError as error:
            raise self.CollectError(text.render_error(error).rstrip()) from None


class _LayeringItem(pytest.Item):
    def __init__(
        self,
        *,
        key: str,
        contract_name: str,
        type_name: str,
        runs_code: bool,
        line: int,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.key = key
        self.contract_name = contract_name
        self.type_name = type_name
        self.runs_code = runs_code
        """Decided by running code (a probe contract's items), not from the source."""
        self.line = line
        self.funcargs: dict[str, Any] = {}
        """No fixtures, as a test function's: a plugin that looks for them on every item
        (pytest-lsp 1.0's `pytest_runtest_call` wrapper returns without yielding from an item
        that has none, which fails it) sees that there are none."""

    def contract_result(self) -> ContractResult:
        state = _state(self.config)
        if self.runs_code:
            return state.probe_result(self.path, self.key)
        return state.static_result(self.path, self.key)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, (ContractFailure, ExpectedBreak, ContractWarning)):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return (
            self.path,
            max(self.line - 1, 0),
            f"{self.type_name} contract {self.nodeid.partition('::')[2]}",
        )

    def _conclude(self, verdict: Any, header: str, result: ContractResult) -> None:
        from layering.domain.results import Verdict

        warns = result._replace(verdict=verdict).warns
        label = result._replace(verdict=verdict).label
        message = _lines(f"{header} {label}", result)
        if verdict is Verdict.KEPT:
            return
        if warns:
            # Located at the contract's table, as pytest's warnings summary shows a warning.
            warnings.warn_explicit(ContractWarning(message), None, str(self.path), self.line)
            return
        if verdict is Verdict.EXPECTED_BROKEN:
            raise ExpectedBreak(message)
        if verdict is Verdict.UNEXPECTEDLY_KEPT and self.get_closest_marker("xfail") is not None:
            return  # the strict xfail makes this an XPASS(strict) failure
        raise ContractFailure(message)


class ContractItem(_LayeringItem):
    """One static contract (or a probe contract that says expect = "broken")."""

    def runtest(self) -> None:
        result = self.contract_result()
        self.user_properties.append(("layering_verdict", result.verdict.value))
        ident = f" [{result.contract_id}]" if result.contract_id != result.name else ""
        self._conclude(result.verdict, f"{result.name}{ident}", result)


class ProbeContractNode(pytest.Collector):
    """A probe contract: one item per probed module, one per positive control."""

    def __init__(
        self,
        *,
        key: str,
        contract_name: str,
        type_name: str,
        runs_code: bool,
        line: int,
        modules: tuple[str, ...],
        controls: tuple[str, ...],
        expect_loaded: frozenset[str],
        expect_line: int,
        strict: bool,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.common: dict[str, Any] = dict(
            key=key,
            contract_name=contract_name,
            type_name=type_name,
            runs_code=runs_code,
            line=line,
        )
        self.modules = modules
        self.controls = controls
        self.expect_loaded = expect_loaded
        self.expect_line = expect_line
        self.strict = strict
        """Whether expect_loaded entries are strict xfails (not for a contract that warns)."""

    def collect(self) -> list[pytest.Item]:
        items: list[pytest.Item] = []
        for module in self.modules:
            item = ProbeItem.from_parent(self, name=module, item_key=module, **self.common)
            if module in self.expect_loaded:
                item.add_marker(
                    pytest.mark.xfail(
                        strict=self.strict,
                        raises=ExpectedBreak,
                        reason=(
                            f"{self.path.name}:{self.expect_line}: {module} is in expect_loaded; "
                            "once it no longer loads a forbidden module, remove it (expect_loaded "
                            "only shrinks)"
                        ),
                    )
                )
            items.append(item)
        for module in self.controls:
            items.append(
                ProbeItem.from_parent(
                    self, name=f"control:{module}", item_key=f"control:{module}", **self.common
                )
            )
        return items

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, max(self.common["line"] - 1, 0), f"probe contract {self.name}"


class ProbeItem(_LayeringItem):
    """One probed module (or positive control) of a probe contract."""

    def __init__(self, *, item_key: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.item_key = item_key

    def runtest(self) -> None:
        result = self.contract_result()
        found: ItemResult | None = next((i for i in result.items if i.key == self.item_key), None)
        ident = f" [{result.contract_id}]" if result.contract_id != result.name else ""
        header = f"{result.name}{ident}: {self.item_key}"
        if found is None:
            if not result.verdict.passes:
                self._conclude(result.verdict, header, result)
            raise ContractFailure(
                f"{header}: not probed (the configuration or the package changed since "
                "collection?)"
            )
        self.user_properties.append(("layering_verdict", found.verdict.value))
        self._conclude(
            found.verdict, header, result._replace(violations=found.violations, notes=())
        )


# --- fixtures ------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def layering_report(pytestconfig: pytest.Config) -> RunReport:
    """The RunReport of the configured contracts file (else the one found from the rootdir)."""
    from layering.api import check
    from layering.domain.errors import ConfigError
    from layering.reporting import text

    state = _state(pytestconfig)
    if state.fixture_report is None:
        target = state.target
        try:
            state.fixture_report = check(
                str(target) if target else None,
                probes=not state.no_probe,
                start=str(pytestconfig.rootpath),
            )
        except ConfigError as error:
            pytest.fail(text.render_error(error).rstrip(), pytrace=False)
    return state.fixture_report


def pytest_report_header(config: pytest.Config) -> list[str] | None:
    state = config.stash.get(_STATE, None)
    if state is None or state.target is None:
        return None
    return [f"layering: {os.path.relpath(state.target, config.rootpath)}"]
