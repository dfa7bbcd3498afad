"""Name-level targets: `forbidden_names` on `forbidden`, name tables in `leaf`'s `within`.

Each test writes a small package, runs the real CLI, and reads the lines it prints.
"""

from __future__ import annotations

import json

import pytest

HEADER = """\
root_packages = ["app"]
source_roots = ["src"]
cache_dir = false
"""

MOVED = """
[[contracts]]
id = "moved"
name = "Moved names"
type = "forbidden"
source_modules = ["app"]
forbidden_names = [{ module = "app.old", names = ["MOVED", "moved_func"] }]
"""

OLD = "KEPT = 1\nMOVED = 2\n\ndef moved_func():\n    pass\n\ndef _private():\n    pass\n"


def run(project, files: dict[str, str], contracts: str = MOVED, *args: str):
    project.write(
        {
            "src/app/__init__.py": "",
            "src/app/old.py": OLD,
            **files,
            "contracts.toml": HEADER + contracts,
        }
    )
    result = project.check(*args)
    assert "Traceback" not in result.stdout + result.stderr
    return result


def findings(result) -> list[str]:
    return [line.strip() for line in result.stdout.splitlines() if line.startswith("  ")]


def test_other_names_of_the_module_and_the_module_itself_stay_allowed(project):
    result = run(
        project,
        {
            "src/app/user.py": "import app.old\nfrom app import old\nfrom app.old import KEPT\nx "
            "= old.KEPT\n"
        },
    )
    assert result.returncode == 0, result.stdout


def test_each_statement_is_one_finding_at_its_first_forbidden_name(project):
    result = run(
        project,
        {"src/app/user.py": "from app.old import (\n    KEPT,\n    moved_func,\n    MOVED,\n)\n"},
    )
    assert result.returncode == 1
    assert findings(result) == [
        "src/app/user.py:3: LY005 app.user imports app.old (MOVED, moved_func)"
    ]


@pytest.mark.parametrize(
    ("source", "line", "mark"),
    [
        ("from app import old as o\n\nX = o.MOVED\n", 3, "attribute"),
        ("import app.old\n\nX = app.old.MOVED\n", 3, "attribute"),
        ("from . import old\n\nold.MOVED = 3\n", 3, "attribute"),
        ("from app import old\n\nX = getattr(old, 'moved_func')\n", 3, "getattr"),
        (
            "from app import old\n\ndef t(monkeypatch):\n    monkeypatch.setattr(old, 'MOVED', "
            "0)\n",
            4,
            "patch, function-level",
        ),
        (
            "def t(monkeypatch):\n    monkeypatch.setattr('app.old.MOVED', 0)\n",
            2,
            "patch, function-level",
        ),
        (
            "from unittest import mock\n\n@mock.patch('app.old.moved_func')\ndef t(m):\n    pass\n",
            3,
            "patch",
        ),
        (
            "from unittest.mock import patch\nfrom app import old\n\nwith patch.object(old, "
            "'MOVED'):\n    pass\n",
            4,
            "patch",
        ),
    ],
)
def test_a_use_on_the_module_imported_whole_is_one_marked_finding_at_its_line(
    project, source, line, mark
):
    result = run(project, {"src/app/user.py": source})
    assert result.returncode == 1, result.stdout
    name = "moved_func" if "moved_func" in source else "MOVED"
    assert findings(result) == [
        f"src/app/user.py:{line}: LY005 app.user imports app.old ({name}) [{mark}]"
    ]


def test_a_shadowed_alias_and_a_computed_name_are_not_uses(project):
    source = (
        "from app import old\n\n"
        "def f(old):\n    return old.MOVED\n\n"
        "def g(name):\n    return getattr(old, name)\n\n"
        "ALSO = [old.MOVED for old in ()]\n"
    )
    result = run(project, {"src/app/user.py": source})
    assert result.returncode == 0, result.stdout


