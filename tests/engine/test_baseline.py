"""`layering baseline` on real files: what it writes, that every contract is kept afterwards, that
only new violations break a contract from then on, and that the rest of the file is kept."""

from __future__ import annotations

import datetime
import os
import subprocess
import sys

PACKAGE = {
    "shop/__init__.py": "",
    "shop/api/__init__.py": "",
    "shop/api/views.py": "from shop.domain import orders\n",
    "shop/domain/__init__.py": "",
    "shop/domain/orders.py": "from shop.domain import prices\nfrom shop.util import helpers\n",
    "shop/domain/prices.py": "from shop.util.helpers import money, tax\nimport shop.util.text\n",
    "shop/util/__init__.py": "",
    "shop/util/helpers.py": "import shop.db.models\n\ndef money(): ...\ndef tax(): ...\n",
    "shop/util/text.py": "import shop.db.models\n",
    "shop/db/__init__.py": "",
    "shop/db/models.py": "def connect():\n    from shop.api import views\n",
}

CONTRACTS = """\
# Shop contracts.
root_packages = ["shop"]

# Nothing of the domain reaches the database.
[[contracts]]
id = "domain-no-db"
name = "The domain does not reach the database"
type = "forbidden"
source_modules = ["shop.domain"]
forbidden_modules = ["shop.db"]

[[contracts]]
id = "prices-leaf"
name = "prices imports nothing of util"
type = "leaf"
modules = ["shop.domain.prices"]
within = ["shop.util"]
allow = []   # only shrinks

[[contracts]]
id = "layers"
name = "Layers"
type = "layers"
layers = ["shop.api", "shop.domain", "shop.util", "shop.db"]
ignore_imports = ["shop.api.views -> shop.domain.orders"]   # reviewed
"""

TODAY = f"baseline {datetime.date.today().isoformat()}"


def added_lines(before: str, after: str) -> list[str]:
    """The lines of `after` that `before` does not have, in order (a line diff of insertions)."""
    import difflib

    return [
        line[2:]
        for line in difflib.ndiff(before.splitlines(), after.splitlines())
        if line.startswith("+ ")
    ]


def removed_lines(before: str, after: str) -> list[str]:
    import difflib

    return [
        line[2:]
        for line in difflib.ndiff(before.splitlines(), after.splitlines())
        if line.startswith("- ")
    ]


def test_baseline_excuses_the_cut_and_the_names_and_every_contract_is_kept_after(project):
    project.write({**PACKAGE, "contracts.toml": CONTRACTS})
    assert project.check().returncode == 1

    run = project.layering("baseline")
    assert run.returncode == 0, run.stdout + run.stderr
    after = (project.root / "contracts.toml").read_text()
    added = added_lines(CONTRACTS, after)
    # The forbidden contract: the two imports of its cut, not the four chains.
    assert f'    "shop.util.helpers -> shop.db.models", # {TODAY}' in added
    assert f'    "shop.util.text -> shop.db.models", # {TODAY}' in added
    # The leaf: name by name where the statement takes names, the import where it takes none.
    assert (
        f'    {{importer = "shop.domain.prices", module = "shop.util.helpers", names = ["money", "tax"]}}, # {TODAY}'
        in added
    )
    assert f'    "shop.domain.prices -> shop.util.text", # {TODAY}' in added
    # import-linter's layers: ignore_imports, added to the list already there.
    assert f'    "shop.db.models -> shop.api.views", # {TODAY}' in added
    # Nothing written by hand is lost: only one-line lists are spread over lines.
    assert removed_lines(CONTRACTS, after) == [
        "allow = []   # only shrinks",
        'ignore_imports = ["shop.api.views -> shop.domain.orders"]   # reviewed',
    ]
    assert "]   # only shrinks" in after and "]   # reviewed" in after
    assert "# Nothing of the domain reaches the database." in after

    check = project.check()
    assert check.returncode == 0, check.stdout
    assert "Contracts: 3 kept, 0 broken." in check.stdout


