"""`layering migrate` writes layering's format from import-linter's, with the same verdicts."""

from __future__ import annotations

import pytest
from importlinter_configs import FORMATS, SHOP, layering, write_config

CONTRACTS = [
    (
        "layers",
        {
            "name": "Layers",
            "type": "layers",
            "layers": ["shop.api", "shop.domain | shop.infra"],
            "ignore_imports": [
                "shop.infra.* -> shop.domain.**",
                "shop.*.pricing -> shop.api.views",
            ],
            "exhaustive": "False",
        },
    ),
    (
        "qt",
        {
            "name": "No Qt in the domain",
            "type": "forbidden",
            "source_modules": "shop.domain",
            "forbidden_modules": ["PyQt5", "dataclasses"],
            "allow_indirect_imports": "True",
        },
    ),
    (
        "acyclic",
        {"name": "No cycles", "type": "acyclic_siblings", "ancestors": "shop", "depth": "1"},
    ),
    (
        "gui",
        {
            "name": "GUI apart",
            "type": "independence",
            "modules": ["shop.gui", "shop.api"],
            "ignore_imports": "shop.gui.window -> shop.api",
            "unmatched_ignore_imports_alerting": "warn",
        },
    ),
]
SESSION = {
    "root_package": "shop",
    "include_external_packages": "True",
    "exclude_type_checking_imports": "False",
    "show_timings": "True",
}


@pytest.mark.parametrize("file_format", FORMATS)
def test_the_verdicts_are_the_same_before_and_after(project, tmp_path, file_format):
    project.write(SHOP)
    source = write_config(tmp_path, file_format, SESSION, CONTRACTS)
    before = layering(project)
    original = source.read_bytes()
    result = project.layering("migrate")
    assert result.returncode == 0, result.stderr
    assert (
        result.stdout
        == f"contracts.toml: wrote 4 contracts from {file_format}, with the same verdicts\n"
    )
    assert "left out 'show_timings': lint-imports ignores it" in result.stderr
    assert source.read_bytes() == original
    after = layering(project)
    assert after[2]["config_path"] == str(tmp_path / "contracts.toml")
    assert (after[0], after[1]) == (before[0], before[1])
    assert before[1] == {
        "Layers": "BROKEN",
        "No Qt in the domain": "KEPT",
        "No cycles": "BROKEN",
        "GUI apart": "KEPT",
    }
    assert [c["id"] for c in after[2]["contracts"]] == [c["id"] for c in before[2]["contracts"]]
    text = (tmp_path / "contracts.toml").read_text()
    assert text.startswith("# the shop's import contracts\n")
    assert "include_external_packages = true\n" in text


def test_ini_comments_become_toml_comments_in_place(project, tmp_path):
    project.write(SHOP)
    write_config(tmp_path, ".importlinter", SESSION, CONTRACTS[:1])
    result = project.layering("migrate", "--dry-run")
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "# the shop's import contracts\n"
        'root_package = "shop"\n'
        "include_external_packages = true\n"
        "exclude_type_checking_imports = false\n"
        "\n"
        "# contract layers\n"
        "[[contracts]]\n"
        'id = "layers"\n'
        'name = "Layers"\n'
        'type = "layers"\n'
        "layers = [\n"
        '  "shop.api",\n'
        "  # a comment inside the list\n"
        '  "shop.domain | shop.infra",\n'
        "]\n"
        "ignore_imports = [\n"
        '  "shop.infra.* -> shop.domain.**",\n'
        "  # a comment inside the list\n"
        '  "shop.*.pricing -> shop.api.views",\n'
        "]\n"
        "exhaustive = false\n"
    )
    assert not (tmp_path / "contracts.toml").exists()


def test_toml_text_is_moved_as_it_is(project, tmp_path):
    project.write(SHOP)
    write_config(tmp_path, "pyproject.toml", {"root_package": "shop"}, CONTRACTS[1:2])
    result = project.layering("migrate", "--dry-run")
    assert result.stdout == (
        "# the shop's import contracts\n"
        'root_package = "shop"\n'
        "\n"
        "[[contracts]]\n"
        'id = "qt"\n'
        'name = "No Qt in the domain"\n'
        'type = "forbidden"\n'
        'source_modules = "shop.domain"\n'
        "forbidden_modules = [\n"
        '    "PyQt5",  # forbidden_modules\n'
        '    "dataclasses",  # forbidden_modules\n'
        "]\n"
        "allow_indirect_imports = true\n"
    )


def test_a_comment_holding_a_line_separator_is_moved_as_it_is(project):
    """U+2028 and U+0085 are characters of a TOML comment, not line ends: the comment moves
    whole."""
    table = (
        '[[tool.importlinter.contracts]]\nid = "qt"  # mixed\u0085content\nname = "No Qt"\ntype = '
        '"forbidden"\n'
    )
    modules = 'source_modules = ["shop.domain"]\nforbidden_modules = ["PyQt5"]\n'
    pyproject = (
        f'[tool.importlinter]\nroot_package = "shop"\n\n# the rule\u2028in short\n{table}{modules}'
    )
    project.write({**SHOP, "pyproject.toml": pyproject})
    result = project.layering("migrate")
    assert result.returncode == 0, result.stderr
    assert "could not be kept" not in result.stderr
    expected = pyproject.replace("[tool.importlinter]\n", "").replace("tool.importlinter.", "")
    assert (project.root / "contracts.toml").read_text(encoding="utf-8") == expected