def test_a_star_import_takes_the_public_names_the_module_defines(project):
    result = run(project, {"src/app/user.py": "from app.old import *\n"})
    assert result.returncode == 1
    assert findings(result) == [
        "src/app/user.py:1: LY005 app.user imports app.old (MOVED, moved_func)"
    ]


def test_star_patterns_name_the_private_names(project):
    contracts = MOVED.replace('names = ["MOVED", "moved_func"]', 'names = ["_*"]')
    result = run(project, {"src/app/user.py": "from app.old import KEPT, _private\n"}, contracts)
    assert result.returncode == 1
    assert findings(result) == ["src/app/user.py:1: LY005 app.user imports app.old (_private)"]


def test_allowances_excuse_name_by_name_and_only_shrink(project):
    contracts = (
        MOVED + 'allow = [{ importer = "app.user", module = "app.old", names = ["MOVED"] }]\n'
    )
    result = run(
        project,
        {"src/app/user.py": "from app import old\n\nA = old.MOVED\nB = old.moved_func\n"},
        contracts,
    )
    assert result.returncode == 1
    assert findings(result) == [
        "src/app/user.py:4: LY005 app.user imports app.old (moved_func) [attribute]"
    ]
    kept = run(project, {"src/app/user.py": "from app import old\n\nA = old.MOVED\n"}, contracts)
    assert kept.returncode == 0, kept.stdout
    stale = run(project, {"src/app/user.py": ""}, contracts)
    assert stale.returncode == 1
    assert (
        "LY030 allowance 'app.user -> app.old (MOVED)' matches no import: remove it"
        in stale.stdout
    )


def test_names_and_modules_in_one_contract(project):
    contracts = MOVED.replace(
        "forbidden_names",
        'forbidden_modules = ["json"]\nallow_indirect_imports = true\nforbidden_names',
    )
    result = run(
        project, {"src/app/user.py": "import json\nfrom app.old import MOVED\n"}, contracts
    )
    assert result.returncode == 1
    assert findings(result) == [
        "src/app/user.py:1: LY001 app.user imports json",
        "src/app/user.py:2: LY005 app.user imports app.old (MOVED)",
    ]


def test_type_checking_uses_are_marked_and_can_be_left_out(project):
    source = (
        "from typing import TYPE_CHECKING\n\nfrom app import old\n\nif TYPE_CHECKING:\n    X = "
        "old.MOVED\n"
    )
    result = run(project, {"src/app/user.py": source})
    assert findings(result) == [
        "src/app/user.py:6: LY005 app.user imports app.old (MOVED) [attribute, TYPE_CHECKING]"
    ]
    left_out = run(
        project, {"src/app/user.py": source}, "exclude_type_checking_imports = true\n" + MOVED
    )
    assert left_out.returncode == 0, left_out.stdout


def test_json_carries_the_names_and_the_marks(project):
    result = run(
        project,
        {"src/app/user.py": "import app.old as o\n\ndef f():\n    return o.moved_func\n"},
        MOVED,
        "--format",
        "json",
    )
    (violation,) = json.loads(result.stdout)["contracts"][0]["violations"]
    assert violation["code"] == "LY005"
    assert (violation["path"], violation["line"]) == ("src/app/user.py", 4)
    assert (violation["importer"], violation["imported"], violation["names"]) == (
        "app.user",
        "app.old",
        ["moved_func"],
    )
    assert violation["qualifiers"] == ["attribute", "function-level"]


def test_a_name_the_module_does_not_define_is_a_note_on_a_kept_contract(project):
    contracts = MOVED.replace(
        'names = ["MOVED", "moved_func"]', 'names = ["MOVED", "movd_func", "_gone_*"]'
    )
    result = run(project, {}, contracts)
    assert result.returncode == 0
    assert result.stderr.startswith(
        "layering: warning: contracts.toml:10: contract 'Moved names': 'app.old' does not define "
        "'movd_func', '_gone_*' "
        "(2 of its 3 names); a note, not a failure: keep the rule so they do not come back, "
        "retire it, or fix a misspelt name\n"
    )
    assert "Moved names [moved] KEPT\n" in result.stdout
    as_json = run(project, {}, contracts, "--format", "json")
    assert len(json.loads(as_json.stdout)["warnings"]) == 1


