"""Configuration mistakes not covered by tests/engine/test_config_errors.py: each one a located,
actionable message with exit code 2 (or, for a stale allowance, a BROKEN contract), never a
traceback."""

from __future__ import annotations

import re

from reliability_support import HEADER, PACKAGE, forbidden

DIRECT = forbidden("app.a", "app.b", indirect=True)


def test_toml_syntax_error_in_pyproject_is_located(run):
    text = '[tool.layering]\nroot_packages = ["app"]\nsource_roots = = ["src"]\n'
    result = run({**PACKAGE, "pyproject.toml": text})
    assert result.code == 2
    assert "pyproject.toml:3:" in result.err and "TOML syntax error" in result.err
    assert "hint: fix the TOML syntax" in result.err


def test_toml_error_at_end_of_document_is_located(run):
    text = '[tool.layering]\nroot_packages = ["app"]\nsource_roots = ["src"\n'
    result = run({**PACKAGE, "pyproject.toml": text})
    assert result.code == 2
    assert re.search(r"pyproject\.toml:[34]:", result.err), result.err


def test_configuration_that_is_not_utf8(run):
    result = run({**PACKAGE, "contracts.toml": HEADER.encode() + b"# caf\xe9\n"})
    assert result.code == 2
    assert "contracts.toml:3: error: the configuration is not UTF-8 text" in result.err


def test_configuration_path_that_is_a_directory(run, project):
    (project.root / "adir").mkdir()
    result = run(PACKAGE, "--config", "adir")
    assert result.code == 2
    assert (
        "layering: error: argument --config: adir is a directory: name the configuration file in "
        "it" in result.err
    )


def test_every_wrong_type_of_the_run_options_at_once(run):
    text = (
        'root_packages = ["app"]\nsource_roots = 5\nexclude_type_checking_imports = '
        '"yes"\ncache_dir = 3\n' + DIRECT
    )
    result = run({**PACKAGE, "contracts.toml": text})
    assert result.code == 2
    assert (
        "contracts.toml:2: error: 'source_roots' must be a string or a non-empty list of strings, "
        "got a number (5)" in result.err
    )
    assert (
        "contracts.toml:3: error: 'exclude_type_checking_imports' must be true or false, got a "
        "string ('yes')" in result.err
    )
    assert (
        "contracts.toml:4: error: 'cache_dir' must be a path or false, got a number (3)"
        in result.err
    )


def test_root_package_that_is_not_a_name(run):
    result = run(
        {
            **PACKAGE,
            "contracts.toml": 'root_packages = ["app-x"]\nsource_roots = ["src"]\n' + DIRECT,
        }
    )
    assert result.code == 2
    assert "contracts.toml:1: error: 'app-x' is not a package name" in result.err


def test_contracts_written_as_a_single_table(run):
    result = run({**PACKAGE, "contracts.toml": HEADER + '[contracts]\nid = "x"\n'})
    assert result.code == 2
    assert "contracts.toml:3: error: 'contracts' must be [[contracts]] tables" in result.err


def test_contract_option_of_the_wrong_type(run):
    text = HEADER + forbidden("app.a", "app.b", extra='as_packages = "maybe"\n')
    result = run({**PACKAGE, "contracts.toml": text})
    assert result.code == 2
    assert (
        "contracts.toml:10: error: contract 'forbidden #1', option 'as_packages': expected true "
        "or false, got 'maybe'" in result.err
    )


def test_module_lists_of_the_wrong_type_and_bad_patterns(run):
    text = (
        HEADER + '\n[[contracts]]\ntype = "forbidden"\nsource_modules = 3\nforbidden_modules = '
        '["app..b"]\n'
    )
    result = run({**PACKAGE, "contracts.toml": text})
    assert result.code == 2
    assert (
        "contracts.toml:6: error: contract 'forbidden #1', option 'source_modules': expected a "
        "list of strings, got 3" in result.err
    )
    assert (
        "contracts.toml:7: error: contract 'forbidden #1', option 'forbidden_modules': 'app..b' "
        "is not a module pattern" in result.err
    )


def test_contract_without_a_type(run):
    result = run(
        {
            **PACKAGE,
            "contracts.toml": HEADER + '\n[[contracts]]\nid = "x"\nsource_modules = ["app.a"]\n',
        }
    )
    assert result.code == 2
    assert "contracts.toml:4: error: contract 'x' has no 'type'" in result.err
    assert "known types:" in result.err


