"""One cut for a whole contract: where one import carries the chains of several groups (an
independence contract's pairs), the report names that import, located, and the JSON carries
it per contract; removing it keeps the contract."""

from __future__ import annotations

import json

FILES = {
    "contracts.toml": 'root_packages = ["app"]\n\n[[contracts]]\nid = "apart"\nname = "x, y and z '
    'apart"\ntype = "independence"\nmodules = ["app.x", "app.y", "app.z"]\n',
    "app/__init__.py": "",
    "app/x/__init__.py": "",
    "app/x/m.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from app.shared "
    "import hub\n",
    "app/shared/__init__.py": "",
    "app/shared/hub.py": "from app.y import m as ym\nfrom app.z import m as zm\n",
    "app/y/__init__.py": "",
    "app/y/m.py": "",
    "app/z/__init__.py": "",
    "app/z/m.py": "",
}


def test_one_import_that_carries_every_pair_is_named_and_removing_it_keeps_the_contract(project):
    project.write(FILES)
    run = project.check("--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    # Each pair's own cut is the import nearest its target: two imports of the hub.
    assert "  Removing the 2 imports above keeps the contract." in lines
    assert lines[lines.index("  Removing the 2 imports above keeps the contract.") + 1 :][:2] == [
        "  Fewer do: removing this import keeps the contract:",
        "  app/x/m.py:3: app.x.m -> app.shared.hub [TYPE_CHECKING]",
    ]
    cached = project.check()
    assert project.check().stdout == cached.stdout == run.stdout
    contract = json.loads(project.check("--format", "json").stdout)["contracts"][0]
    assert [
        (hop["importer"], hop["imported"], hop["path"], hop["line"])
        for hop in contract["contract_cut"]
    ] == [("app.x.m", "app.shared.hub", "app/x/m.py", 3)]
    project.write({"app/x/m.py": "from typing import TYPE_CHECKING\n"})
    assert project.check().returncode == 0


def test_a_contract_of_one_group_has_its_cut_and_says_no_more(project):
    project.write(
        {
            **FILES,
            "contracts.toml": FILES["contracts.toml"]
            .replace('"app.z"]', "]")
            .replace('"app.x", ', '"app.x", '),
        }
    )
    run = project.check("--no-cache")
    assert run.returncode == 1
    assert "Fewer do" not in run.stdout
    contract = json.loads(project.check("--format", "json").stdout)["contracts"][0]
    assert contract["contract_cut"] == []
