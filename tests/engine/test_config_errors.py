"""Every bad configuration is a located, actionable error with exit code 2, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/a.py": "from app import b\n",
    "src/app/b.py": "import json\n",
}

HEADER = """\
root_packages = ["app"]
source_roots = ["src"]
"""

FORBIDDEN = """
[[contracts]]
id = "one"
name = "a does not import b"
type = "forbidden"
source_modules = ["app.a"]
forbidden_modules = ["app.b"]
"""


def run_config(project, text: str):
    project.write({**PACKAGE, "contracts.toml": text})
    result = project.check()
    assert "Traceback" not in result.stderr + result.stdout
    return result


def test_toml_syntax_error_gives_line_and_column(project):
    result = run_config(project, HEADER + "[[contracts]\nname = 'x'\n")
    assert result.returncode == 2
    assert "contracts.toml:3:" in result.stderr
    assert "TOML syntax error" in result.stderr


def test_unknown_top_level_key_suggests_the_right_one(project):
    result = run_config(project, HEADER + "exclude_typechecking_imports = true\n" + FORBIDDEN)
    assert result.returncode == 2
    assert (
        "contracts.toml:3: error: unknown option 'exclude_typechecking_imports'. Did you mean "
        "'exclude_type_checking_imports'?" in result.stderr
    )


def test_unknown_contract_option_suggests_the_right_one(project):
    result = run_config(project, HEADER + FORBIDDEN + "allow_indirect_import = true\n")
    assert result.returncode == 2
    assert (
        "contracts.toml:10: error: contract 'a does not import b': unrecognized option "
        "'allow_indirect_import'. Did you mean 'allow_indirect_imports'?" in result.stderr
    )


def test_unknown_contract_type_lists_known_types(project):
    result = run_config(project, HEADER + FORBIDDEN.replace('"forbidden"', '"forbiden"'))
    assert result.returncode == 2
    assert (
        "contracts.toml:7: error: contract 'a does not import b': type 'forbiden' is not a "
        "contract type. Did you mean 'forbidden'?" in result.stderr
    )
    assert (
        "known types: acyclic_siblings, contained, defining_module, external, forbidden, "
        "independence, interface, layers, leaf, loads, private_modules, probe, protected"
        in result.stderr
    )


def test_pattern_matching_no_module_is_an_error_not_a_pass(project):
    result = run_config(project, HEADER + FORBIDDEN.replace('["app.b"]', '["app.nothing"]'))
    assert result.returncode == 2
    assert (
        "contracts.toml:9: error: contract 'a does not import b': 'app.nothing' in "
        "'forbidden_modules' matches no module" in result.stderr
    )
    assert "cannot fail" in result.stderr


def test_duplicate_id(project):
    result = run_config(
        project, HEADER + FORBIDDEN + FORBIDDEN.replace("a does not", "again, a does not")
    )
    assert result.returncode == 2
    assert (
        "contracts.toml:12: error: duplicate contract id 'one' (first used on line 5)"
        in result.stderr
    )


def test_a_string_is_a_list_of_one_for_root_packages_as_for_every_list_option(project):
    result = run_config(
        project,
        'root_packages = "app"\nsource_roots = "src"\n'
        + FORBIDDEN.replace('["app.a"]', '"app.a"'),
    )
    assert result.returncode == 1, result.stderr
    assert "src/app/a.py:1: LY001 app.a imports app.b" in result.stdout


def test_wrong_type_for_root_packages(project):
    result = run_config(project, 'root_packages = 3\nsource_roots = ["src"]\n' + FORBIDDEN)
    assert result.returncode == 2
    assert (
        "contracts.toml:1: error: 'root_packages' must be a string or a non-empty list of "
        "strings, got a number (3)" in result.stderr
    )


def test_missing_required_option(project):
    result = run_config(project, HEADER + FORBIDDEN.replace('forbidden_modules = ["app.b"]\n', ""))
    assert result.returncode == 2
    assert "missing required option 'forbidden_modules'" in result.stderr
    assert "contracts.toml:7:" in result.stderr


def test_empty_file(project):
    result = run_config(project, "")
    assert result.returncode == 2
    assert "'root_packages' is required" in result.stderr


def test_no_contracts(project):
    result = run_config(project, HEADER)
    assert result.returncode == 2
    assert "no contracts" in result.stderr


def test_root_package_not_on_source_roots(project):
    result = run_config(project, 'root_packages = ["app"]\nsource_roots = ["lib"]\n' + FORBIDDEN)
    assert result.returncode == 2
    assert (
        "contracts.toml:2: error: root package 'app' not found in the source roots (lib)"
        in result.stderr
    )
    assert "hint: set source_roots" in result.stderr


def test_no_configuration_anywhere(project, tmp_path):
    (tmp_path / "empty").mkdir()
    result = project.check(cwd=tmp_path / "empty")
    assert result.returncode == 2
    assert (
        "error: no configuration here or in any parent directory (looked for contracts.toml, "
        "[tool.layering] in " in result.stderr
    )


def test_bad_allowance_entry(project):
    result = run_config(project, HEADER + FORBIDDEN + 'allow = [{ modul = "app.b" }]\n')
    assert result.returncode == 2
    assert (
        "contracts.toml:10: error: contract 'a does not import b', option 'allow': unknown key "
        "'modul'" in result.stderr
    )


def test_expect_takes_only_broken(project):
    result = run_config(project, HEADER + FORBIDDEN + 'expect = "kept"\n')
    assert result.returncode == 2
    assert 'expect takes only "broken"' in result.stderr


def test_importlinter_type_option_errors_are_located(project):
    result = run_config(
        project,
        HEADER + '\n[[contracts]]\nname = "L"\ntype = "layers"\nlayer = ["app.a", "app.b"]\n',
    )
    assert result.returncode == 2
    assert "contracts.toml:7: error: contract 'L', option 'layer'" in result.stderr


def test_unknown_contract_id_on_command_line(project):
    project.write({**PACKAGE, "contracts.toml": HEADER + FORBIDDEN})
    result = project.check("--contract", "onee")
    assert result.returncode == 2
    assert result.stderr == (
        "layering: error: argument --contract: 'onee' names no contract of contracts.toml. Did "
        "you mean 'one'? "
        "Its contracts: one\n"
    )


@pytest.mark.parametrize("where", ["contracts", "pyproject"])
def test_config_found_in_parent_directory(project, tmp_path, where):
    text = HEADER + FORBIDDEN
    if where == "pyproject":
        text = "[tool.layering]\n" + text.replace("[[contracts]]", "[[tool.layering.contracts]]")
        project.write({**PACKAGE, "pyproject.toml": text})
    else:
        project.write({**PACKAGE, "contracts.toml": text})
    result = project.check(cwd=tmp_path / "src" / "app")
    assert result.returncode == 1, result.stderr
    assert "src/app/a.py:1: LY001 app.a imports app.b" in result.stdout


def test_both_sources_present_says_which_is_used(project):
    project.write(
        {
            **PACKAGE,
            "contracts.toml": HEADER + FORBIDDEN,
            "pyproject.toml": "[tool.layering]\nroot_packages = ['app']\n",
        }
    )
    result = project.check()
    assert (
        "warning: using contracts.toml; [tool.layering] in pyproject.toml of the same directory "
        "is ignored" in result.stderr
    )


def test_external_submodule_in_a_chain_contract_is_an_error_not_a_silent_pass(project):
    result = run_config(project, HEADER + FORBIDDEN.replace('["app.b"]', '["json.decoder"]'))
    assert result.returncode == 2
    assert (
        "contracts.toml:9: error: contract 'a does not import b': 'json.decoder' is part of an "
        "external package" in result.stderr
    )
    assert "hint: forbid 'json', or set allow_indirect_imports = true" in result.stderr


def test_external_submodule_in_a_direct_contract_is_checked(project):
    contract = """
