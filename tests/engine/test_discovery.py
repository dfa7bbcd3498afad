"""Which configuration a run reads: found in import-linter's places too, or named as a path."""

from __future__ import annotations

import pytest
from importlinter_configs import SHOP, write_config

CONTRACT = [
    (
        "infra",
        {
            "name": "Domain without infra",
            "type": "forbidden",
            "source_modules": "shop.domain",
            "forbidden_modules": "shop.infra",
        },
    )
]
LAYERING_TOML = (
    'root_packages = ["shop"]\n\n[[contracts]]\nname = "API alone"\ntype = '
    '"independence"\nmodules = ["shop.api", "shop.gui"]\n'
)


def test_each_import_linter_place_is_found_from_a_subdirectory(project, tmp_path):
    project.write(SHOP)
    for file_format in (".importlinter", "setup.cfg", "pyproject.toml"):
        path = write_config(tmp_path, file_format, {"root_package": "shop"}, CONTRACT)
        result = project.check(cwd=tmp_path / "shop" / "domain")
        assert result.returncode == 1, result.stderr
        assert result.stdout.splitlines()[0] == f"Configuration: {path}"
        assert "Domain without infra [infra] BROKEN" in result.stdout
        path.unlink()


def test_import_linters_own_order_in_one_directory_and_a_note(project, tmp_path):
    """import-linter reads setup.cfg before .importlinter; the one passed over is named."""
    project.write(SHOP)
    write_config(tmp_path, ".importlinter", {"root_package": "shop"}, CONTRACT)
    write_config(
        tmp_path,
        "setup.cfg",
        {"root_package": "shop"},
        [("other", {**CONTRACT[0][1], "name": "From setup.cfg"})],
    )
    result = project.check()
    assert result.stdout.splitlines()[0] == "Configuration: setup.cfg"
    assert (
        "warning: using [importlinter] in setup.cfg; .importlinter of the same directory is "
        "ignored (remove one of them)" in result.stdout + result.stderr
    )
    assert "From setup.cfg [other] BROKEN" in result.stdout


def test_layerings_own_file_comes_first_and_import_linters_stays_quiet(project, tmp_path):
    project.write({**SHOP, "contracts.toml": LAYERING_TOML})
    write_config(tmp_path, "pyproject.toml", {"root_package": "shop"}, CONTRACT)
    result = project.check()
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[:2] == ["Configuration: contracts.toml", "API alone KEPT"]


def test_files_without_the_section_are_passed_over(project, tmp_path):
    project.write(
        {
            **SHOP,
            "sub/setup.cfg": "[metadata]\nname = x\n",
            "sub/pyproject.toml": "[project]\nname = 'x'\n",
        }
    )
    write_config(tmp_path, ".importlinter", {"root_package": "shop"}, CONTRACT)
    result = project.check(cwd=tmp_path / "sub")
    assert result.stdout.splitlines()[0] == f"Configuration: {tmp_path / '.importlinter'}"


@pytest.mark.parametrize("how", [("PATH",), ("--config", "PATH")])
def test_a_named_file_is_the_one_read(project, tmp_path, how):
    """`layering check other.toml` (import-linter 2.x style) or `--config`: that file, never the
    one discovery would find."""
    project.write({**SHOP, "contracts.toml": LAYERING_TOML})
    write_config(tmp_path / "shop", ".importlinter", {"root_package": "shop"}, CONTRACT)
    result = project.check(
        *(a.replace("PATH", "shop/.importlinter") for a in how), "--format", "json"
    )
    assert result.returncode == 1, result.stderr
    assert f'"config_path": "{tmp_path / "shop" / ".importlinter"}"' in result.stdout


def test_a_second_file_named_that_does_not_exist_is_a_usage_error(project, tmp_path):
    project.write({**SHOP, "contracts.toml": LAYERING_TOML})
    result = project.check("contracts.toml", "--config", "other.toml")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        "layering: error: argument --config: other.toml does not exist: name a configuration "
        "file\n"
    )


def test_file_names_are_not_swallowed(project):
    """The pre-commit hook passes no file names; a stray argument is an error, not ignored."""
    project.write({**SHOP, "contracts.toml": LAYERING_TOML})
    result = project.check("contracts.toml", "shop/api/views.py")
    assert result.returncode == 2 and result.stdout == ""
    assert (
        "layering: error: argument PATH: shop/api/views.py is Python source, not a configuration"
        in result.stderr
    )


def test_an_ini_file_that_is_not_ini_is_a_located_error(project, tmp_path):
    project.write(
        {**SHOP, ".importlinter": "[importlinter]\nroot_package = shop\nthis line is no option\n"}
    )
    result = project.check("--format", "json")
    assert result.returncode == 2
    assert '"line": 3' in result.stdout
    assert (
        ".importlinter:3: error: INI syntax error: a line that is neither a [section], a 'key = "
        "value' nor an indented continuation" in result.stderr
    )


def test_help_says_exit_codes_discovery_no_color_and_where_codes_are(project):
    result = project.layering("check", "--help")
    assert result.returncode == 0
    for text in (
        "exit codes:",
        "0  every contract kept",
        "2  the run could not be made",
        "[importlinter] in setup.cfg, .importlinter, [tool.importlinter]",
        "NO_COLOR",
        'README, section "Reports"',
    ):
        assert text in result.stdout
