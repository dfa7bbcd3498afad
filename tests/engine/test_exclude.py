"""`exclude`: modules left out of the graph and of every contract, with everything under them.

Each test runs the real CLI on a small package with tests and migrations inside it: what they
import never breaks a contract, imports of them are not findings, a contract pattern that
names only excluded modules is an error, and a cached run reports what `--no-cache` reports.
"""

from __future__ import annotations

import json

import pytest
from report_support import run_layering, write_files

PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/a.py": "import json\n",
    "src/app/b.py": "import json\n",
    "src/app/c.py": "from app.tests import helpers\n",
    "src/app/tests/__init__.py": "",
    "src/app/tests/helpers.py": "import app.b\n",
    "src/app/tests/test_a.py": "from app import a, b\nfrom app.tests import helpers\n",
    "src/app/shop/__init__.py": "",
    "src/app/shop/migrations/__init__.py": "",
    "src/app/shop/migrations/0001_initial.py": "from app import b\n",
}

HEADER = (
    'root_packages = ["app"]\nsource_roots = ["src"]\nexclude = ["app.tests", '
    '"app.*.migrations"]\n'
)

CONTRACTS = """
[[contracts]]
id = "nothing-reaches-b"
name = "Nothing reaches app.b"
type = "forbidden"
source_modules = ["app.**"]
forbidden_modules = ["app.b"]

[[contracts]]
id = "c-leaf"
name = "app.c imports nothing of app"
type = "leaf"
modules = ["app.c"]
within = ["app"]

[[contracts]]
id = "layers"
type = "layers"
layers = ["app.c", "app.b"]
"""


def _project(tmp_path, header: str = HEADER, contracts: str = CONTRACTS):
    return write_files(tmp_path, {**PACKAGE, "contracts.toml": header + contracts})


def test_excluded_modules_are_out_of_every_contract(tmp_path):
    run = run_layering(_project(tmp_path), "check", "--no-cache")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Contracts: 3 kept, 0 broken." in run.stdout


def test_without_exclude_the_same_package_breaks_them(tmp_path):
    header = HEADER.replace('exclude = ["app.tests", "app.*.migrations"]\n', "")
    run = run_layering(_project(tmp_path, header), "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "src/app/shop/migrations/0001_initial.py:1:" in run.stdout
    assert "src/app/c.py:1: LY003 app.c imports app.tests.helpers" in run.stdout


@pytest.mark.parametrize("format", ["text", "json", "github", "sarif"])
def test_a_cached_run_reports_what_a_run_without_the_cache_reports(tmp_path, format):
    contracts = CONTRACTS.replace(
        'source_modules = ["app.**"]', 'source_modules = ["app.c", "app.a"]'
    )
    contracts += (
        '\n[[contracts]]\nid = "a-no-json"\ntype = "forbidden"\nsource_modules = '
        '["app.a"]\nforbidden_modules = ["json"]\n'
    )
    root = _project(tmp_path, contracts=contracts)
    runs = [run_layering(root, "check", "--format", format) for _ in range(2)]
    fresh = run_layering(root, "check", "--format", format, "--no-cache")
    assert fresh.returncode == 1, fresh.stdout + fresh.stderr
    for run in runs:
        assert (run.returncode, run.stdout) == (fresh.returncode, fresh.stdout)
    if format == "json":
        verdicts = {c["id"]: c["verdict"] for c in json.loads(fresh.stdout)["contracts"]}
        assert verdicts == {
            "nothing-reaches-b": "kept",
            "c-leaf": "kept",
            "layers": "kept",
            "a-no-json": "broken",
        }


def test_a_cached_run_follows_an_edited_exclude(tmp_path):
    root = _project(tmp_path)
    assert run_layering(root, "check").returncode == 0
    config = root / "contracts.toml"
    config.write_text(config.read_text().replace('"app.tests", ', ""))
    cached, fresh = run_layering(root, "check"), run_layering(root, "check", "--no-cache")
    assert (cached.returncode, cached.stdout) == (fresh.returncode, fresh.stdout)
    assert cached.returncode == 1 and "app.tests.helpers" in cached.stdout


def test_a_contract_pattern_naming_only_excluded_modules_is_an_error(tmp_path):
    contracts = CONTRACTS.replace(
        'forbidden_modules = ["app.b"]', 'forbidden_modules = ["app.tests.*"]'
    )
    contracts = contracts.replace(
        'layers = ["app.c", "app.b"]', 'layers = ["app.c", "app.shop.migrations"]'
    )
    run = run_layering(_project(tmp_path, contracts=contracts), "check")
    assert run.returncode == 2, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    assert (
        "contracts.toml:10: error: contract 'Nothing reaches app.b': 'app.tests.*' in "
        "'forbidden_modules' "
        "matches only modules that 'exclude' leaves out"
    ) in run.stderr
    assert (
        "contracts.toml:22: error: contract 'layers #3': 'app.shop.migrations' in 'layers' "
        "matches only modules that 'exclude' leaves out"
    ) in run.stderr


@pytest.mark.parametrize(
    "exclude, message",
    [
        ('["app.tets"]', "'exclude' entry 'app.tets' matches no module in the package app"),
        ('["app"]', "'exclude' entry 'app' excludes the root package 'app'"),
        ('["app..x"]', "'exclude': 'app..x' is not a module pattern"),
    ],
)
def test_a_bad_exclude_entry_is_a_located_error(tmp_path, exclude, message):
    header = HEADER.replace('["app.tests", "app.*.migrations"]', exclude)
    run = run_layering(_project(tmp_path, header), "check")
    assert run.returncode == 2, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    assert f"contracts.toml:3: error: {message}" in run.stderr