def test_no_note_where_the_module_may_define_any_name(project):
    contracts = MOVED.replace('names = ["MOVED", "moved_func"]', 'names = ["ANYTHING"]')
    result = run(
        project, {"src/app/old.py": "def __getattr__(name):\n    return name\n"}, contracts
    )
    assert result.returncode == 0
    assert "warning" not in result.stdout + result.stderr


def test_a_leaf_may_import_a_module_but_not_some_of_its_names(project):
    contracts = """
[[contracts]]
name = "leaf"
type = "leaf"
modules = ["app.leaf"]
within = ["app.other", { module = "app.old", names = ["moved_*"] }]
"""
    files = {
        "src/app/other.py": "",
        "src/app/leaf.py": "from app.old import KEPT\nfrom app import old\n\nF = old.moved_func\n",
    }
    result = run(project, files, contracts)
    assert result.returncode == 1
    assert findings(result) == [
        "src/app/leaf.py:4: LY003 app.leaf imports app.old (moved_func) [attribute]"
    ]


@pytest.mark.parametrize(
    ("contracts", "message"),
    [
        (
            MOVED.replace(
                'forbidden_names = [{ module = "app.old", names = ["MOVED", "moved_func"] }]', ""
            ),
            "contracts.toml:8: error: contract 'Moved names': missing required option "
            "'forbidden_modules' or 'forbidden_names' (or both)",
        ),
        (
            MOVED.replace('names = ["MOVED", "moved_func"]', 'names = ["MOVED"], name = "x"'),
            "contracts.toml:10: error: contract 'Moved names', option 'forbidden_names': unknown "
            "key 'name' in a name-level target (keys: module, names)",
        ),
        (
            MOVED.replace('names = ["MOVED", "moved_func"]', 'names = ["app.old.MOVED"]'),
            "contracts.toml:10: error: contract 'Moved names', option 'forbidden_names': "
            "'app.old.MOVED' is not a name (names take '*' for any characters: '_*')",
        ),
        (
            MOVED.replace('[{ module = "app.old", names = ["MOVED", "moved_func"] }]', "[]"),
            "contracts.toml:10: error: contract 'Moved names', option 'forbidden_names': expected "
            'a list of { module = "...", names = [...] } tables, got []',
        ),
        (
            MOVED.replace('"app.old"', '"app.gone"'),
            "contracts.toml:10: error: contract 'Moved names': 'app.gone' in 'forbidden_names' "
            "matches no module in the package app",
        ),
        (
            MOVED.replace("forbidden_names", 'forbidden_modules = ["app"]\nforbidden_names'),
            "contracts.toml:11: error: contract 'Moved names': the names of 'app.old' in "
            "'forbidden_names' are already covered by 'app'",
        ),
        (
            MOVED + 'ignore_imports = ["app.user -> app.old"]\n',
            "contracts.toml:11: error: contract 'Moved names': ignore_imports leaves imports out "
            "of the graph of forbidden_modules, which this contract does not have",
        ),
        (
            '\n[[contracts]]\nname = "leaf"\ntype = "leaf"\nmodules = ["app.old"]\nwithin = '
            '["app", { module = "app.old", names = ["X"] }]\n',
            "contracts.toml:9: error: contract 'leaf': the names of 'app.old' in 'within' are "
            "already covered by 'app'",
        ),
    ],
)
def test_bad_name_level_options_are_located_errors(project, contracts, message):
    result = run(project, {}, contracts)
    assert result.returncode == 2
    assert message in result.stderr, result.stderr
