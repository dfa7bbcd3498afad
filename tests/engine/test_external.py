"""`external`: the package's third-party imports against what its pyproject.toml declares, on
real files through the real CLI. Distributions are read from what is installed where the tests
run (xxhash, tomlkit and pytest are, with layering's test extra)."""

from __future__ import annotations

import json

PYPROJECT = """\
[project]
name = "app"
version = "1"
dependencies = [
  "xxhash>=3",
  "tomlkit",
  "Requests[socks]>=2; python_version >= '3.8'",
]

[project.optional-dependencies]
test = ["pytest"]
"""

CONTRACT = """\
root_packages = ["app"]

[[contracts]]
id = "deps"
name = "Imports and declared dependencies agree"
type = "external"
"""

FILES = {
    "pyproject.toml": PYPROJECT,
    "contracts.toml": CONTRACT,
    "app/__init__.py": "import os\nimport xxhash\n",
    "app/store.py": "from tomlkit import parse\n\ndef load():\n    import requests\n",
    "app/testing.py": "import pytest\n",
}


def test_imports_and_declarations_that_agree_keep_it(project):
    project.write(FILES)
    result = project.check()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "[deps] KEPT" in result.stdout


def test_an_undeclared_import_is_located_at_its_statement(project):
    project.write({**FILES, "app/cli.py": "import os\n\nimport hypothesis.strategies as st\n"})
    result = project.check()
    assert result.returncode == 1, result.stdout
    assert (
        "app/cli.py:3: LY008 app.cli imports hypothesis.strategies, of the distribution"
        " hypothesis, which pyproject.toml does not declare" in result.stdout
    )


def test_a_module_installed_nowhere_is_matched_by_its_own_name_or_the_map(project):
    project.write({**FILES, "app/cli.py": "import tomli_w\nimport yaml\n"})
    result = project.check()
    assert result.returncode == 1
    assert (
        "app/cli.py:1: LY008 app.cli imports tomli_w, which is not installed here, and"
        " pyproject.toml declares no distribution 'tomli_w'" in result.stdout
    )
    project.write(
        {
            "pyproject.toml": PYPROJECT.replace(
                '"tomlkit",', '"tomlkit",\n  "tomli-w",\n  "PyYAML",'
            ),
            "contracts.toml": CONTRACT + 'module_map = { yaml = "PyYAML" }\n',
        }
    )
    # tomli_w and tomli-w are one name as PEP 503 compares them; yaml is PyYAML's.
    assert project.check().returncode == 0


def test_a_declared_dependency_no_module_imports_is_located_at_its_line(project):
    project.write({**FILES, "app/store.py": "def load():\n    import requests\n"})
    result = project.check()
    assert result.returncode == 1, result.stdout
    assert (
        "pyproject.toml:6: LY009 dependency 'tomlkit' is declared and no module of app imports it"
        " (it provides tomlkit)" in result.stdout
    )
    assert "LY009 dependency 'pytest'" not in result.stdout  # an extra need not be imported
    project.write({"contracts.toml": CONTRACT + "unused = false\n"})
    assert project.check().returncode == 0


def test_ignored_distributions_are_neither_required_nor_reported_and_only_shrink(project):
    project.write(
        {
            **FILES,
            "app/cli.py": "import hypothesis\n",
            "contracts.toml": CONTRACT + 'ignore = ["hypothesis", "setuptools"]\n',
        }
    )
    result = project.check()
    assert result.returncode == 1, result.stdout
    assert "LY008" not in result.stdout
    assert (
        "contracts.toml:7: LY030 ignored package 'setuptools' is neither declared nor"
        " imported: remove it" in result.stdout
    )


def test_scope_options_leave_type_checking_imports_out(project):
    project.write(
        {
            **FILES,
            "app/cli.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import "
            "hypothesis\n",
        }
    )
    assert project.check().returncode == 1
    project.write({"contracts.toml": CONTRACT + 'type_checking = "ignore"\n'})
    assert project.check().returncode == 0


def test_bad_options_and_an_unreadable_pyproject_are_located_errors(project):
    project.write({**FILES, "contracts.toml": CONTRACT + 'module_map = ["yaml"]\n'})
    result = project.check()
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert (
        "contracts.toml:7: error: contract 'Imports and declared dependencies agree', option"
        " 'module_map': a table of module = \"Distribution\"" in result.stderr
    )
    project.write({"contracts.toml": CONTRACT + 'pyproject = "nope.toml"\n'})
    result = project.check()
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert (
        "contracts.toml:7: error: contract 'Imports and declared dependencies agree': nope.toml "
        "cannot be read" in result.stderr
    )
    project.write({"contracts.toml": CONTRACT, "pyproject.toml": "[tool.x]\n"})
    result = project.check()
    assert result.returncode == 2
    assert "pyproject.toml has no [project] table" in result.stderr


def test_the_json_report_carries_both_kinds(project):
    project.write({**FILES, "app/store.py": "import hypothesis\n"})
    result = project.check("--format", "json")
    assert result.returncode == 1
    contract = json.loads(result.stdout)["contracts"][0]
    codes = sorted({v["code"] for v in contract["violations"]})
    assert codes == ["LY008", "LY009"]


def test_baseline_leaves_todays_packages_be_and_a_new_one_still_breaks_it(project):
    project.write(
        {**FILES, "app/cli.py": "import hypothesis\n", "app/store.py": "import requests\n"}
    )
    assert project.check().returncode == 1
    baseline = project.layering("baseline")
    assert baseline.returncode == 0, baseline.stdout + baseline.stderr
    written = (project.root / "contracts.toml").read_text()
    assert '"hypothesis", # baseline' in written and '"tomlkit", # baseline' in written
    assert project.check().returncode == 0
    project.write({"app/cli.py": "import hypothesis\nimport pygments\n"})
    broken = project.check()
    assert broken.returncode == 1
    assert "app/cli.py:2: LY008 app.cli imports pygments" in broken.stdout
    project.write({"app/cli.py": "import os\n"})
    prune = project.layering("prune")
    assert prune.returncode == 0, prune.stdout + prune.stderr
    assert "hypothesis" not in (project.root / "contracts.toml").read_text()
