"""An allowance on an import in the middle of a chain excuses the chains through it (and only
those): the edges an allowance is tried on are the ones between what the sources reach and what
reaches a forbidden module."""

from __future__ import annotations


def ui_to_db(excuse: str, modules: dict[str, str]) -> dict[str, str]:
    """app.ui.page -> app.core.service -> app.core.repository -> app.db.session, the contract
    "app.ui does not reach app.db" with `excuse`, and `modules` (path: text) added or replaced."""
    return {
        "app/__init__.py": "",
        "app/ui/__init__.py": "",
        "app/ui/page.py": "import app.core.service\n",
        "app/core/__init__.py": "",
        "app/core/repository.py": "import app.db.session\n",
        "app/db/__init__.py": "",
        "app/db/session.py": "",
        **modules,
        "contracts.toml": f"""\
root_packages = ["app"]

[[contracts]]
id = "ui-no-db"
name = "The UI does not reach the database"
type = "forbidden"
source_modules = ["app.ui"]
forbidden_modules = ["app.db"]
{excuse}
""",
    }


def test_an_allowance_in_the_middle_of_a_chain_excuses_the_chains_through_it(project):
    project.write(
        ui_to_db(
            'allow = ["app.core.service -> app.core.repository"]',
            {
                "app/ui/page.py": "import app.core.service\nimport app.core.other\n",
                "app/core/service.py": "import app.core.repository\n",
                "app/core/other.py": "import app.core.repository\n",
            },
        )
    )
    run = project.check("--chains", "all")
    assert run.returncode == 1
    assert "LY030" not in run.stdout, "the allowance excuses an import on a chain"
    assert "app.core.service" not in run.stdout.split("chains")[-1]
    assert (
        "app/core/repository.py:1: LY002 app.core.repository imports app.db.session" in run.stdout
    )
    assert "1 chain from app.ui to app.db" in run.stdout

    project.write({"app/core/other.py": ""})
    assert project.check().returncode == 0


def test_a_chain_through_the_importer_an_ignored_import_names_is_found(project):
    """The importers `ignore_imports` names are read before the chains are followed; one that a
    source reaches is followed on, not taken as a dead end."""
    project.write(
        ui_to_db(
            'ignore_imports = ["app.core.service -> app.core.cache"]',
            {
                "app/core/service.py": "import app.core.repository\nimport app.core.cache\n",
                "app/core/cache.py": "",
            },
        )
    )
    for cache in ((), ("--no-cache",)):
        run = project.check(*cache)
        assert run.returncode == 1, run.stdout
        assert (
            "app/core/repository.py:1: LY002 app.core.repository imports app.db.session"
            in run.stdout
        )


PYGMENTS_USER = {
    "app/__init__.py": "",
    "app/_main.py": "import pygments.lexers\nfrom os import path\nimport click\n",
    "app/other.py": "import os.path\n",
}


def external_contract(allow_indirect: bool, excuse: str) -> str:
    return f"""\
root_packages = ["app"]
include_external_packages = true

[[contracts]]
id = "no-externals"
name = "The app imports neither pygments, nor click, nor os"
type = "forbidden"
source_modules = ["app._main"]
forbidden_modules = ["pygments", "click", "os"]
allow_indirect_imports = {str(allow_indirect).lower()}
{excuse}
"""


def test_an_entry_spelled_as_the_finding_of_an_external_submodule_excuses_it(project):
    """`import pygments.lexers` is reported as an import of `pygments` (the graph keeps an
    external package whole): "app._main -> pygments", spelled as the finding is, excuses it, in
    `allow` and in `ignore_imports`, whether chains count or only direct imports."""
    for allow_indirect in (False, True):
        project.write(
            {**PYGMENTS_USER, "contracts.toml": external_contract(allow_indirect, "allow = []")}
        )
        broken = project.check("--no-cache")
        assert broken.returncode == 1, broken.stdout + broken.stderr
        assert "app._main imports pygments" in broken.stdout, broken.stdout
        for option in ("allow", "ignore_imports"):
            excuse = (
                f'{option} = ["app._main -> pygments", "app._main -> os", "app._main -> click"]'
            )
            project.write({"contracts.toml": external_contract(allow_indirect, excuse)})
            for args in (("--no-cache",), (), ()):
                kept = project.check(*args)
                assert kept.returncode == 0, (allow_indirect, option, kept.stdout + kept.stderr)
                assert "LY030" not in kept.stdout, kept.stdout


def test_an_ignored_import_of_a_module_outside_the_sources_is_not_stale_with_direct_imports(
    project,
):
    """An ignored import matches any import of the package it names, as on the graph, not only
    the imports of the source modules."""
    contract = external_contract(True, 'ignore_imports = ["app.other -> os"]')
    project.write({**PYGMENTS_USER, "app/_main.py": "", "contracts.toml": contract})
    result = project.check("--no-cache")
    assert result.returncode == 0, result.stdout + result.stderr