def test_several_required_options_missing_are_all_reported(run):
    result = run(
        {**PACKAGE, "contracts.toml": HEADER + '\n[[contracts]]\nid = "x"\ntype = "leaf"\n'}
    )
    assert result.code == 2
    assert (
        "contracts.toml:6: error: contract 'leaf #1': missing required option 'modules'"
        in result.err
    )
    assert (
        "contracts.toml:6: error: contract 'leaf #1': missing required option 'within'"
        in result.err
    )


def test_duplicate_ids_across_contract_types(run):
    text = (
        HEADER
        + DIRECT
        + '\n[[contracts]]\nid = "f"\ntype = "leaf"\nmodules = ["app.b"]\nwithin = ["app"]\n'
    )
    result = run({**PACKAGE, "contracts.toml": text})
    assert result.code == 2
    assert (
        "contracts.toml:12: error: duplicate contract id 'f' (first used on line 5)" in result.err
    )


def test_wildcard_pattern_that_matches_nothing(run):
    text = HEADER + '\n[[contracts]]\ntype = "leaf"\nmodules = ["app.*.x"]\nwithin = ["app"]\n'
    result = run({**PACKAGE, "contracts.toml": text})
    assert result.code == 2
    assert (
        "contracts.toml:6: error: contract 'leaf #1': 'app.*.x' in 'modules' matches no module in "
        "the package app" in result.err
    )
    assert "cannot fail: fix or remove it" in result.err


def test_source_pattern_that_matches_nothing_in_a_graph_contract(run):
    result = run({**PACKAGE, "contracts.toml": HEADER + forbidden("app.nothing", "app.b")})
    assert result.code == 2
    assert (
        "contracts.toml:7: error: contract 'forbidden #1': 'app.nothing' in 'source_modules' "
        "matches no module" in result.err
    )


def test_allowance_naming_a_module_that_does_not_exist_is_stale(run):
    text = HEADER + forbidden(
        "app.a",
        "app.b",
        indirect=True,
        extra='allow = ["app.a -> app.b", "app.a -> app.nothing"]\n',
    )
    result = run({**PACKAGE, "contracts.toml": text})
    assert result.code == 1
    assert "forbidden #1 [f] BROKEN" in result.out
    assert (
        "contracts.toml:10: LY030 allowance 'app.a -> app.nothing' matches no import: remove it"
        in result.out
    )
    assert (
        "LY001" not in result.out
    )  # the real import is excused; only the stale allowance breaks it


def test_allowance_naming_a_name_that_is_not_imported_is_stale(run):
    allow = (
        'allow = [{ importer = "app.a", module = "app", names = ["b", "zzz"] }, { importer = '
        '"app.a", module = "app", names = ["zzz"] }]\n'
    )
    result = run(
        {
            **PACKAGE,
            "contracts.toml": HEADER + forbidden("app.a", "app.b", indirect=True, extra=allow),
        }
    )
    assert result.code == 1
    assert (
        "allowance 'app.a -> app (zzz)' matches no import: remove it (allowances only shrink)"
        in result.out
    )
    # It excused `from app import b`: only its name 'zzz' is stale (allowances shrink name by
    # name).
    assert (
        "allowance 'app.a -> app (b, zzz)': no import takes 'zzz' any more: remove the name"
        in result.out
    )
    assert "(b, zzz)' matches no import" not in result.out


def test_stale_allowance_in_a_graph_contract(run):
    text = HEADER + forbidden("app.c", "app.b", extra='allow = ["app.c -> app.nothing"]\n')
    result = run({**PACKAGE, "contracts.toml": text})
    assert result.code == 1
    assert (
        "  1 chain from app.c to app.b; removing this import cuts it:\n  src/app/a.py:1: LY002 "
        "app.a imports app.b\n" in result.out
    )
    assert (
        "contracts.toml:10: LY030 allowance 'app.c -> app.nothing' matches no import: remove it"
        in result.out
    )


def test_source_root_that_does_not_exist(run):
    result = run(
        {
            **PACKAGE,
            "contracts.toml": 'root_packages = ["app"]\nsource_roots = ["nowhere", "also/not"]\n'
            + DIRECT,
        }
    )
    assert result.code == 2
    assert "root package 'app' not found in the source roots (nowhere, also/not)" in result.err
    assert "hint: set source_roots to the directory that contains the package" in result.err


