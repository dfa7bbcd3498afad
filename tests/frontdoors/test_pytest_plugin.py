"""The pytest plugin: contracts collected as tests, run by a real pytest (pytester).

Probe contracts run here against a fake probe runner (an inner conftest replaces
`layering.adapters.probe_runner`), so that these tests pin the plugin's mapping of outcomes to
test results; `test_probe_contract_with_the_real_runner` runs the real one.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from frontdoors_support import BROKEN, CONTRACTS, KEPT, write_project

pytest_plugins = ["pytester"]

PROBE_CONTRACT = """
[[contracts]]
id = "probe-sub"
name = "importing a or b never loads sub"
type = "probe"
modules = ["app.a", "app.b", "app.c"]
forbidden = ["app.sub"]
expect_loaded = {expect_loaded}
"""

FAKE_RUNNER = '''
"""A fake probe runner: each module loads what LOADS says; a control loads itself."""
import os
import sys
import types

from layering.domain.probes import LoadedForbidden, ProbeOutcome, ProbeOutcomeKind, RuntimeHop

LOADS = {loads!r}
HERE = os.path.dirname(os.path.abspath(__file__))


def run_probes(requests, jobs=None, progress=None, **options):
    log = os.environ.get("FAKE_PROBE_LOG")
    outcomes = []
    for request in requests:
        if log:
            with open(log, "a") as handle:
                handle.write(request.module + "\\n")
        loaded = []
        if any(request.module == f or request.module.startswith(f + ".") for f in request.forbidden):
            loaded.append(LoadedForbidden(request.module, (RuntimeHop("", request.module, "", 0),)))
        for module in LOADS.get(request.module, []):
            path = os.path.join(HERE, "src", *request.module.split(".")) + ".py"
            chain = (RuntimeHop("", request.module, "", 0), RuntimeHop(request.module, module, path, 1))
            loaded.append(LoadedForbidden(module, chain))
        kind = ProbeOutcomeKind.LOADED if loaded else ProbeOutcomeKind.CLEAN
        outcomes.append(ProbeOutcome(request.module, kind, tuple(loaded)))
    return outcomes


fake = types.ModuleType("layering.adapters.probe_runner")
fake.run_probes = run_probes
sys.modules["layering.adapters.probe_runner"] = fake
'''


@pytest.fixture(autouse=True)
def _lean_inner_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Inner runs without hypothesis's plugin: pytester drops the modules an inner run imported,
    so each run would import (and assert-rewrite) all of hypothesis again."""
    monkeypatch.setenv("PYTEST_ADDOPTS", "-p no:hypothesispytest")
    monkeypatch.delenv("NO_COLOR", raising=False)


def _project(
    pytester: pytest.Pytester, files: dict[str, str] = BROKEN, contracts: str = CONTRACTS
) -> Path:
    return write_project(pytester.path, files, contracts)


def _probe_project(
    pytester: pytest.Pytester, loads: dict[str, list[str]], expect_loaded: list[str] = ()
) -> Path:
    files = dict(KEPT, **{"src/app/c.py": "X = 1\n"})
    contracts = CONTRACTS + PROBE_CONTRACT.format(
        expect_loaded=repr(list(expect_loaded)).replace("'", '"')
    )
    root = write_project(pytester.path, files, contracts)
    (root / "conftest.py").write_text(FAKE_RUNNER.format(loads=loads), encoding="utf-8")
    return root


def _ids(result: pytest.RunResult) -> list[str]:
    return [line for line in result.outlines if "::" in line and not line.startswith(" ")]


# --- collection ----------------------------------------------------------------------------


def test_contracts_are_collected_with_their_ids(pytester: pytest.Pytester) -> None:
    _project(pytester)
    result = pytester.runpytest("--collect-only", "-q")
    assert _ids(result) == [
        "contracts.toml::no-sub",
        "contracts.toml::leaf",
        "contracts.toml::known",
    ]


def test_probe_modules_and_controls_are_items(pytester: pytest.Pytester) -> None:
    _probe_project(pytester, {})
    result = pytester.runpytest("--collect-only", "-q")
    assert _ids(result)[3:] == [
        "contracts.toml::probe-sub::app.a",
        "contracts.toml::probe-sub::app.b",
        "contracts.toml::probe-sub::app.c",
        "contracts.toml::probe-sub::control:app.sub",
    ]
    assert len(_ids(pytester.runpytest("--collect-only", "-q", "--layering-no-probe"))) == 3


