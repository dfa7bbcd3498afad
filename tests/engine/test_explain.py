"""`layering explain IMPORTER IMPORTED` on real files: the chains, each hop a located statement
with its names and marks, the cut, exit codes, JSON, and located errors."""

from __future__ import annotations

import json

FILES = {
    "contracts.toml": 'root_packages = ["shop"]\n',
    "shop/__init__.py": "",
    "shop/api/__init__.py": "",
    "shop/api/views.py": "from shop.domain import orders\n",
    "shop/domain/__init__.py": "",
    "shop/domain/orders.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from "
    "shop.util.helpers import money\n\ndef total():\n    from shop.util "
    "import (\n        text,\n    )\n",
    "shop/util/__init__.py": "",
    "shop/util/helpers.py": "import shop.db.models\n",
    "shop/util/text.py": "from shop.db.models import Row, Table\n",
    "shop/db/__init__.py": "",
    "shop/db/models.py": "Row = Table = None\n",
}


def test_explain_shows_every_chain_with_located_hops_names_and_marks(project):
    project.write(FILES)
    run = project.layering("explain", "shop.api", "shop.db", "--chains", "all")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        "shop.api imports shop.db:",
        "  1 chain from shop.api to shop.db; removing this import cuts it:",
        "  shop/api/views.py:1: shop.api.views imports shop.domain.orders",
        "    the chain:",
        "      shop/api/views.py:1: shop.api.views -> shop.domain.orders",
        "      shop/domain/orders.py:3: shop.domain.orders -> shop.util.helpers (money) "
        "[TYPE_CHECKING]",
        "      shop/util/helpers.py:1: shop.util.helpers -> shop.db.models",
        "  the chain (the shortest from the only import of a source module that leads there):",
        "    - shop/api/views.py:1: shop.api.views -> shop.domain.orders",
        "      shop/domain/orders.py:3: shop.domain.orders -> shop.util.helpers (money) "
        "[TYPE_CHECKING]",
        "      shop/util/helpers.py:1: shop.util.helpers -> shop.db.models",
    ]


def test_explain_names_the_cut_between_packages(project):
    project.write(FILES)
    run = project.layering("explain", "shop.domain", "shop.db", "--chains", "0")
    assert run.returncode == 0
    lines = run.stdout.splitlines()
    assert lines[:2] == [
        "shop.domain imports shop.db:",
        "  2 chains from shop.domain to shop.db; removing these 2 imports cuts them all:",
    ]
    assert "  shop/util/helpers.py:1: shop.util.helpers imports shop.db.models" in lines
    assert "  shop/util/text.py:1: shop.util.text imports shop.db.models (Row, Table)" in lines
    assert (
        "      shop/domain/orders.py:7: shop.domain.orders -> shop.util.text [function-level]"
        in lines
    )


def test_explain_says_when_there_is_no_import_and_exits_1(project):
    project.write(FILES)
    run = project.layering("explain", "shop.db", "shop.api")
    assert run.returncode == 1
    assert run.stdout == "shop.db does not import shop.api, directly or through a chain.\n"


def test_explain_as_json(project):
    project.write(FILES)
    run = project.layering(
        "explain", "shop.util", "shop.db", "--format", "json", "--chains", "all"
    )
    assert run.returncode == 0
    data = json.loads(run.stdout)
    assert data["imports"] is True and data["chains"] == 2
    assert [
        (c["importer"], c["imported"], c["path"], c["lines"], c["names"]) for c in data["cut"]
    ] == [
        ("shop.util.helpers", "shop.db.models", "shop/util/helpers.py", [1], []),
        ("shop.util.text", "shop.db.models", "shop/util/text.py", [1], ["Row", "Table"]),
    ]
    assert len(data["listed"]) == 2
    missing = project.layering("explain", "shop.db", "shop.util", "--format", "json")
    assert missing.returncode == 1 and json.loads(missing.stdout)["imports"] is False


def test_bad_modules_are_usage_errors_with_a_suggestion(project):
    project.write(FILES)
    typo = project.layering("explain", "shop.utill", "shop.db")
    assert typo.returncode == 2
    assert typo.stderr == (
        "layering: error: argument IMPORTER: 'shop.utill' is not a module of shop. Did you mean "
        "'shop.util'?\n"
    )
    overlap = project.layering("explain", "shop.db", "shop.db.models")
    assert overlap.returncode == 2 and "overlap" in overlap.stderr
    as_json = project.layering("explain", "shop.utill", "shop.db", "--format", "json")
    assert as_json.returncode == 2 and json.loads(as_json.stdout)["errors"]
    for run in (typo, overlap, as_json):
        assert "Traceback" not in run.stderr


CONTRACT = """
[[contracts]]
id = "domain-no-db"
name = "The domain never reaches the database"
type = "forbidden"
source_modules = ["shop.domain"]
forbidden_modules = ["shop.db"]
"""


def test_explain_says_why_a_contract_counts_fewer_of_its_chains(project):
    # The two chains explain shows: one through a TYPE_CHECKING import, one through an import in
    # a function. The contract leaves the first out and excuses the second: it counts neither,
    # and explain says so, with the reasons; a contract that counts them all is not named.
    project.write(
        {
            **FILES,
            "contracts.toml": 'root_packages = ["shop"]\n'
            + CONTRACT
            + 'type_checking = "ignore"\nallow = ["shop.util.text -> shop.db.models"]\n'
            + CONTRACT.replace("domain-no-db", "as-written"),
        }
    )
    run = project.layering("explain", "shop.domain", "shop.db", "--chains", "0")
    assert run.returncode == 0, run.stderr
    said = [line for line in run.stdout.splitlines() if line.startswith("contract ")]
    assert said == [
        "contract 'domain-no-db' counts none of them: its allowances excuse them (1 in use);"
        ' leaves out TYPE_CHECKING imports (type_checking = "ignore")'
    ]
    check = project.layering("check", "--contract", "domain-no-db")
    assert check.returncode == 0, check.stdout
    assert "KEPT (1 allowance in use)" in check.stdout
    document = json.loads(
        project.layering("explain", "shop.domain", "shop.db", "--format", "json").stdout
    )
    assert document["chains"] == 2
    assert document["contracts"] == [
        {
            "contract": "domain-no-db",
            "chains": 0,
            "reasons": [
                "its allowances excuse them (1 in use)",
                'leaves out TYPE_CHECKING imports (type_checking = "ignore")',
            ],
        }
    ]


def test_explain_names_no_contract_that_counts_what_it_shows(project):
    project.write({**FILES, "contracts.toml": 'root_packages = ["shop"]\n' + CONTRACT})
    run = project.layering("explain", "shop.domain", "shop.db")
    assert run.returncode == 0, run.stderr
    assert not [line for line in run.stdout.splitlines() if line.startswith("contract ")]
