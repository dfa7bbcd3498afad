"""The edits the benchmark makes to copies of real packages: each leaves valid Python, and
removing the imports of the cut layering reports keeps the contract."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from layering_bench.source_edits import (
    ImportToRemove,
    append_import,
    edit_function_body,
    first_module_not_imported,
    import_statements,
    middle_module_with_function,
    remove_imports,
)

CHAINS = {
    "contracts.toml": """
        root_packages = ["app"]
        source_roots = ["src"]

        [[contracts]]
        id = "cut"
        type = "forbidden"
        source_modules = ["app.low"]
        forbidden_modules = ["app.db"]
    """,
    "src/app/__init__.py": "",
    "src/app/low/__init__.py": "",
    "src/app/low/a.py": "from app.mid import b\nimport app.mid.c; import json\nfrom ..mid import "
    "d\n",
    "src/app/mid/__init__.py": "",
    "src/app/mid/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING: from app.db import "
    "models\n",
    "src/app/mid/c.py": "def f():\n    from app.db import (\n        models,\n        query,\n    "
    ")\n    return models, query\n",
    "src/app/mid/d.py": "try:\n    from app.db.models import Model\nexcept ImportError:\n    "
    "Model = None\n",
    "src/app/db/__init__.py": "",
    "src/app/db/models.py": "Model = object\n",
    "src/app/db/query.py": "",
}


def cut_of(project) -> list[dict]:
    result = project.check("--no-cache", "--format", "json")
    assert result.returncode == 1, result.stderr
    return json.loads(result.stdout)["contracts"][0]["cut"]


def removals(project, cut: list[dict]) -> list[ImportToRemove]:
    return [
        ImportToRemove(project.root / e["path"], e["importer"], e["imported"], tuple(e["lines"]))
        for e in cut
    ]


def test_removing_the_reported_cut_keeps_the_contract(project):
    project.write(CHAINS)
    cut = cut_of(project)

    replaced, problems = remove_imports(removals(project, cut))

    assert problems == []
    assert replaced == len({(e["path"], line) for e in cut for line in e["lines"]})
    assert project.check("--no-cache").returncode == 0
    for path in (project.root / "src/app").rglob("*.py"):
        ast.parse(path.read_bytes())


def test_a_removed_statement_becomes_pass_at_its_place_and_its_neighbours_stay(tmp_path):
    path = tmp_path / "app" / "low" / "a.py"
    path.parent.mkdir(parents=True)
    path.write_text(
        "import app.mid.c; import json\nif True: from app.db import (\n    models,\n)\n  # "
        "x\nfrom ..mid import d, e\n"
    )

    replaced, problems = remove_imports(
        [
            ImportToRemove(path, "app.low.a", "app.mid.c", (1,)),
            ImportToRemove(path, "app.low.a", "app.db", (2, 3)),
            ImportToRemove(path, "app.low.a", "app.mid.d", (6,)),
            ImportToRemove(path, "app.low.a", "app.mid.e", (6,)),
        ]
    )

    assert (replaced, problems) == (3, [])
    assert path.read_text() == "pass; import json\nif True: pass\n  # x\npass\n"


def test_an_import_not_at_the_reported_line_is_a_problem(tmp_path):
    path = tmp_path / "app" / "a.py"
    path.parent.mkdir()
    path.write_text("import json\nimport app.b\n")

    replaced, problems = remove_imports([ImportToRemove(path, "app.a", "app.b", (1,))])

    assert replaced == 0
    assert problems == [f"{path}:1: no import of app.b found"]


def test_a_body_edit_keeps_the_imports_and_the_verdict(project):
    project.write(CHAINS)
    path = project.root / "src/app/mid/c.py"
    before = ast.dump(ast.Module(import_statements(ast.parse(path.read_bytes())), []))

    edit_function_body(path)

    after = ast.parse(path.read_bytes())
    assert ast.dump(ast.Module(import_statements(after), [])) == before
    assert path.read_text().endswith(
        "    return models, query\n    pass  # edited by bench/run.py\n"
    )
    assert project.check("--no-cache").returncode == 1


def test_the_edited_module_is_the_middle_one_with_a_function(tmp_path):
    package = tmp_path / "app"
    (package / "sub").mkdir(parents=True)
    (package / "loose").mkdir()  # no __init__.py: not a package, its files are not modules
    for name, text in {
        "__init__.py": "def f():\n    pass\n",
        "a.py": "def f():\n    pass\n",
        "b.py": "x = 1\n",
        "c.py": "def g(): return 1\n",  # a body on the def's line cannot take a statement
        "d.py": "class C:\n    def m(self):\n        return 1\n",
        "sub/__init__.py": "",
        "loose/e.py": "def f():\n    pass\n",
    }.items():
        (package / name).write_text(text)

    assert middle_module_with_function(package) == package / "d.py"


def test_d2_imports_the_first_module_of_the_layer_not_imported_yet(tmp_path):
    package = tmp_path / "app"
    (package / "util").mkdir(parents=True)
    for name in ("__init__.py", "util/__init__.py", "util/a.py", "util/b.py"):
        (package / name).write_text("")
    edited = package / "top.py"
    edited.write_text("from app import util\nfrom .util import a\n")

    added = first_module_not_imported(package, "app.util", edited)
    append_import(edited, added)

    assert added == "app.util.b"
    assert edited.read_text().endswith(
        "from .util import a\nimport app.util.b  # added by bench/run.py\n"
    )


@pytest.mark.parametrize("source", ["x = 1", "x = 1\n"])
def test_an_appended_import_starts_on_a_line_of_its_own(tmp_path: Path, source: str):
    path = tmp_path / "m.py"
    path.write_text(source)

    append_import(path, "app.util")

    assert path.read_text() == "x = 1\nimport app.util  # added by bench/run.py\n"