[[contracts]]
name = "b does not use json's decoder"
type = "forbidden"
source_modules = ["app.b"]
forbidden_modules = ["json.decoder"]
allow_indirect_imports = true
"""
    project.write(
        {**PACKAGE, "src/app/b.py": "import json.decoder\n", "contracts.toml": HEADER + contract}
    )
    result = project.check()
    assert result.returncode == 1, result.stdout + result.stderr
    assert "src/app/b.py:1: LY001 app.b imports json.decoder" in result.stdout


def test_missing_modules_of_an_import_linter_contract_are_all_named_in_order_under_any_seed(
    project,
):
    project.write(
        {
            "src/app/__init__.py": "",
            "src/app/a.py": "",
            "contracts.toml": 'root_packages = ["app"]\nsource_roots = ["src"]\ncache_dir = '
            "false\n\n"
            '[[contracts]]\nid = "l"\ntype = "layers"\nlayers = ["app.foo", "app.a", '
            '"app.bar"]\n\n'
            '[[contracts]]\nid = "i"\ntype = "independence"\nmodules = ["app.zed", "app.a", '
            '"app.yo"]\n',
        }
    )
    outputs = set()
    for seed in ("1", "2", "3", "4"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        outputs.add(
            subprocess.run(
                [sys.executable, "-m", "layering", "check"],
                cwd=project.root,
                env=env,
                capture_output=True,
                text=True,
            ).stderr
        )
    (output,) = outputs
    errors = [line for line in output.splitlines() if ": error: " in line]
    assert [e.split(": error: ")[0] for e in errors] == ["contracts.toml:8"] * 2 + [
        "contracts.toml:13"
    ] * 2
    assert [
        "'app.bar'" in errors[0],
        "'app.foo'" in errors[1],
        "'app.yo'" in errors[2],
        "'app.zed'" in errors[3],
    ] == [True] * 4


def test_every_problem_of_a_file_in_one_run(project):
    """A run-wide typo, a contract option typo, a pattern that matches nothing and a duplicate
    id: four problems, one run."""
    text = (
        HEADER
        + "exclude_typechecking_imports = true\n"
        + FORBIDDEN.replace('["app.b"]', '["app.bb"]')
        + FORBIDDEN
        + "allow_indirect_import = true\n"
    )
    result = run_config(project, text)
    assert result.returncode == 2
    errors = [line for line in result.stderr.splitlines() if ": error: " in line]
    assert errors == [
        "contracts.toml:3: error: unknown option 'exclude_typechecking_imports'. Did you mean "
        "'exclude_type_checking_imports'?",
        "contracts.toml:10: error: contract 'a does not import b': 'app.bb' in "
        "'forbidden_modules' matches no module in the package app. Did you mean 'app.b'?",
        "contracts.toml:13: error: duplicate contract id 'one' (first used on line 6)",
        "contracts.toml:18: error: contract 'a does not import b': unrecognized option "
        "'allow_indirect_import'. Did you mean 'allow_indirect_imports'?",
    ]


def test_did_you_mean_for_an_allowance_key(project):
    result = run_config(
        project, HEADER + FORBIDDEN + 'allow = [{ importer = "app.a", modul = "app.b" }]\n'
    )
    assert result.returncode == 2
    assert "unknown key 'modul' in an allowance. Did you mean 'module'?" in result.stderr


def test_each_allowance_is_located_at_its_own_entry(project):
    text = (
        HEADER
        + FORBIDDEN.replace('["app.b"]', '["app.b"]\nallow_indirect_imports = true')
        + (
            'allow = [\n  "app.a -> app.b",\n  # gone\n  "app.a -> app.gone",\n  { importer = '
            '"app.a", modul = "app.b" },\n]\n'
        )
    )
    result = run_config(project, text)
    assert (
        "contracts.toml:15: error: contract 'a does not import b', option 'allow': unknown key "
        "'modul'" in result.stderr
    )
    result = run_config(project, text.replace('  { importer = "app.a", modul = "app.b" },\n', ""))
    assert result.returncode == 1
    assert (
        "contracts.toml:14: LY030 allowance 'app.a -> app.gone' matches no import" in result.stdout
    )


def test_a_nested_list_in_an_import_linter_option_is_located(project):
    text = (
        HEADER
        + '\n[[contracts]]\nname = "L"\ntype = "layers"\nlayers = [\n  "app.a",\n  ["app.b", '
        '"app.c"],\n]\n'
    )
    result = run_config(
        project, text + "\n[[contracts]]\nname = 'T'\ntype = 'independence'\nmodules = { a = 1 }\n"
    )
    assert result.returncode == 2
    assert (
        "contracts.toml:9: error: contract 'L', option 'layers': entry 2 is a list; import-linter "
        "options take strings" in result.stderr
    )
    assert (
        'hint: write a layer of several modules as one string: "a | b" (independent) or "a : b"'
        in result.stderr
    )
    assert (
        "contracts.toml:15: error: contract 'T', option 'modules': expected a string or a list of "
        "strings, got a table" in result.stderr
    )


@pytest.mark.parametrize(
    "body,line,message",
    [
        (
            "type = 'layers'\nlayers = []",
            7,
            "contract 'c': 'layers' lists no layers: a contract that cannot fail",
        ),
        (
            "type = 'layers'\nlayers = ['app.a']",
            7,
            "contract 'c': one layer of one module cannot be broken",
        ),
        (
            "type = 'acyclic_siblings'\nancestors = ['app.a']",
            7,
            "contract 'c': 'app.a' in 'ancestors' is a module, not a package",
        ),
        (
            "type = 'independence'\nmodules = ['app.a']",
            7,
            "contract 'c': 'modules' names one module (app.a): a contract that cannot fail",
        ),
        (
            "type = 'protected'\nprotected_modules = []\nallowed_importers = ['app']",
            7,
            "contract 'c': 'protected_modules' lists nothing to protect",
        ),
        (
            "type = 'independence'\nmodules = ['app.a', 'app.bee']",
            7,
            "contract 'c': 'app.bee' in 'modules' matches no module in the package app. Did you "
            "mean 'app.b'?",
        ),
    ],
)
def test_a_contract_that_cannot_fail_is_an_error(project, body, line, message):
    result = run_config(project, HEADER + f"\n[[contracts]]\nname = 'c'\n{body}\n")
    assert result.returncode == 2
    assert f"contracts.toml:{line}: error: {message}" in result.stderr


def test_two_contracts_known_by_one_name_are_rejected_at_both_lines(project):
    contract = (
        '\n[[contracts]]\nname = "same"\ntype = "leaf"\nmodules = ["app.b"]\nwithin = ["app"]\n'
    )
    result = run_config(project, HEADER + contract + contract)
    assert result.returncode == 2
    assert (
        "contracts.toml:11: error: the contracts on lines 5 and 11 are both known as 'same' (a "
        "contract without an id is known by its name)" in result.stderr
    )
    assert "hint: give each contract its own id" in result.stderr


def test_run_options_of_import_linter_in_contracts_toml(project):
    """`root_package` and `include_external_packages` mean what they mean to import-linter."""
    text = 'root_package = "app"\nsource_roots = "src"\ninclude_external_packages = true\n' + (
        '\n[[contracts]]\nname = "json is protected"\ntype = "protected"\nprotected_modules = '
        '["json", "PyQt5"]\nallowed_importers = ["app.a"]\n'
    )
    result = run_config(project, text)
    assert result.returncode == 1, result.stderr
    assert "src/app/b.py:1: LY014 app.b imports json" in result.stdout


def test_protected_external_package_without_the_option(project):
    text = (
        HEADER + '\n[[contracts]]\nname = "Qt"\ntype = "protected"\nprotected_modules = '
        '["PyQt5"]\nallowed_importers = ["app.a"]\n'
    )
    result = run_config(project, text)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Qt KEPT" in result.stdout


def test_a_root_package_that_is_one_file(project):
    project.write({"src/single.py": "import json\n"})
    graph = (
        'root_packages = ["single"]\nsource_roots = ["src"]\n\n[[contracts]]\nname = "L"\ntype = '
        '"forbidden"\nsource_modules = ["single"]\nforbidden_modules = ["json"]\n'
    )
    result = run_config(project, graph)
    assert result.returncode == 2
    assert (
        "contracts.toml:1: error: 'single' is a module, not a package: the import graph that "
        "contract 'L' needs is built of packages only" in result.stderr
    )
    leaf = (
        'root_packages = ["single"]\nsource_roots = ["src"]\n\n[[contracts]]\nname = "leaf"\ntype '
        '= "leaf"\nmodules = ["single"]\nwithin = ["*"]\n'
    )
    result = run_config(project, leaf)
    assert result.returncode == 1, result.stderr
    assert "src/single.py:1: LY003 single imports json" in result.stdout


def test_a_contract_of_an_unknown_type_is_named_by_its_id(project):
    """Before its type is known, a contract is named as every other problem names it (its name,
    else its id), not by its place in the file."""
    result = run_config(
        project,
        HEADER
        + FORBIDDEN
        + '\n[[contracts]]\nid = "two"\ntype = "lief"\nmodules = ["app.a"]\nwithin = ["app"]\n',
    )
    assert result.returncode == 2
    assert (
        "contracts.toml:13: error: contract 'two': type 'lief' is not a contract type. Did you "
        "mean 'leaf'?" in result.stderr
    )
    assert "#2" not in result.stderr


@pytest.mark.parametrize(
    ("pattern", "suggestion"),
    [
        ("app.comands.*", " Did you mean 'app.commands.*'?"),
        ("app.comands.**", " Did you mean 'app.commands.**'?"),
        ("app.comands.run", " Did you mean 'app.commands.run'?"),
        ("app.commands.rnu", " Did you mean 'app.commands.run'?"),
        ("app.a.*", ""),  # app.a is a module, with nothing below it to match
        ("app.comands.run.*", ""),  # app.commands.run neither
    ],
)
def test_a_mistyped_pattern_gets_the_module_it_meant(project, pattern, suggestion):
    project.write(
        {
            "src/app/commands/__init__.py": "",
            "src/app/commands/run.py": "",
            "src/app/commands/stop.py": "",
        }
    )
    result = run_config(
        project,
        HEADER
        + f'\n[[contracts]]\nid = "c"\ntype = "leaf"\nmodules = ["{pattern}"]\nwithin = ["app"]\n',
    )
    assert result.returncode == 2
    message = (
        f"error: contract 'leaf #1': '{pattern}' in 'modules' matches no module in the package "
        f"app.{suggestion}\n"
    )
    assert message in result.stderr, result.stderr


def test_an_ini_file_without_a_section_is_a_located_error_not_a_traceback(project):
    """Before Python 3.12, configparser's error for text before the first section has no list of
    errors: its line is read all the same."""
    project.write({**PACKAGE, "rules.ini": "import json\n[importlinter]\nroot_package = app\n"})
    result = project.check("rules.ini")
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert (
        "rules.ini:1: error: INI syntax error: text before the first [section] header"
        in result.stderr
    )


@pytest.mark.parametrize(
    ("body", "cannot_fail"),
    [
        ("type = 'forbidden'\nsource_modules = ['app.a']\nforbidden_modules = ['app.nope']", True),
        (
            "type = 'forbidden'\nsource_modules = ['app.a']\nforbidden_modules = ['app.b', "
            "'app.nope']",
            False,
        ),
        ("type = 'independence'\nmodules = ['app.a', 'app.b', 'app.nope']", False),
        ("type = 'layers'\nlayers = ['app.a', 'app.b', 'app.nope']", False),
    ],
)
def test_the_cannot_fail_hint_is_given_only_where_the_contract_cannot_fail(
    project, body, cannot_fail
):
    """A contract with one pattern that matches nothing among others that do can still fail:
    its hint says the pattern checks nothing, not that the contract cannot fail."""
    result = run_config(project, HEADER + f"\n[[contracts]]\nname = 'c'\n{body}\n")
    assert result.returncode == 2
    assert "'app.nope' in '" in result.stderr
    assert ("the contract cannot fail" in result.stderr) is cannot_fail, result.stderr
    if not cannot_fail:
        assert (
            "hint: a pattern that matches no module checks nothing: fix or remove it"
            in result.stderr
        )


def test_a_refused_configuration_exits_2_where_lint_imports_exits_1(project, tmp_path):
    """The one exit code that differs, as the README says: a configuration that cannot be used
    is 2 here (the run could not be made), 1 for lint-imports (any failure)."""
    from importlinter_configs import COMPARES_COMMAND_LINE, lint_imports

    project.write(
        {
            **{name.removeprefix("src/"): text for name, text in PACKAGE.items()},
            ".importlinter": "[importlinter]\nroot_package = "
            "app\n\n[importlinter:contract:c]\nname = c\n"
            "type = forbidden\nsource_modules = app.a\nforbidden_modules = app.nope\n",
        }
    )
    assert lint_imports(tmp_path)[0] == 1 or not COMPARES_COMMAND_LINE
    result = project.check("--no-cache")
    assert result.returncode == 2, result.stdout + result.stderr
    assert "'app.nope' in 'forbidden_modules' matches no module" in result.stderr