def test_after_a_baseline_a_new_violation_breaks_the_contract_and_is_the_one_reported(project):
    project.write({**PACKAGE, "contracts.toml": CONTRACTS})
    assert (
        project.layering(
            "baseline", "--contract", "domain-no-db", "--contract", "prices-leaf"
        ).returncode
        == 0
    )
    project.write(
        {
            "shop/domain/prices.py": "from shop.util.helpers import money, tax, rounding\nimport shop.util.text\n",
            "shop/domain/orders.py": "from shop.domain import prices\nfrom shop.util import helpers\n\ndef late():\n    import shop.db\n",
        }
    )
    check = project.check("--contract", "domain-no-db", "--contract", "prices-leaf")
    assert check.returncode == 1
    findings = [line.strip() for line in check.stdout.splitlines() if ": LY" in line]
    assert findings == [
        "shop/domain/orders.py:5: LY001 shop.domain.orders imports shop.db [function-level]",
        "shop/domain/prices.py:1: LY003 shop.domain.prices imports shop.util.helpers (rounding)",
    ]


def test_entries_that_no_longer_match_break_the_contract_and_prune_removes_them(project):
    project.write({**PACKAGE, "contracts.toml": CONTRACTS})
    assert project.layering("baseline", "--contract", "domain-no-db").returncode == 0
    project.write({"shop/util/text.py": ""})
    check = project.check("--contract", "domain-no-db")
    assert check.returncode == 1
    assert "LY030" in check.stdout and "shop.util.text -> shop.db.models" in check.stdout
    assert project.layering("prune").returncode == 0
    assert "shop.util.text -> shop.db.models" not in (project.root / "contracts.toml").read_text()
    assert project.check("--contract", "domain-no-db").returncode == 0


def test_dry_run_prints_the_entries_and_writes_nothing(project):
    project.write({**PACKAGE, "contracts.toml": CONTRACTS})
    run = project.layering(
        "baseline", "--dry-run", "--contract", "prices-leaf", "--comment", "legacy, see #12"
    )
    assert run.returncode == 0, run.stderr
    assert (project.root / "contracts.toml").read_text() == CONTRACTS
    assert run.stdout.splitlines() == [
        "contracts.toml: would add 2 entries to allow of contract 'prices-leaf':",
        '  {importer = "shop.domain.prices", module = "shop.util.helpers", names = ["money", "tax"]}, # legacy, see #12',
        '  "shop.domain.prices -> shop.util.text", # legacy, see #12',
        "contracts.toml: every baselined contract would be kept; the entries only shrink from now on (`layering prune` removes stale ones)",
    ]


def test_a_kept_configuration_is_left_byte_for_byte(project):
    kept = {
        "shop/util/helpers.py": "",
        "shop/util/text.py": "",
        "shop/domain/prices.py": "",
        "shop/db/models.py": "",
    }
    project.write({**PACKAGE, **kept, "contracts.toml": CONTRACTS})
    before = (project.root / "contracts.toml").read_bytes()
    run = project.layering("baseline")
    assert run.returncode == 0
    assert "nothing to baseline" in run.stdout
    assert (project.root / "contracts.toml").read_bytes() == before


def test_a_missing_option_is_written_inside_its_own_table_and_crlf_is_kept(project):
    text = CONTRACTS.replace("\n", "\r\n")
    project.write(PACKAGE)
    (project.root / "contracts.toml").write_bytes(text.encode())
    assert project.layering("baseline", "--contract", "domain-no-db").returncode == 0
    after = (project.root / "contracts.toml").read_bytes().decode()
    assert "\n" not in after.replace("\r\n", "")
    table = after.split("[[contracts]]")[1]
    assert 'forbidden_modules = ["shop.db"]\r\nallow = [\r\n' in table
    assert after.split("[[contracts]]")[2].startswith('\r\nid = "prices-leaf"')


