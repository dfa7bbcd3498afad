"""`layering prune` removes what no longer matches, keeps every comment, and writes atomically."""

from __future__ import annotations

from importlinter_configs import SHOP, write_config

PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/a.py": "from app.b import used\n",
    "src/app/b.py": "used = 1\n",
    "src/app/c.py": "",
    "src/app/clean.py": "import json\n",
}

CONTRACTS = """\
# Layering contracts for app.
root_packages = ["app"]
source_roots = ["src"]

[[contracts]]
id = "a-not-b"    # the rule
name = "a does not import b"
type = "forbidden"
source_modules = ["app.a"]
forbidden_modules = ["app.b", "app.c"]
allow_indirect_imports = true
allow = [
  { importer = "app.a", module = "app.b", names = ["used"] },   # still needed
  "app.a -> app.c",                                              # stale: a no longer imports c
]
ignore_imports = ["app.a -> app.c"]   # stale too

[[contracts]]
id = "kept"
name = "clean imports nothing of app"
type = "leaf"
modules = ["app.clean"]
within = ["app"]
expect = "broken"   # no longer true

[[contracts]]
id = "probe"
name = "clean does not load b"
type = "probe"
modules = ["app.clean", "app.a"]
forbidden = ["app.b"]
expect_loaded = ["app.clean", "app.a"]   # app.clean no longer loads it
"""

AFTER = """\
# Layering contracts for app.
root_packages = ["app"]
source_roots = ["src"]

[[contracts]]
id = "a-not-b"    # the rule
name = "a does not import b"
type = "forbidden"
source_modules = ["app.a"]
forbidden_modules = ["app.b", "app.c"]
allow_indirect_imports = true
allow = [
  { importer = "app.a", module = "app.b", names = ["used"] },   # still needed
]
ignore_imports = []   # stale too

[[contracts]]
id = "kept"
name = "clean imports nothing of app"
type = "leaf"
modules = ["app.clean"]
within = ["app"]

[[contracts]]
id = "probe"
name = "clean does not load b"
type = "probe"
modules = ["app.clean", "app.a"]
forbidden = ["app.b"]
expect_loaded = ["app.a"]   # app.clean no longer loads it
"""


def prune(project, *args):
    return project.layering("prune", *args)


def test_prune_removes_stale_entries_and_keeps_comments(project):
    project.write({**PACKAGE, "contracts.toml": CONTRACTS})
    assert project.check().returncode == 1
    result = prune(project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == [
        "contracts.toml: removed allow[1] 'app.a -> app.c' from contract 'a does not import b'",
        "contracts.toml: removed ignore_imports[0] 'app.a -> app.c' from contract 'a does not "
        "import b'",
        "contracts.toml: removed expect 'expect = \"broken\"' from contract 'clean imports "
        "nothing of app'",
        "contracts.toml: removed expect_loaded[0] 'app.clean' from contract 'clean does not load "
        "b'",
    ]
    assert (project.root / "contracts.toml").read_text() == AFTER
    after = project.check()
    assert after.returncode == 0, after.stdout
    assert prune(project).stdout == "contracts.toml: nothing stale to remove\n"


def test_prune_leaves_undecided_contracts_and_their_file_alone(project):
    project.write(
        {
            **PACKAGE,
            "src/app/a.py": "from app.b import used\ndef broken(:\n",
            "contracts.toml": CONTRACTS,
        }
    )
    before = (project.root / "contracts.toml").read_bytes()
    result = prune(project, "--no-probe")
    assert result.returncode == 2
    assert (
        "contract 'a does not import b' could not be decided; its entries were left alone"
        in result.stdout
    )
    assert (
        "removed expect 'expect = \"broken\"' from contract 'clean imports nothing of app'"
        in result.stdout
    )
    text = (project.root / "contracts.toml").read_text()
    assert '"app.a -> app.c",' in text and 'expect = "broken"' not in text
    assert before != text.encode()


def test_prune_in_pyproject(project):
    text = "[tool.layering]\n" + CONTRACTS.replace(
        "[[contracts]]", "[[tool.layering.contracts]]"
    ).replace("# Layering contracts for app.\n", "")
    project.write({**PACKAGE, "pyproject.toml": "[project]\nname = 'x'  # keep me\n\n" + text})
    result = prune(project, "--no-probe")
    assert result.returncode == 0, result.stdout + result.stderr
    written = (project.root / "pyproject.toml").read_text()
    assert "name = 'x'  # keep me" in written
    assert '"app.a -> app.c",' not in written and 'expect = "broken"' not in written
    assert 'expect_loaded = ["app.clean", "app.a"]' in written  # probes were left out


def test_prune_with_a_bad_configuration_changes_nothing(project):
    project.write({**PACKAGE, "contracts.toml": CONTRACTS + "\n[[contracts]]\ntype = 'nope'\n"})
    before = (project.root / "contracts.toml").read_bytes()
    result = prune(project)
    assert result.returncode == 2
    assert "type 'nope' is not a contract type" in result.stderr
    assert (project.root / "contracts.toml").read_bytes() == before


def test_a_name_no_import_takes_is_stale_and_prune_removes_only_that_name(project):
    contracts = (
        'root_packages = ["app"]\nsource_roots = ["src"]\n\n[[contracts]]\nid = "leaf"\ntype = '
        '"leaf"\n'
        'modules = ["app.a"]\nwithin = ["app.b"]\n'
        'allow = [\n  { module = "app.b", names = ["used", "gone"] },   # keep this comment\n]\n'
    )
    project.write({**PACKAGE, "contracts.toml": contracts})
    check = project.check()
    assert check.returncode == 1
    assert (
        "contracts.toml:10: LY030 allowance 'app.b (used, gone)': no import takes 'gone' any "
        "more: remove the name" in check.stdout
    )
    assert "app.a imports app.b" not in check.stdout  # `used` is still excused
    pruned = project.layering("prune")
    assert pruned.returncode == 0, pruned.stdout + pruned.stderr
    assert "removed name 'gone' of allow[0]" in pruned.stdout
    assert (project.root / "contracts.toml").read_text() == contracts.replace(
        '["used", "gone"]', '["used"]'
    )
    assert project.check().returncode == 0


def test_prune_edits_import_linters_files_in_place(project, tmp_path):
    """A stale ignored import goes from an INI list (its line) and from [tool.importlinter]."""
    project.write(SHOP)
    contracts = [
        (
            "layers",
            {
                "name": "Layers",
                "type": "layers",
                "layers": ["shop.gui", "shop.api"],
                "ignore_imports": [
                    "shop.api.views -> shop.gui",
                    "shop.api.views -> shop.domain.orders",
                ],
            },
        )
    ]
    for file_format in (".importlinter", "pyproject.toml"):
        path = write_config(tmp_path, file_format, {"root_package": "shop"}, contracts)
        before = path.read_text()
        result = project.layering("prune")
        assert result.returncode == 0, result.stderr
        assert (
            f"{file_format}: removed ignore_imports[0] 'shop.api.views -> shop.gui' from contract "
            "'Layers'" in result.stdout
        )
        after = path.read_text()
        assert [line for line in before.splitlines() if line not in after.splitlines()] == [
            next(line for line in before.splitlines() if "shop.api.views -> shop.gui" in line)
        ]
        assert project.check().returncode == 0
        path.unlink()
