"""`layering init`: the contracts a package's imports justify today, written as a commented
configuration that `layering check` keeps; through the real CLI.

The package: api imports domain and services, both import infra; plugins.a and plugins.b import
nothing of each other; core.x and core.y import each other (a cycle, nothing else in core).
"""

from __future__ import annotations

import sys

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/api/__init__.py": "",
    "src/app/api/views.py": "from app import domain\nimport app.services\n",
    "src/app/domain/__init__.py": "",
    "src/app/domain/model.py": "import app.infra\n",
    "src/app/services/__init__.py": "from app.infra import db\n",
    "src/app/infra/__init__.py": "",
    "src/app/infra/db.py": "import json\n",
    "src/app/plugins/__init__.py": "",
    "src/app/plugins/a.py": "",
    "src/app/plugins/b.py": "",
    "src/app/core.py": "",
}


def init(project, *args: str):
    result = project.layering("init", *args)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def test_the_written_contracts_are_what_the_imports_admit_and_are_kept(project):
    project.write(PACKAGE)
    result = init(project)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "contracts.toml: wrote 2 contracts for app and its subpackages 2 levels deep, each kept "
        "today:",
        "  app-layers: app.api > (app.domain | app.services) > (app.core | app.infra | "
        "app.plugins); "
        "4 pairs of children depend downwards (directly or not), none upwards",
        "  app.plugins-independence: 2 children that import nothing of each other",
    ]
    written = tomllib.loads((project.root / "contracts.toml").read_text())
    assert written["root_packages"] == ["app"]
    assert [c["layers"] for c in written["contracts"] if c["type"] == "layers"] == [
        ["app.api", "app.domain | app.services", "app.core | app.infra | app.plugins"]
    ]
    assert (
        "# layers: a package's children, highest first."
        in (project.root / "contracts.toml").read_text()
    )
    checked = project.check()
    assert checked.returncode == 0, checked.stdout
    assert "Contracts: 2 kept, 0 broken." in checked.stdout


def test_an_import_from_the_lowest_layer_up_to_the_highest_breaks_it(project):
    project.write(PACKAGE)
    assert init(project).returncode == 0
    project.write({"src/app/infra/db.py": "import json\nfrom app.api import views\n"})
    checked = project.check()
    assert checked.returncode == 1
    assert "src/app/infra/db.py:2: LY011 app.infra.db imports app.api.views" in checked.stdout


def test_children_in_a_cycle_share_a_layer(project):
    project.write(
        {
            **PACKAGE,
            "src/app/infra/db.py": "import app.infra.cache\n",
            "src/app/infra/cache.py": "import app.infra.db\n",
            "src/app/infra/log.py": "",
            "src/app/infra/top.py": "import app.infra.db\n",
        }
    )
    assert init(project).returncode == 0
    written = tomllib.loads((project.root / "contracts.toml").read_text())
    infra = [c for c in written["contracts"] if c["id"] == "app.infra-layers"]
    assert infra[0]["layers"] == [
        "app.infra.top",
        "app.infra.cache : app.infra.db : app.infra.log",
    ]
    assert project.check().returncode == 0


def test_an_existing_configuration_is_not_overwritten_without_force(project):
    project.write({**PACKAGE, "contracts.toml": "# mine\n"})
    result = init(project, "app")
    assert result.returncode == 2
    assert "contracts.toml: error: already exists: init does not overwrite it" in result.stderr
    assert (project.root / "contracts.toml").read_text() == "# mine\n"
    assert init(project, "app", "--force").returncode == 0
    assert "app-layers" in (project.root / "contracts.toml").read_text()


def test_pyproject_gets_a_tool_layering_table_and_keeps_the_rest(project):
    project.write({**PACKAGE, "pyproject.toml": '[project]\nname = "app"  # the app\n'})
    result = init(project, "app", "--pyproject")
    assert result.returncode == 0, result.stderr
    text = (project.root / "pyproject.toml").read_text()
    assert text.startswith('[project]\nname = "app"  # the app\n\n')
    assert "[[tool.layering.contracts]]" in text
    assert project.check().returncode == 0
    again = init(project, "app", "--pyproject")
    assert again.returncode == 2
    assert "already holds a [tool.layering] table" in again.stderr


def test_check_says_what_todays_contracts_lack(project):
    project.write(PACKAGE)
    assert init(project).returncode == 0
    same = init(project, "--check")
    assert same.returncode == 0, same.stdout
    assert same.stdout.startswith("contracts.toml: every one of the 2 proposed contracts is there")
    project.write(
        {
            "contracts.toml": (project.root / "contracts.toml")
            .read_text()
            .replace('  "app.domain | app.services",\n', "")
            .replace('"app.api",', '"app.api | app.domain | app.services",')
        }
    )
    differs = init(project, "--check")
    assert differs.returncode == 1
    assert "  differs: 'app-layers' orders the layers otherwise; init proposes app-layers:" in (
        differs.stdout
    )


def test_a_package_that_cannot_be_found_is_an_error_and_exit_2(project):
    project.write(PACKAGE)
    result = init(project, "nope")
    assert result.returncode == 2
    assert "root package 'nope' not found" in result.stderr
    assert not (project.root / "contracts.toml").exists()


CYCLE = {
    **PACKAGE,
    "src/app/infra/db.py": "import app.infra.cache\nimport app.infra.log\n",
    "src/app/infra/cache.py": "def load():\n    import app.infra.db\n",
    "src/app/infra/log.py": "",
    "src/app/infra/top.py": "import app.infra.db\n",
}


def test_with_baseline_children_in_a_cycle_stay_apart_and_todays_upward_chain_is_known(project):
    project.write(CYCLE)
    result = init(project, "--baseline")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "(import cycles kept apart and baselined)" in result.stdout
    assert "1 upwards, baselined as known chains" in result.stdout
    written = tomllib.loads((project.root / "contracts.toml").read_text())
    infra = [c for c in written["contracts"] if c["id"] == "app.infra-layers"][0]
    # db reaches cache and log, cache reaches db: of the cycle, cache reaches the fewest of
    # the rest (a tie, by name), so it is the lower; log, reached by the cycle, lies below it;
    # the one import that runs upwards is today's cache -> db.
    assert infra["layers"] == ["app.infra.top", "app.infra.db", "app.infra.cache", "app.infra.log"]
    assert infra["known_chains"] == ["app.infra.cache -> app.infra.db"]
    assert "# init --baseline " in (project.root / "contracts.toml").read_text()
    checked = project.check()
    assert checked.returncode == 0, checked.stdout
    assert "KEPT (1 allowance in use)" in checked.stdout
    # A new upward chain is not known: it breaks the contract, at the new import.
    project.write({"src/app/infra/log.py": "import app.infra.top\n"})
    broken = project.check()
    assert broken.returncode == 1, broken.stdout
    assert "src/app/infra/log.py:1: LY011 app.infra.log imports app.infra.top" in broken.stdout


def test_without_baseline_the_same_cycle_shares_a_layer(project):
    project.write(CYCLE)
    assert init(project).returncode == 0
    written = tomllib.loads((project.root / "contracts.toml").read_text())
    infra = [c for c in written["contracts"] if c["id"] == "app.infra-layers"][0]
    assert "known_chains" not in infra
    assert infra["layers"][0] == "app.infra.top"
