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
