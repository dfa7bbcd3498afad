"""`unchecked = [...]` on forbidden, leaf and contained: modules that stay in the graph as hops
of chains but are never the importer of a finding.

Each test runs the real CLI on a small package, in every output format, cached and not.
"""

from __future__ import annotations

import json

import pytest
from report_support import run_layering, write_files

PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/infra.py": "",
    "src/app/domain/__init__.py": "",
    "src/app/domain/model.py": "from app.domain import testing\n",
    "src/app/domain/testing.py": "from app import infra\n",
    "src/app/domain/fixtures.py": "from app import infra\n",
}

HEADER = 'root_packages = ["app"]\nsource_roots = ["src"]\n'

UNCHECKED = 'unchecked = ["app.domain.testing", "app.domain.fixtures"]\n'

CHAINS = """
[[contracts]]
id = "domain-no-infra"
name = "The domain does not import infra"
type = "forbidden"
source_modules = ["app.domain"]
forbidden_modules = ["app.infra"]
"""

DIRECT = """
[[contracts]]
id = "domain-no-infra-direct"
name = "The domain does not import infra directly"
type = "forbidden"
source_modules = ["app.domain"]
forbidden_modules = ["app.infra"]
allow_indirect_imports = true
"""

LEAF = """
[[contracts]]
id = "domain-leaf"
name = "The domain's modules import nothing of infra"
type = "leaf"
modules = ["app.domain.*"]
within = ["app.infra"]
"""


def _project(tmp_path, *contracts: str):
    return write_files(tmp_path, {**PACKAGE, "contracts.toml": HEADER + "".join(contracts)})


def _findings(stdout: str) -> list[str]:
    return [line.strip() for line in stdout.splitlines() if ": LY0" in line]


def test_without_unchecked_their_imports_are_findings(tmp_path):
    run = run_layering(_project(tmp_path, CHAINS), "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    assert _findings(run.stdout) == [
        "src/app/domain/fixtures.py:1: LY001 app.domain.fixtures imports app.infra",
        "src/app/domain/testing.py:1: LY001 app.domain.testing imports app.infra",
    ]


def test_a_chain_through_an_unchecked_module_is_cut_before_it(tmp_path):
    run = run_layering(_project(tmp_path, CHAINS + UNCHECKED), "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "1 chain from app.domain to app.infra" in run.stdout
    assert _findings(run.stdout) == [
        "src/app/domain/model.py:1: LY002 app.domain.model imports app.domain.testing"
    ]
    assert "src/app/domain/testing.py:1: app.domain.testing -> app.infra" in run.stdout


@pytest.mark.parametrize("contract", [DIRECT, LEAF])
def test_direct_imports_by_unchecked_modules_are_no_findings(tmp_path, contract):
    run = run_layering(_project(tmp_path, contract + UNCHECKED), "check", "--no-cache")
    assert run.returncode == 0, run.stdout + run.stderr
    counted = run_layering(_project(tmp_path, contract), "check", "--no-cache")
    assert counted.returncode == 1
    assert "app.domain.testing imports app.infra" in counted.stdout


def test_an_allowance_that_excuses_only_unchecked_imports_is_stale(tmp_path):
    contract = DIRECT + UNCHECKED + 'allow = ["app.domain.testing -> app.infra"]\n'
    run = run_layering(_project(tmp_path, contract), "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "allowance 'app.domain.testing -> app.infra' matches no import" in run.stdout


@pytest.mark.parametrize("format", ["text", "json", "github", "sarif"])
def test_every_format_is_the_same_cached_and_not(tmp_path, format):
    root = _project(tmp_path, CHAINS + UNCHECKED, DIRECT + UNCHECKED, LEAF + UNCHECKED)
    runs = [run_layering(root, "check", "--format", format) for _ in range(2)]
    fresh = run_layering(root, "check", "--format", format, "--no-cache")
    assert (tmp_path / ".layering_cache").is_dir()
    assert fresh.returncode == 1, fresh.stdout + fresh.stderr
    for run in runs:
        assert (run.returncode, run.stdout) == (fresh.returncode, fresh.stdout)
    if format == "json":
        verdicts = {c["id"]: c["verdict"] for c in json.loads(fresh.stdout)["contracts"]}
        assert verdicts == {
            "domain-no-infra": "broken",
            "domain-no-infra-direct": "kept",
            "domain-leaf": "kept",
        }


def test_a_cached_verdict_follows_an_edit_of_an_unchecked_module(tmp_path):
    root = _project(tmp_path, CHAINS + UNCHECKED)
    assert run_layering(root, "check").returncode == 1
    (root / "src/app/domain/model.py").write_text("")
    cached, fresh = run_layering(root, "check"), run_layering(root, "check", "--no-cache")
    assert (cached.returncode, cached.stdout) == (fresh.returncode, fresh.stdout)
    assert fresh.returncode == 0


def test_baseline_excuses_todays_chains_only(tmp_path):
    root = _project(tmp_path, CHAINS + UNCHECKED)
    assert run_layering(root, "baseline").returncode == 0
    config = (root / "contracts.toml").read_text()
    assert '"app.domain.model -> app.infra"' in config
    assert run_layering(root, "check").returncode == 0
    (root / "src/app/domain/rules.py").write_text("from app.domain import fixtures\n")
    run = run_layering(root, "check")
    assert run.returncode == 1, run.stdout + run.stderr
    assert _findings(run.stdout) == [
        "src/app/domain/rules.py:1: LY002 app.domain.rules imports app.domain.fixtures"
    ]


@pytest.mark.parametrize(
    ("contract", "said"),
    [
        (
            CHAINS + 'unchecked = ["app.domain.tests"]\n',
            "'app.domain.tests' in 'unchecked' matches no module",
        ),
        (
            '\n[[contracts]]\nid = "l"\ntype = "layers"\nlayers = ["app.infra", "app.domain"]\n'
            + UNCHECKED,
            "option 'unchecked': Unrecognized option",
        ),
    ],
)
def test_unchecked_that_cannot_apply_is_a_located_error(tmp_path, contract, said):
    root = _project(tmp_path, contract)
    run = run_layering(root, "check")
    assert run.returncode == 2, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    lines = (root / "contracts.toml").read_text().splitlines()
    line = next(i for i, text in enumerate(lines, 1) if text.startswith("unchecked"))
    assert f"contracts.toml:{line}:" in run.stdout + run.stderr
    assert said in run.stdout + run.stderr