def test_pyproject_section_is_collected(pytester: pytest.Pytester) -> None:
    write_project(
        pytester.path,
        BROKEN,
        "[tool.layering]\n" + CONTRACTS.replace("[[contracts]]", "[[tool.layering.contracts]]"),
        name="pyproject.toml",
    )
    result = pytester.runpytest("--collect-only", "-q")
    assert _ids(result) == [
        "pyproject.toml::no-sub",
        "pyproject.toml::leaf",
        "pyproject.toml::known",
    ]


def test_not_collected_when_other_paths_are_named_or_testpaths_leave_it_out(
    pytester: pytest.Pytester,
) -> None:
    _project(pytester)
    pytester.makepyfile(test_one="def test_one(): pass")
    result = pytester.runpytest("test_one.py")
    result.assert_outcomes(passed=1)
    pytester.makeini("[pytest]\ntestpaths = test_one.py\n")
    pytester.runpytest().assert_outcomes(passed=1)


def test_ini_option_collects_with_testpaths(pytester: pytest.Pytester) -> None:
    write_project(
        pytester.path / "config",
        {},
        CONTRACTS.replace('source_roots = ["src"]', 'source_roots = ["../src"]'),
    )
    _project(pytester, contracts=None)
    pytester.makepyfile(test_one="def test_one(): pass")
    pytester.makeini(
        "[pytest]\ntestpaths = test_one.py\nlayering_config = config/contracts.toml\n"
    )
    result = pytester.runpytest("-q")
    result.assert_outcomes(passed=1, failed=2, xfailed=1)
    result.stdout.fnmatch_lines(
        ["FAILED config/contracts.toml::no-sub - a does not import sub [[]no-sub[]] BROKEN"]
    )
    # Path arguments that do not reach it leave it out; --layering-config always adds it.
    pytester.runpytest("test_one.py").assert_outcomes(passed=1)
    pytester.runpytest(
        "test_one.py", "--layering-config", "config/contracts.toml"
    ).assert_outcomes(passed=1, failed=2, xfailed=1)


def test_opt_out(pytester: pytest.Pytester) -> None:
    _project(pytester)
    result = pytester.runpytest("-p", "no:layering")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


# --- results -------------------------------------------------------------------------------


def test_failure_shows_the_violation_lines_without_a_traceback(pytester: pytest.Pytester) -> None:
    _project(pytester)
    result = pytester.runpytest("-rA")
    result.assert_outcomes(failed=2, xfailed=1)
    result.stdout.fnmatch_lines(
        [
            "*forbidden contract no-sub*",
            "a does not import sub [[]no-sub[]] BROKEN",
            "  2 chains from app.a to app.sub; removing these 2 imports keeps the contract:",
            "  src/app/a.py:5: LY001 app.a imports app.sub.x [[]function-level[]]",
            "  src/app/b.py:2: LY002 app.b imports app.sub.x",
            "    1 of the 2 chains runs through it; the shortest:",
            "      src/app/a.py:1: app.a -> app.b",
            "      src/app/b.py:2: app.b -> app.sub.x",
            "*leaf contract leaf*",
            "b is a leaf: no sub, 100% sure [[]leaf[]] BROKEN",
            "  src/app/b.py:2: LY003 app.b imports app.sub.x",
        ]
    )
    assert "Traceback" not in result.stdout.str() and "pytest_plugin.py" not in result.stdout.str()


def test_a_warn_contract_passes_with_a_warning(pytester: pytest.Pytester) -> None:
    contracts = CONTRACTS.replace(
        'within = ["app"]\n', 'within = ["app"]\nseverity = "warn"\n'
    ).replace(
        'forbidden_modules = ["app.sub"]\n',
        'forbidden_modules = ["app.sub"]\nseverity = "warn"\n',
        1,
    )
    _project(pytester, contracts=contracts)
    result = pytester.runpytest("-rA")
    result.assert_outcomes(passed=2, xfailed=1, warnings=2)
    assert result.ret == 0
    result.stdout.fnmatch_lines(
        [
            "*warnings summary*",
            "contracts.toml::leaf",
            "  */contracts.toml:13: ContractWarning: b is a leaf: no sub, 100% sure [[]leaf[]] "
            "WARN",
            "    src/app/b.py:2: LY003 app.b imports app.sub.x",
        ]
    )
    # The warning made an error fails the item, showing the report's lines, not a traceback.
    strict = pytester.runpytest("-W", "error::layering.pytest_plugin.ContractWarning")
    strict.assert_outcomes(failed=2, xfailed=1)
    strict.stdout.fnmatch_lines(["b is a leaf: no sub, 100% sure [[]leaf[]] WARN"])
    assert "Traceback" not in strict.stdout.str()