def test_dotted_root_package_missing(run):
    text = 'root_packages = ["app.nothing"]\nsource_roots = ["src"]\n' + forbidden(
        "app.nothing.a", "app.nothing.b"
    )
    result = run({**PACKAGE, "contracts.toml": text})
    assert result.code == 2
    assert "root package 'app.nothing' not found in the source roots (src)" in result.err


def test_both_configurations_present_the_contracts_file_is_the_one_used(run):
    pyproject = (
        "[tool.layering]\n"
        + HEADER
        + forbidden("app.b", "app.a")
        .replace("[[contracts]]", "[[tool.layering.contracts]]")
        .replace('id = "f"', 'id = "from-pyproject"')
    )
    result = run({**PACKAGE, "contracts.toml": HEADER + DIRECT, "pyproject.toml": pyproject})
    assert result.code == 1
    assert (
        "warning: using contracts.toml; [tool.layering] in pyproject.toml of the same directory "
        "is ignored (remove one of them)" in result.err
    )
    assert "[f] BROKEN" in result.out
    assert "from-pyproject" not in result.out


def test_explicit_config_of_a_pyproject_without_the_section(run):
    result = run(
        {**PACKAGE, "pyproject.toml": "[project]\nname = 'x'\n"}, "--config", "pyproject.toml"
    )
    assert result.code == 2
    assert (
        "pyproject.toml: error: no [tool.layering] and no [tool.importlinter] table" in result.err
    )


# Characters `str.splitlines` ends a line at, which TOML and configparser read as part of one.
TOML_LINE_SEPARATORS = "\u2028\u2029\u0085"  # the others may not stand unescaped in TOML
INI_LINE_SEPARATORS = TOML_LINE_SEPARATORS + "\x0b\x0c\x1c\x1d\x1e"


def line_of(text: str, line: str) -> int:
    """The number of `line` in `text`, counted as TOML counts lines."""
    return text.split("\n").index(line) + 1


def test_a_line_separator_in_a_toml_comment_or_string_moves_no_line_number(run):
    entry = '  "app.a -> app.c",'
    text = (
        HEADER
        + f"# {TOML_LINE_SEPARATORS.join('abcd')}\n"
        + forbidden(
            "app.a",
            "app.b",
            indirect=True,
            extra=f'name = "{TOML_LINE_SEPARATORS.join("wxyz")}"\nallow = [\n{entry}\n]\n',
        )
    )
    result = run({**PACKAGE, "contracts.toml": text.encode()})
    assert result.code == 1
    assert (
        f"contracts.toml:{line_of(text, entry)}: LY030 allowance 'app.a -> app.c' matches no "
        "import" in result.out
    )
    misspelled = text + "alow = []\n"
    result = run({**PACKAGE, "contracts.toml": misspelled.encode()})
    assert result.code == 2
    assert f"contracts.toml:{line_of(misspelled, 'alow = []')}: error: contract" in result.err
    assert "unrecognized option 'alow'" in result.err


def test_a_toml_syntax_error_at_the_end_is_on_the_last_line_after_a_line_separator(run):
    text = HEADER + f'# {TOML_LINE_SEPARATORS.join("abcd")}\nsource_modules = ["app"\n'
    result = run({**PACKAGE, "contracts.toml": text.encode()})
    assert result.code == 2
    assert "contracts.toml:4:" in result.err and "TOML syntax error" in result.err


def test_a_line_separator_in_an_ini_comment_moves_no_line_number(run):
    text = (
        "[importlinter]\nroot_package = app\n"
        f"; {INI_LINE_SEPARATORS.join('abcdefghi')}\n\n"
        "[importlinter:contract:one]\nname = a does not import c\ntype = "
        "forbidden\nsource_modules = app.a\nforbidden_modules = app.c\n"
        f"# {INI_LINE_SEPARATORS.join('abcdefghi')}\n"
        "ignore_imports =\n    app.a -> app.c\n"
    )
    result = run({**PACKAGE, ".importlinter": text.encode()}, "--config", ".importlinter")
    assert result.code == 1
    entry = "    app.a -> app.c"
    assert (
        f".importlinter:{line_of(text, entry)}: LY030 ignored import 'app.a -> app.c' matches no "
        "import" in result.out
    )
