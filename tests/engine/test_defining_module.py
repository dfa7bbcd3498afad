"""`defining_module`: a name of the package is taken from the module that defines it, not
through a re-export. Each test runs the real CLI on a small package."""

from __future__ import annotations

import json

import pytest
from report_support import run_layering, write_files

PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/core/__init__.py": "from app.core.engine import Engine\nfrom .config import load as "
    "load_config\n",
    "src/app/core/engine.py": "class Engine:\n    pass\n\nLIMIT = 3\n",
    "src/app/core/config.py": "def load():\n    return {}\n",
    "src/app/api/__init__.py": "from app.core import Engine\n",
    "src/app/executor.py": (
        "from app.core import Engine\n"
        "from app.core import load_config, engine\n"
        "from app.core.engine import LIMIT\n"
        "from app.api import Engine as ApiEngine\n"
    ),
}

HEADER = 'root_packages = ["app"]\nsource_roots = ["src"]\n'

CONTRACT = """
[[contracts]]
id = "names-from-home"
name = "Take each name from the module that defines it"
type = "defining_module"
modules = ["app.executor"]
"""


def _project(tmp_path, contract: str = CONTRACT, files: dict[str, str] | None = None):
    return write_files(tmp_path, {**PACKAGE, **(files or {}), "contracts.toml": HEADER + contract})


def _findings(stdout: str) -> list[str]:
    return [line.strip() for line in stdout.splitlines() if ": LY0" in line]


def test_a_name_taken_through_a_re_export_names_its_home(tmp_path):
    run = run_layering(_project(tmp_path), "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    assert _findings(run.stdout) == [
        "src/app/executor.py:1: LY007 app.executor takes Engine from app.core; it is defined in "
        "app.core.engine",
        "src/app/executor.py:2: LY007 app.executor takes load_config from app.core; it is defined "
        "in app.core.config as load",
        "src/app/executor.py:4: LY007 app.executor takes Engine from app.api; it is defined in "
        "app.core.engine (re-exported through app.core)",
    ]


def test_one_finding_per_statement_and_home(tmp_path):
    files = {
        "src/app/core/__init__.py": (
            "from app.core.engine import Engine, LIMIT\nfrom .config import load as load_config\n"
        ),
        "src/app/executor.py": "from app.core import (\n    LIMIT,\n    load_config,\n    "
        "Engine,\n)\n",
    }
    run = run_layering(_project(tmp_path, files=files), "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    assert _findings(run.stdout) == [
        "src/app/executor.py:2: LY007 app.executor takes Engine, LIMIT from app.core; they are "
        "defined in app.core.engine",
        "src/app/executor.py:3: LY007 app.executor takes load_config from app.core; it is defined "
        "in app.core.config as load",
    ]


def test_names_defined_where_they_are_taken_and_submodules_are_fine(tmp_path):
    files = {
        "src/app/executor.py": "from app.core.engine import Engine, LIMIT\nfrom app.core import "
        "engine\n"
    }
    run = run_layering(_project(tmp_path, files=files), "check", "--no-cache")
    assert run.returncode == 0, run.stdout + run.stderr
    assert _findings(run.stdout) == []


