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
    # The forbidden contract: the pairs of modules its chains join, not the imports they run
    # through (a new chain through one of them is a new violation).
    assert f'    "shop.domain.orders -> shop.db.models", # {TODAY}' in added
    assert f'    "shop.domain.prices -> shop.db.models", # {TODAY}' in added
    # The leaf: name by name where the statement takes names, the import where it takes none.
    assert (
        '    {importer = "shop.domain.prices", module = "shop.util.helpers", names = ["money", '
        f'"tax"]}}, # {TODAY}' in added
    )
    assert f'    "shop.domain.prices -> shop.util.text", # {TODAY}' in added
    # import-linter's layers: known chains too, beside the ignored imports already there.
    assert f'    "shop.db.models -> shop.api.views", # {TODAY}' in added
    # Nothing written by hand is lost: only one-line lists are spread over lines.
    assert removed_lines(CONTRACTS, after) == ["allow = []   # only shrinks"]
    assert "]   # only shrinks" in after
    assert 'ignore_imports = ["shop.api.views -> shop.domain.orders"]   # reviewed' in after
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
            "shop/domain/prices.py": "from shop.util.helpers import money, tax, rounding\nimport "
            "shop.util.text\n",
            "shop/domain/orders.py": "from shop.domain import prices\nfrom shop.util import "
            "helpers\n\ndef late():\n    import shop.db\n",
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
    project.write({"shop/util/helpers.py": "def money(): ...\ndef tax(): ...\n"})
    check = project.check("--contract", "domain-no-db")
    assert check.returncode == 1
    assert "LY030" in check.stdout and "shop.domain.orders -> shop.db.models" in check.stdout
    assert project.layering("prune").returncode == 0
    left = (project.root / "contracts.toml").read_text()
    assert "shop.domain.orders -> shop.db.models" not in left
    assert "shop.domain.prices -> shop.db.models" in left
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
        '  {importer = "shop.domain.prices", module = "shop.util.helpers", names = ["money", '
        '"tax"]}, # legacy, see #12',
        '  "shop.domain.prices -> shop.util.text", # legacy, see #12',
        "contracts.toml: every baselined contract would be kept; the entries only shrink from now "
        "on (`layering prune` removes stale ones)",
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
    assert 'forbidden_modules = ["shop.db"]\r\nknown_chains = [\r\n' in table
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
            "pyproject.toml": '[project]\nname = "shop"\n\n[tool.layering]\nroot_packages = '
            '["shop"]\n\n'
            + '[[tool.layering.contracts]]\nid = "domain-no-db"\nname = "No db"\ntype = '
            '"forbidden"\n' + 'source_modules = ["shop.domain"]\nforbidden_modules = '
            '["shop.db"]\n\n[tool.other]\nkey = 1\n',
        }
    )
    assert project.layering("baseline").returncode == 0
    after = (project.root / "pyproject.toml").read_text()
    assert after.endswith("[tool.other]\nkey = 1\n")
    assert 'forbidden_modules = ["shop.db"]\nknown_chains = [\n' in after
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
    """`expect_loaded` gains "module -> forbidden module" pairs: a new forbidden load of the same
    module still breaks the contract; a bare module still reads, with a warning."""
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
                forbidden = ["shop.db", "json"]
                """,
        }
    )
    run = project.layering("baseline")
    assert run.returncode == 0, run.stdout + run.stderr
    text = (project.root / "contracts.toml").read_text()
    assert (
        f'expect_loaded = [\n    "shop.api.views -> shop.db", # {TODAY}\n'
        f'    "shop.util.helpers -> shop.db", # {TODAY}\n]\n'
    ) in text
    assert project.check().returncode == 0
    project.write({"shop/util/helpers.py": "import shop.db.models\nimport json\n"})
    check = project.check()
    assert check.returncode == 1, check.stdout
    assert [line.strip() for line in check.stdout.splitlines() if ": LY" in line] == [
        "shop/util/helpers.py:2: LY026 shop.util.helpers imports json",  # the cut
        "shop/api/views.py:1: LY026 importing shop.api.views loads json",
        "shop/util/helpers.py:2: LY026 importing shop.util.helpers loads json",
    ]
    project.write({"shop/util/helpers.py": ""})
    check = project.check()
    assert check.returncode == 1
    assert (
        "LY032 shop.util.helpers no longer loads shop.db: remove 'shop.util.helpers -> shop.db' "
        "from expect_loaded" in check.stdout
    )
    bare = text.replace(' -> shop.db"', '"')
    (project.root / "contracts.toml").write_text(bare)
    project.write({"shop/util/helpers.py": "import shop.db.models\nimport json\n"})
    check = project.check()
    assert check.returncode == 0, check.stdout
    assert (
        "expect_loaded entry 'shop.util.helpers' excuses any forbidden module it loads, "
        "tomorrow's "
        "too: narrow it to 'shop.util.helpers -> <forbidden module>'"
    ) in check.stderr


EXHAUSTIVE = {
    "app/__init__.py": "",
    "app/api/__init__.py": "",
    "app/api/views.py": "",
    "app/core/__init__.py": "",
    "app/core/model.py": "import app.api.views\n",
    "app/scripts/__init__.py": "",
    "contracts.toml": """\