def test_import_linter_ini_gets_ignore_imports_and_lint_imports_agrees(project):
    project.write(
        {
            **PACKAGE,
            ".importlinter": """\
                [importlinter]
                root_package = shop

                [importlinter:contract:domain-no-db]
                name = The domain does not reach the database
                type = forbidden
                source_modules = shop.domain
                forbidden_modules = shop.db

                [importlinter:contract:layers]
                name = Layers
                type = layers
                layers =
                    shop.api
                    shop.domain
                    shop.util
                    shop.db
                ignore_imports =
                    # reviewed
                    shop.api.views -> shop.domain.orders
                """,
        }
    )
    before = (project.root / ".importlinter").read_text()
    run = project.layering("baseline")
    assert run.returncode == 0, run.stdout + run.stderr
    after = (project.root / ".importlinter").read_text()
    assert removed_lines(before, after) == []
    added = added_lines(before, after)
    assert added[:4] == [
        "ignore_imports =",
        f"    # {TODAY}",
        "    shop.util.helpers -> shop.db.models",
        "    shop.util.text -> shop.db.models",
    ]
    assert project.check().returncode == 0
    lint_imports = os.path.join(os.path.dirname(sys.executable), "lint-imports")
    if os.path.exists(lint_imports):
        verdict = subprocess.run(
            [lint_imports],
            cwd=project.root,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(project.root)},
        )
        assert verdict.returncode == 0, verdict.stdout


def test_pyproject_tool_layering_is_edited_in_place(project):
    project.write(
        {
            **PACKAGE,
            "pyproject.toml": '[project]\nname = "shop"\n\n[tool.layering]\nroot_packages = ["shop"]\n\n'
            + '[[tool.layering.contracts]]\nid = "domain-no-db"\nname = "No db"\ntype = "forbidden"\n'
            + 'source_modules = ["shop.domain"]\nforbidden_modules = ["shop.db"]\n\n[tool.other]\nkey = 1\n',
        }
    )
    assert project.layering("baseline").returncode == 0
    after = (project.root / "pyproject.toml").read_text()
    assert after.endswith("[tool.other]\nkey = 1\n")
    assert 'forbidden_modules = ["shop.db"]\nallow = [\n' in after
    assert project.check().returncode == 0


def test_bad_input_is_a_located_error_and_nothing_is_written(project):
    project.write({**PACKAGE, "contracts.toml": CONTRACTS})
    unknown = project.layering("baseline", "--contract", "nope")
    assert unknown.returncode == 2
    assert unknown.stderr.startswith(
        "layering: error: argument --contract: 'nope' names no contract of contracts.toml."
    )
    assert "Traceback" not in unknown.stderr
    two_lines = project.layering("baseline", "--comment", "a\nb")
    assert two_lines.returncode == 2 and "one line" in two_lines.stderr
    assert (project.root / "contracts.toml").read_text() == CONTRACTS


def test_a_module_that_loads_a_forbidden_one_is_expected_to_load_it(project):
    project.write(
        {
            **PACKAGE,
            "contracts.toml": """\
                root_packages = ["shop"]

                [[contracts]]
                id = "views-load-no-db"
                name = "Importing the views loads no database"
                type = "loads"
                modules = ["shop.api.views", "shop.util.helpers", "shop.util"]
                forbidden = ["shop.db"]
                """,
        }
    )
    run = project.layering("baseline")
    assert run.returncode == 0, run.stdout + run.stderr
    text = (project.root / "contracts.toml").read_text()
    assert (
        f'expect_loaded = [\n    "shop.api.views", # {TODAY}\n    "shop.util.helpers", # {TODAY}\n]\n'
        in text
    )
    assert project.check().returncode == 0
    project.write({"shop/util/helpers.py": ""})
    check = project.check()
    assert check.returncode == 1
    assert (
        "LY032 shop.util.helpers no longer loads a forbidden module: remove it from expect_loaded"
        in check.stdout
    )