def test_a_facade_is_the_surface_for_modules_outside_it_only(tmp_path):
    contract = CONTRACT.replace('modules = ["app.executor"]', 'facades = ["app.api"]')
    files = {
        "src/app/api/routes.py": "from app.api import Engine\n",
        "src/app/executor.py": "from app.api import Engine\n",
    }
    run = run_layering(_project(tmp_path, contract, files), "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    # modules = default, the root packages: app.api's own re-export is checked too
    assert _findings(run.stdout) == [
        "src/app/api/__init__.py:1: LY007 app.api takes Engine from app.core; it is defined in "
        "app.core.engine",
        "src/app/api/routes.py:1: LY007 app.api.routes takes Engine from app.api; it is defined "
        "in app.core.engine (re-exported through app.core)",
    ]


def test_what_the_source_cannot_tell_is_not_guessed(tmp_path):
    files = {
        "src/app/core/__init__.py": (
            "from app.core.engine import *\n"
            "from json import dumps\n"
            "try:\n    from app.core.config import load\nexcept ImportError:\n    load = None\n"
        ),
        "src/app/cycle_a.py": "from app.cycle_b import thing\n",
        "src/app/cycle_b.py": "from app.cycle_a import thing\n",
        "src/app/executor.py": (
            "from app.core import Engine, dumps, load\n"
            "from app.cycle_a import thing\n"
            "from app.core import *\n"
        ),
    }
    run = run_layering(_project(tmp_path, files=files), "check", "--no-cache")
    assert run.returncode == 0, run.stdout + run.stderr
    assert _findings(run.stdout) == []


def test_allowances_excuse_and_go_stale(tmp_path):
    contract = CONTRACT + (
        'allow = [{ module = "app.core", names = ["Engine"] }, "app.api", '
        '{ module = "app.core", names = ["Gone"] }]\n'
    )
    run = run_layering(_project(tmp_path, contract), "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    findings = _findings(run.stdout)
    assert findings[0] == (
        "src/app/executor.py:2: LY007 app.executor takes load_config from app.core; it is defined "
        "in app.core.config as load"
    )
    assert len(findings) == 2
    assert "LY030" in findings[1] and "'app.core (Gone)'" in findings[1]


def test_baseline_writes_allowances_that_keep_it(tmp_path):
    root = _project(tmp_path)
    run = run_layering(root, "baseline")
    assert run.returncode == 0, run.stdout + run.stderr
    text = (root / "contracts.toml").read_text()
    assert "load_config" in text and "app.api" in text
    again = run_layering(root, "check", "--no-cache")
    assert again.returncode == 0, again.stdout + again.stderr


@pytest.mark.parametrize("fmt", ["json", "github", "sarif"])
def test_every_format_carries_the_findings(tmp_path, fmt):
    run = run_layering(_project(tmp_path), "check", "--no-cache", "--format", fmt)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "it is defined in app.core.config as load" in run.stdout
    if fmt != "github":
        json.loads(run.stdout)


def test_the_cached_verdict_follows_an_edit_of_the_re_exporting_module(tmp_path):
    root = _project(tmp_path)
    first = run_layering(root, "check")
    assert first.returncode == 1, first.stdout + first.stderr
    second = run_layering(root, "check")
    assert _findings(second.stdout) == _findings(first.stdout)
    # app.core now defines Engine itself: the importer's file is unchanged
    (root / "src/app/core/__init__.py").write_text(
        "class Engine:\n    pass\n\nfrom .config import load as load_config\n"
    )
    third = run_layering(root, "check")
    assert third.returncode == 1, third.stdout + third.stderr
    assert [f for f in _findings(third.stdout) if "executor.py:1:" in f] == []
    assert _findings(third.stdout) == _findings(run_layering(root, "check", "--no-cache").stdout)


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("facades", '["app.nowhere"]', "'app.nowhere' in 'facades' matches no module"),
        ("unchecked", "3", "option 'unchecked'"),
        ("allow", '[{ module = "app.core", nams = ["X"] }]', "unknown key 'nams'"),
        ("within", '["app"]', "unrecognized option 'within'"),
    ],
)
def test_a_bad_option_is_a_located_error(tmp_path, option, value, said):
    root = _project(tmp_path, CONTRACT + f"{option} = {value}\n")
    run = run_layering(root, "check", "--no-cache")
    assert run.returncode == 2, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    assert said in run.stdout + run.stderr
    text = (root / "contracts.toml").read_text().splitlines()
    line = next(n for n, t in enumerate(text, 1) if t.startswith(f"{option} ="))
    assert f"contracts.toml:{line}:" in run.stdout + run.stderr


@pytest.mark.parametrize(
    "scope", ["", 'function_level = "ignore"\n', 'unchecked = ["app.executor"]\n']
)
def test_the_contracts_scope_and_unchecked_modules_apply(tmp_path, scope):
    files = {"src/app/executor.py": "def run():\n    from app.core import Engine\n"}
    run = run_layering(_project(tmp_path, CONTRACT + scope, files), "check", "--no-cache")
    if scope:
        assert run.returncode == 0, run.stdout + run.stderr
        assert _findings(run.stdout) == []
    else:
        assert run.returncode == 1, run.stdout + run.stderr
        assert _findings(run.stdout) == [
            "src/app/executor.py:2: LY007 app.executor takes Engine from app.core; it is defined "
            "in app.core.engine [function-level]"
        ]
