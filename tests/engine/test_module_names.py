"""Modules whose names are not identifiers (Django's migrations/0001_initial.py) are modules
like any other: in the graph, in the import facts, in patterns and in reports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/db.py": "import json\n",
    "src/app/migrations/__init__.py": "",
    "src/app/migrations/0001_initial.py": "from app import db\n",
    "src/app/migrations/0002_more.py": "import json\n\n\ndef forwards():\n    import app.db\n",
    "src/app/.hidden.py": "import app.db\n",
    "src/app/not.a.module.py": "import app.db\n",
}
HEADER = 'root_packages = ["app"]\nsource_roots = ["src"]\ncache_dir = false\n'


def test_migrations_are_checked_and_located(project):
    project.write(
        {
            **PACKAGE,
            "contracts.toml": HEADER
            + '[[contracts]]\nid = "chains"\ntype = "forbidden"\nsource_modules = '
            '["app.migrations"]\nforbidden_modules = ["app.db"]\n'
            + '[[contracts]]\nid = "leaves"\ntype = "leaf"\nmodules = '
            '["app.migrations.*"]\nwithin = ["app.db"]\n',
        }
    )
    result = project.check()
    assert result.returncode == 1, result.stdout + result.stderr
    assert (
        "  src/app/migrations/0001_initial.py:1: LY001 app.migrations.0001_initial imports "
        "app.db\n" in result.stdout
    )
    assert (
        "  src/app/migrations/0002_more.py:5: LY001 app.migrations.0002_more imports app.db "
        "[function-level]\n" in result.stdout
    )
    assert (
        "  src/app/migrations/0001_initial.py:1: LY003 app.migrations.0001_initial imports "
        "app.db\n" in result.stdout
    )
    assert (
        "  src/app/migrations/0002_more.py:5: LY003 app.migrations.0002_more imports app.db "
        "[function-level]\n" in result.stdout
    )
    assert (
        "hidden" not in result.stdout and "not.a.module" not in result.stdout
    )  # not modules, as for grimp


def test_a_pattern_names_a_migration(project):
    project.write(
        {
            **PACKAGE,
            "contracts.toml": HEADER + '[[contracts]]\nid = "one"\ntype = "leaf"\nmodules = '
            '["app.migrations.0002_more"]\nwithin = ["app.db"]\n',
        }
    )
    result = project.check()
    assert result.returncode == 1, result.stdout + result.stderr
    assert "src/app/migrations/0002_more.py:5: LY003" in result.stdout


def test_same_violations_as_lint_imports(project, tmp_path):
    contract = (
        'name = "c"\ntype = "forbidden"\nsource_modules = ["app.migrations"]\nforbidden_modules = '
        '["app.db"]\n'
    )
    project.write(
        {
            **PACKAGE,
            "contracts.toml": HEADER + "[[contracts]]\n" + contract,
            "importlinter.toml": "[tool.importlinter]\nroot_package = "
            '"app"\n\n[[tool.importlinter.contracts]]\n' + contract,
        }
    )
    ours = project.check("--format", "json")
    theirs = subprocess.run(
        [
            str(Path(sys.executable).parent / "lint-imports"),
            "--config",
            str(tmp_path / "importlinter.toml"),
            "--no-cache",
        ],
        cwd=tmp_path / "src",
        capture_output=True,
        text=True,
    )
    assert ours.returncode == theirs.returncode == 1, theirs.stdout
    for module in ("app.migrations.0001_initial", "app.migrations.0002_more"):
        assert f"{module} -> app.db" in theirs.stdout
        assert f'"importer": "{module}"' in ours.stdout