def test_an_existing_contracts_toml_is_kept_unless_forced(project, tmp_path):
    project.write({**SHOP, "sub/contracts.toml": "# mine\n"})
    write_config(tmp_path / "sub", ".importlinter", {"root_package": "shop"}, CONTRACTS[1:2])
    result = project.layering("migrate", "sub/.importlinter")
    assert result.returncode == 2
    assert "sub/contracts.toml: error: contracts.toml exists: not overwritten" in result.stderr
    assert "hint: pass --force to replace it" in result.stderr
    assert (tmp_path / "sub" / "contracts.toml").read_text() == "# mine\n"
    assert project.layering("migrate", "sub/.importlinter", "--force").returncode == 0
    assert 'id = "qt"' in (tmp_path / "sub" / "contracts.toml").read_text()


def test_into_pyproject_keeps_everything_else_byte_for_byte(project, tmp_path):
    project.write(
        {
            **SHOP,
            "pyproject.toml": "[project]\nname = 'shop'  # the name\n\n[tool.black]\nline-length "
            "= 100\n",
        }
    )
    write_config(tmp_path, ".importlinter", {"root_package": "shop"}, CONTRACTS[1:2])
    before = layering(project)
    original = (tmp_path / "pyproject.toml").read_text()
    assert project.layering("migrate", "--to", "pyproject.toml").returncode == 0
    text = (tmp_path / "pyproject.toml").read_text()
    assert text.startswith(
        original + '\n# the shop\'s import contracts\n[tool.layering]\nroot_package = "shop"\n'
    )
    assert '[[tool.layering.contracts]]\nid = "qt"\n' in text
    after = layering(project)
    assert after[2]["config_path"] == str(tmp_path / "pyproject.toml")
    assert (after[0], after[1]) == (before[0], before[1])
    again = project.layering("migrate", ".importlinter", "--to", "pyproject.toml")
    assert again.returncode == 2 and "[tool.layering] exists: not overwritten" in again.stderr
    assert (
        project.layering(
            "migrate", ".importlinter", "--to", "pyproject.toml", "--force"
        ).returncode
        == 0
    )
    assert (tmp_path / "pyproject.toml").read_text().count("[tool.layering]") == 1


def test_layerings_own_format_is_not_migrated(project, tmp_path):
    project.write(
        {
            **SHOP,
            "contracts.toml": 'root_packages = ["shop"]\n[[contracts]]\ntype = "leaf"\nmodules = '
            '["shop.api"]\nwithin = ["shop"]\n',
        }
    )
    result = project.layering("migrate")
    assert result.returncode == 2
    assert "this is already layering's format: nothing to migrate" in result.stderr


@pytest.mark.parametrize(
    ("target", "command"),
    [
        ("contracts.toml", "layering migrate .importlinter --force"),
        ("pyproject.toml", "layering migrate .importlinter --to pyproject.toml --force"),
    ],
)
def test_a_second_migrate_says_how_to_migrate_again(project, tmp_path, target, command):
    project.write(SHOP)
    write_config(tmp_path, ".importlinter", {"root_package": "shop"}, CONTRACTS[1:2])
    assert project.layering("migrate", "--to", target).returncode == 0
    again = project.layering("migrate")
    assert again.returncode == 2
    assert (
        f"{target}: error: this is already layering's format: nothing to migrate" in again.stderr
    )
    assert "hint: to migrate .importlinter again, replacing " in again.stderr
    assert again.stderr.rstrip().endswith(f": {command}")
    migrated = project.layering(*command.split()[1:])
    assert migrated.returncode == 0, migrated.stderr
    assert (
        migrated.stdout
        == f"{target}: wrote 1 contract from .importlinter, with the same verdicts\n"
    )


def test_a_configuration_with_problems_is_not_migrated(project, tmp_path):
    project.write(
        {
            **SHOP,
            ".importlinter": "[importlinter]\nroot_package = shop\nroot_packages = "
            "shop\n\n[importlinter:contract:x]\ntype = layers\nlayers = "
            "shop.api\n",
        }
    )
    result = project.layering("migrate")
    assert result.returncode == 2
    assert (
        ".importlinter:2: error: both 'root_package' and 'root_packages' are set" in result.stderr
    )
    assert not (tmp_path / "contracts.toml").exists()


def test_a_file_read_before_the_new_one_is_named(project, tmp_path):
    project.write(
        {
            **SHOP,
            "contracts.toml": 'root_packages = ["shop"]\n[[contracts]]\ntype = "leaf"\nmodules = '
            '["shop.api"]\nwithin = ["shop"]\n',
        }
    )
    write_config(tmp_path, ".importlinter", {"root_package": "shop"}, CONTRACTS[1:2])
    result = project.layering("migrate", ".importlinter", "--to", "pyproject.toml")
    assert result.returncode == 0, result.stderr
    assert (
        "layering: note: contracts.toml in the same directory is read first: remove it to use the "
        "new one" in result.stderr
    )