def test_kept_contracts_pass(pytester: pytest.Pytester) -> None:
    _project(pytester, KEPT)
    result = pytester.runpytest()
    result.assert_outcomes(passed=2, xfailed=1)
    assert result.ret == 0


def test_expect_broken_is_a_strict_xfail(pytester: pytest.Pytester) -> None:
    contracts = CONTRACTS.replace(
        'forbidden_modules = ["app.b"]', 'forbidden_modules = ["app.sub"]'
    )  # a kept contract
    _project(pytester, KEPT, contracts)
    result = pytester.runpytest("-rA")
    result.assert_outcomes(passed=2, failed=1)
    assert (
        '[XPASS(strict)] contracts.toml:25: expect = "broken"; once the contract is kept, remove '
        "the expectation" in result.stdout.str()
    )


def test_stale_allowance_under_expect_broken_fails(pytester: pytest.Pytester) -> None:
    contracts = CONTRACTS.replace(
        'expect = "broken"', 'expect = "broken"\nallow = ["app.a -> app.sub"]'
    )
    _project(pytester, KEPT, contracts)
    result = pytester.runpytest()
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*LY030*allowance*"])


def test_k_selects_contracts(pytester: pytest.Pytester) -> None:
    _project(pytester)
    result = pytester.runpytest("-k", "leaf")
    result.assert_outcomes(failed=1, deselected=2)
    result = pytester.runpytest("contracts.toml::no-sub")
    result.assert_outcomes(failed=1)


def test_junitxml_carries_the_violations(pytester: pytest.Pytester) -> None:
    _project(pytester)
    pytester.runpytest("--junitxml=report.xml")
    root = ElementTree.parse(pytester.path / "report.xml").getroot()
    cases = {case.get("name"): case for case in root.iter("testcase")}
    assert set(cases) == {"no-sub", "leaf", "known"}
    failure = cases["leaf"].find("failure")
    assert failure is not None
    assert "src/app/b.py:2: LY003 app.b imports app.sub.x" in (failure.text or "") + failure.get(
        "message", ""
    )


def test_xdist_gives_the_same_outcome(pytester: pytest.Pytester) -> None:
    _probe_project(pytester, {"app.b": ["app.sub"]})
    result = pytester.runpytest_subprocess("-n", "2")
    result.assert_outcomes(passed=5, failed=1, xfailed=1)
    serial = pytester.runpytest_subprocess("-p", "no:xdist")
    serial.assert_outcomes(passed=5, failed=1, xfailed=1)


def test_layering_report_fixture(pytester: pytest.Pytester) -> None:
    _project(pytester)
    pytester.makepyfile(
        test_report="""
        import layering

        def test_report(layering_report):
            assert layering_report.exit_code == 1
            assert [r.contract_id for r in layering_report.results] == ["no-sub", "leaf", "known"]
            assert layering_report.results[2].verdict is layering.Verdict.EXPECTED_BROKEN

        def test_api():
            assert layering.check().exit_code == 1

        def test_an_assertion_shows_the_text_report():
            report = layering.check()
            assert report.exit_code == 0, report

        def test_the_api_is_listed():
            assert {"check", "RunReport", "Verdict"} <= set(dir(layering))
        """
    )
    result = pytester.runpytest("test_report.py", "-vv")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*AssertionError: Configuration: contracts.toml",
            "*a does not import sub [[]no-sub[]] BROKEN",
            "*2 chains from app.a to app.sub; removing these 2 imports keeps the contract:",
        ]
    )


# --- configuration errors ------------------------------------------------------------------


def test_config_error_is_a_located_collection_error(pytester: pytest.Pytester) -> None:
    _project(
        pytester, contracts=CONTRACTS.replace('type = "leaf"', 'type = "leaf"\nwithn = ["app"]')
    )
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(
        [
            "*ERROR collecting contracts.toml*",
            "*contracts.toml:16: error: contract 'b is a leaf: no sub, 100% sure': unrecognized "
            "option 'withn'. Did you mean 'within'?",
        ]
    )
    assert "Traceback" not in result.stdout.str()


def test_pattern_matching_nothing_is_a_collection_error(pytester: pytest.Pytester) -> None:
    _project(
        pytester, contracts=CONTRACTS.replace('modules = ["app.b"]', 'modules = ["app.nothere"]')
    )
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(
        ["*contracts.toml:16: error: *'app.nothere' in 'modules' matches no module*"]
    )


