"""Namespace packages as root packages, found as the import system (and import-linter) finds
them."""

from __future__ import annotations

from importlinter_configs import layering, lint_imports

SPLIT = {
    "one/nsp/api/__init__.py": "",
    "one/nsp/api/views.py": "import nsp.db.tables\n",
    "two/nsp/db/__init__.py": "",
    "two/nsp/db/tables.py": "",
}
DEEP = {
    "src/ns/sub/portion/__init__.py": "",
    "src/ns/sub/portion/a.py": "from ns.sub.portion import b\n",
    "src/ns/sub/portion/b.py": "",
}


def test_a_namespace_root_package_split_over_two_directories(project, tmp_path):
    contract = (
        '[[{prefix}contracts]]\nname = "API without the database"\ntype = '
        '"forbidden"\nsource_modules = ["nsp.api"]\nforbidden_modules = ["nsp.db"]\n'
    )
    project.write(
        {
            **SPLIT,
            "contracts.toml": 'root_packages = ["nsp"]\nsource_roots = ["one", "two"]\n\n'
            + contract.format(prefix=""),
            "il/pyproject.toml": '[tool.importlinter]\nroot_package = "nsp"\n\n'
            + contract.format(prefix="tool.importlinter."),
        }
    )
    theirs = lint_imports(tmp_path / "il", pythonpath=f"{tmp_path / 'one'}:{tmp_path / 'two'}")
    ours = layering(project)
    assert ours[1] == theirs[1] == {"API without the database": "BROKEN"}
    assert ours[0] == theirs[0] == 1
    assert (
        "one/nsp/api/views.py:1: LY001 nsp.api.views imports nsp.db.tables"
        in project.check("--no-cache").stdout
    )


def test_a_root_package_under_two_namespace_levels(project, tmp_path):
    contract = (
        '[[{prefix}contracts]]\nname = "b above a"\ntype = "layers"\nlayers = '
        '["ns.sub.portion.b", "ns.sub.portion.a"]\n'
    )
    project.write(
        {
            **DEEP,
            "contracts.toml": 'root_packages = ["ns.sub.portion"]\n\n'
            + contract.format(prefix=""),
            "il/pyproject.toml": '[tool.importlinter]\nroot_package = "ns.sub.portion"\n\n'
            + contract.format(prefix="tool.importlinter."),
        }
    )
    theirs = lint_imports(tmp_path / "il", pythonpath=str(tmp_path / "src"))
    ours = layering(project)
    assert ours[1] == theirs[1] == {"b above a": "BROKEN"}
    assert ours[0] == theirs[0] == 1