root_packages = ["app"]

[[contracts]]
id = "layers"
name = "Layers"
type = "layers"
containers = ["app"]
layers = ["api", "core"]
exhaustive = true
""",
}


def test_an_unlisted_module_of_an_exhaustive_layers_contract_is_baselined_too(project):
    """An exhaustive contract's unlisted child (LY015) gains an `exhaustive_ignores` entry
    like any finding its entry, so the baseline keeps the contract; a new import up the layers
    still breaks it."""
    project.write(EXHAUSTIVE)
    run = project.layering("baseline")
    assert run.returncode == 0, run.stdout + run.stderr
    after = (project.root / "contracts.toml").read_text()
    assert added_lines(EXHAUSTIVE["contracts.toml"], after) == [
        "known_chains = [",
        f'    "app.core.model -> app.api.views", # {TODAY}',
        "]",
        "exhaustive_ignores = [",
        f'    "scripts", # {TODAY}',
        "]",
    ]
    kept = project.check()
    assert kept.returncode == 0, kept.stdout + kept.stderr
    project.write({"app/core/other.py": "from app.api import views\n"})
    broken = project.check()
    assert broken.returncode == 1, broken.stdout
    assert [line.strip() for line in broken.stdout.splitlines() if ": LY" in line] == [
        "app/core/other.py:1: LY011 app.core.other imports app.api.views"
    ]


def test_every_contract_carries_its_debt_after_a_baseline(project):
    """After a baseline each contract says how many of its entries excuse a finding today, in
    the text report and the JSON, and the number falls as the code is fixed."""
    import json

    project.write({**PACKAGE, "contracts.toml": CONTRACTS})
    assert project.layering("baseline").returncode == 0
    kept = project.check()
    assert kept.returncode == 0, kept.stdout
    assert [line for line in kept.stdout.splitlines() if " KEPT" in line] == [
        "The domain does not reach the database [domain-no-db] KEPT (2 allowances in use)",
        "prices imports nothing of util [prices-leaf] KEPT (2 allowances in use)",
        "Layers [layers] KEPT (1 allowance in use, 1 ignored import)",
    ]
    data = json.loads(project.check("--format", "json").stdout)
    assert [(c["allowances_used"], c["ignored_imports"]) for c in data["contracts"]] == [
        (2, 0),
        (2, 0),
        (1, 1),
    ]
    project.write({"shop/domain/prices.py": "from shop.util.helpers import money, tax\n"})
    assert project.layering("prune").returncode == 0
    assert "prices imports nothing of util [prices-leaf] KEPT (1 allowance in use)" in (
        project.check().stdout
    )


REUSED = {
    "x/__init__.py": "",
    "x/commands/__init__.py": "",
    "x/commands/download.py": "",
    "x/utils/__init__.py": "",
    "x/utils/helpers.py": "import x.commands.download\n",
    "x/build_env/__init__.py": "from x.build_env import installer\n",
    "x/build_env/installer.py": "import x.utils.helpers\n",
    "contracts.toml": """\
root_packages = ["x"]

[[contracts]]
id = "layers"
name = "Commands over the build environment"
type = "layers"
layers = ["x.commands", "x.build_env"]

[[contracts]]
id = "build-env-no-commands"
name = "The build environment does not reach the commands"
type = "forbidden"
source_modules = ["x.build_env"]
forbidden_modules = ["x.commands"]
""",
}


def test_a_new_chain_through_an_import_the_baseline_excused_breaks_the_contract(project):
    """The baseline excuses the pairs joined today (x.build_env.installer reaches
    x.commands.download), not the imports their chains run through: a new module of the lower
    layer that reaches the commands through the same helpers joins a new pair, and each
    contract breaks on it, naming the new import."""
    project.write(REUSED)
    run = project.layering("baseline")
    assert run.returncode == 0, run.stdout + run.stderr
    after = (project.root / "contracts.toml").read_text()
    assert after.count(f'    "x.build_env.installer -> x.commands.download", # {TODAY}') == 2
    assert project.check().returncode == 0
    project.write({"x/build_env/wheel.py": "from x.utils import helpers\n"})
    broken = project.check()
    assert broken.returncode == 1, broken.stdout
    assert broken.stdout.count("x/build_env/wheel.py:1: x.build_env.wheel -> x.utils.helpers") == 2
    assert "Contracts: 0 kept, 2 broken." in broken.stdout