def test_two_contracts_known_by_one_name_never_pass(pytester: pytest.Pytester) -> None:
    """Without ids, two contracts of one name were two items of one node id, both PASSED while
    the CLI said one was BROKEN: the configuration is rejected instead."""
    _project(
        pytester,
        contracts=CONTRACTS.replace('id = "no-sub"\n', "")
        .replace('id = "known"\n', "")
        .replace('name = "a does not import sub"', 'name = "a does not import b"')
        .replace('expect = "broken"\n', ""),
    )
    result = pytester.runpytest("-rA")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(
        [
            "*contracts.toml:19: error: the contracts on lines 6 and 19 are both known as 'a does "
            "not import b'*"
        ]
    )
    assert "PASSED" not in result.stdout.str()


def test_an_import_linter_configuration_is_collected_when_named(pytester: pytest.Pytester) -> None:
    """`layering_config` may name import-linter's file; the `src/` package is found by itself."""
    write_project(pytester.path, BROKEN, None)
    (pytester.path / ".importlinter").write_text(
        "[importlinter]\nroot_package = app\n\n[importlinter:contract:no-sub]\nname = a does not "
        "import sub\n"
        "type = forbidden\nsource_modules = app.a\nforbidden_modules = app.sub\n",
        encoding="utf-8",
    )
    pytester.makeini("[pytest]\nlayering_config = .importlinter\n")
    result = pytester.runpytest("-rA")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*FAILED .importlinter::no-sub*"])


# --- probe contracts -----------------------------------------------------------------------


def test_probe_items_with_a_loaded_module_and_expect_loaded(pytester: pytest.Pytester) -> None:
    _probe_project(pytester, {"app.a": ["app.sub"], "app.b": ["app.sub"]}, expect_loaded=["app.b"])
    result = pytester.runpytest("-rA", "-k", "probe")
    result.assert_outcomes(passed=2, failed=1, xfailed=1, deselected=3)
    text = result.stdout.str()
    assert "importing a or b never loads sub [probe-sub]: app.a BROKEN" in text
    assert "src/app/a.py:1: LY020 importing app.a loads app.sub" in text
    assert "XFAIL contracts.toml::probe-sub::app.b" in text
    assert "PASSED contracts.toml::probe-sub::control:app.sub" in text


def test_stale_expect_loaded_is_an_xpass_strict(pytester: pytest.Pytester) -> None:
    _probe_project(pytester, {}, expect_loaded=["app.b"])
    result = pytester.runpytest("-rA", "-k", "probe")
    result.assert_outcomes(passed=3, failed=1, deselected=3)
    assert "[XPASS(strict)] contracts.toml:33: app.b is in expect_loaded" in result.stdout.str()
    assert (
        "app.b is in expect_loaded; once it no longer loads a forbidden module, remove it"
        in result.stdout.str()
    )


def test_deselected_probe_contracts_are_not_run(
    pytester: pytest.Pytester, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _probe_project(pytester, {})
    log = tmp_path / "probes.log"
    monkeypatch.setenv("FAKE_PROBE_LOG", str(log))
    pytester.runpytest("-k", "not probe").assert_outcomes(
        failed=0, passed=2, xfailed=1, deselected=4
    )
    assert not log.exists()
    pytester.runpytest("-k", "probe").assert_outcomes(passed=4, deselected=3)
    assert sorted(log.read_text().split()) == ["app.a", "app.b", "app.c", "app.sub"]


def test_probe_contract_with_the_real_runner(pytester: pytest.Pytester) -> None:
    pytest.importorskip("layering.adapters.probe_runner")
    files = dict(KEPT, **{"src/app/c.py": "from app.sub import x\n"})
    contracts = CONTRACTS + PROBE_CONTRACT.format(expect_loaded="[]")
    write_project(pytester.path, files, contracts)
    result = pytester.runpytest_subprocess("-rA", "-k", "probe")
    result.assert_outcomes(passed=3, failed=1, deselected=3)
    result.stdout.fnmatch_lines(["*LY020 importing app.c loads app.sub*"])


def test_layering_config_option_takes_any_file_name(pytester: pytest.Pytester) -> None:
    _project(pytester, contracts=None)
    write_project(pytester.path, {}, CONTRACTS, name="architecture.toml")
    result = pytester.runpytest("--layering-config", "architecture.toml", "--collect-only", "-q")
    assert _ids(result) == [
        "architecture.toml::no-sub",
        "architecture.toml::leaf",
        "architecture.toml::known",
    ]
    result = pytester.runpytest("--layering-config", "architecture.toml")
    result.assert_outcomes(failed=2, xfailed=1)
    result.stdout.fnmatch_lines(["layering: architecture.toml"])
