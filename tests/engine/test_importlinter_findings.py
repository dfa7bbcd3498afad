"""What import-linter's contract types report: real import statements, located, never a
package's `__init__.py` at line 0 standing in for a route, and import-linter's options honoured."""

from __future__ import annotations

import pytest

SHOP = {
    "src/shop/__init__.py": "",
    "src/shop/api/__init__.py": "",
    "src/shop/api/views.py": "import json\n",
    "src/shop/domain/__init__.py": "",
    "src/shop/domain/orders.py": "import json\n\n\nfrom shop.api import views\n",
    "src/shop/domain/pricing.py": "from shop import util\n",
    "src/shop/infra/__init__.py": "",
    "src/shop/infra/db.py": "from shop.domain import orders\n",
    "src/shop/util.py": "from shop.api.views import render\n",
}
HEADER = 'root_packages = ["shop"]\nsource_roots = ["src"]\ncache_dir = false\n'


def contract(kind: str, body: str, id: str = "c") -> str:
    return f'\n[[contracts]]\nid = "{id}"\ntype = "{kind}"\n{body}\n'


def test_layers_report_each_import_to_cut_at_its_statement(project):
    project.write(
        {
            **SHOP,
            "contracts.toml": HEADER
            + contract("layers", 'layers = ["shop.api", "shop.domain", "shop.infra"]'),
        }
    )
    result = project.check()
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.splitlines()[2:] == [
        "  2 chains from shop.domain to shop.api; removing these 2 imports cuts them all:",
        "  src/shop/domain/orders.py:4: LY011 shop.domain.orders imports shop.api.views",
        "  src/shop/util.py:1: LY011 shop.util imports shop.api.views (render)",
        "    1 of the 2 chains runs through it; the shortest:",
        "      src/shop/domain/pricing.py:1: shop.domain.pricing -> shop.util",
        "      src/shop/util.py:1: shop.util -> shop.api.views (render)",
        "  1 chain from shop.infra to shop.domain; removing this import cuts it:",
        "  src/shop/infra/db.py:1: LY011 shop.infra.db imports shop.domain.orders",
        "  Removing the 3 imports above keeps the contract.",
        "",
        "Contracts: 0 kept, 1 broken.",
    ]
    assert "__init__.py" not in result.stdout and ":0:" not in result.stdout


def test_independence_reports_only_routes_between_the_listed_modules(project):
    files = {**SHOP, "src/shop/api/more.py": "from shop import util\n"}
    project.write(
        {
            **files,
            "contracts.toml": HEADER
            + contract("independence", 'modules = ["shop.domain", "shop.infra"]'),
        }
    )
    result = project.check("--format", "json")
    (found,) = __import__("json").loads(result.stdout)["contracts"]
    assert [(g["source"], g["target"]) for g in found["chain_groups"]] == [
        ("shop.infra", "shop.domain")
    ]
    assert [(v["importer"], v["imported"], v["path"], v["line"]) for v in found["violations"]] == [
        ("shop.infra.db", "shop.domain.orders", "src/shop/infra/db.py", 1)
    ]
    assert (
        "shop.api.more" not in result.stdout
    )  # not a violation as worded, though it imports util


def test_acyclic_siblings_shows_the_imports_that_close_the_cycle(project):
    files = {**SHOP, "src/shop/api/views.py": "from shop.domain import pricing\n"}
    project.write(
        {**files, "contracts.toml": HEADER + contract("acyclic_siblings", 'ancestors = ["shop"]')}
    )
    result = project.check()
    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert any(line.startswith("  src/shop/") and " LY013 " in line for line in lines), (
        result.stdout
    )
    assert result.stdout.count("acyclic_siblings #1 [c] BROKEN") == 1
    assert "The children of shop import each other in cycles" in result.stdout
    assert "contracts.toml" not in "\n".join(line for line in lines if "LY013" in line)


def test_protected_reports_each_illegal_statement(project):
    project.write(
        {
            **SHOP,
            "contracts.toml": HEADER
            + contract(
                "protected",
                'protected_modules = ["shop.api"]\nallowed_importers = ["shop.domain"]',
            ),
        }
    )
    result = project.check()
    assert result.returncode == 1
    assert (
        "  src/shop/util.py:1: LY014 shop.util imports shop.api.views (render)\n" in result.stdout
    )


def test_a_stale_ignored_import_is_a_located_finding_not_a_crash(project):
    body = (
        'layers = ["shop.api", "shop.domain"]\nignore_imports = [\n  "shop.domain.orders -> '
        'shop.api.views",\n  "shop.domain.gone -> shop.api",\n]'
    )
    project.write(
        {
            **SHOP,
            "src/shop/domain/pricing.py": "import json\n",
            "contracts.toml": HEADER + contract("layers", body),
        }
    )
    result = project.check()
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert (
        "LY030 ignored import 'shop.domain.gone -> shop.api' matches no import: remove it"
        in result.stdout
    )
    assert "(1 ignored import)" in result.stdout
    assert "LY011" not in result.stdout  # the matched one is still ignored


def test_unmatched_ignores_warn_at_the_alerting_level(project):
    body = (
        'layers = ["shop.api", "shop.domain"]\nignore_imports = ["shop.domain.gone -> '
        'shop.api"]\nunmatched_ignore_imports_alerting = "warn"'
    )
    project.write({**SHOP, "contracts.toml": HEADER + contract("layers", body)})
    result = project.check()
    assert "layering: warning: contracts.toml:" in result.stderr
    assert "ignored import 'shop.domain.gone -> shop.api' matches no import" in result.stderr
    assert "LY030" not in result.stdout


def test_broken_contract_guidance_is_shown(project):
    body = (
        'layers = ["shop.api", "shop.domain"]\nbroken_contract_guidance = "Ask the shop team '
        'before you add an import."'
    )
    project.write({**SHOP, "contracts.toml": HEADER + contract("layers", body)})
    result = project.check()
    assert result.returncode == 1
    assert "  Ask the shop team before you add an import.\n" in result.stdout


def test_an_ignored_external_import_is_not_said_to_be_unseen(project):
    files = {**SHOP, "src/shop/util.py": "import flake8\n"}
    body = (
        'source_modules = ["shop.util"]\nforbidden_modules = ["flake8"]\nignore_imports = '
        '["shop.util -> flake8"]'
    )
    project.write({**files, "contracts.toml": HEADER + contract("forbidden", body)})
    result = project.check()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "neither installed" not in result.stderr
    assert "(1 ignored import)" in result.stdout


def test_a_future_statement_is_no_import_for_a_leaf(project):
    files = {**SHOP, "src/shop/util.py": "from __future__ import annotations\n"}
    project.write(
        {
            **files,
            "contracts.toml": HEADER + contract("leaf", 'modules = ["shop.util"]\nwithin = ["*"]'),
        }
    )
    assert project.check().returncode == 0


def test_selecting_no_contract_is_an_error(project):
    files = {
        **SHOP,
        "contracts.toml": HEADER
        + contract("probe", 'modules = ["shop.util"]\nforbidden = ["shop.api"]', id="p"),
    }
    project.write(files)
    result = project.check("--contract", "p", "--no-probe")
    assert result.returncode == 2
    assert "no static contract to check: the selection leaves out all 1 contract" in result.stderr


def test_every_run_says_how_many_contracts_it_skipped(project):
    text = HEADER + contract("probe", 'modules = ["shop.util"]\nforbidden = ["shop.api"]', id="p")
    text += contract("leaf", 'modules = ["shop.util"]\nwithin = ["shop.infra"]', id="l")
    project.write({**SHOP, "contracts.toml": text})
    assert project.check("--no-probe").stdout.endswith(
        "Contracts: 1 kept, 0 broken; 1 probe contract skipped.\n"
    )


def test_the_cache_directory_is_kept_out_of_git_and_backups(project):
    project.write(
        {
            **SHOP,
            "contracts.toml": HEADER.replace("cache_dir = false\n", "")
            + contract("layers", 'layers = ["shop.infra", "shop.domain"]'),
        }
    )
    project.check()
    cache = project.root / ".layering_cache"
    assert (cache / ".gitignore").read_text().splitlines()[-1] == "*"
    assert (
        (cache / "CACHEDIR.TAG")
        .read_text()
        .startswith("Signature: 8a477f597d28d172789f06886806bc55")
    )


CLICK_USER = (
    "import click\nfrom click.testing import CliRunner\nfrom click.testing import Result\n"
)


@pytest.mark.parametrize(
    ("allow_indirect_imports", "expected"),
    [
        (
            "false",  # a cut: statements of one module in a row are one line saying which lines
            [
                "  app/cli.py:1: LY001 app.cli imports click",
                "  app/cli.py:2: LY001 app.cli imports click.testing (CliRunner, Result) (2 "
                "statements, lines 2-3)",
            ],
        ),
        (
            "true",
            [
                "  app/cli.py:1: LY001 app.cli imports click",
                "  app/cli.py:2: LY001 app.cli imports click.testing (CliRunner)",
                "  app/cli.py:3: LY001 app.cli imports click.testing (Result)",
            ],
        ),
    ],
)
def test_two_statements_of_two_modules_of_an_external_package_are_two_findings(
    project, allow_indirect_imports, expected
):
    """The graph squashes an external package into its top level, but `import click` and
    `from click.testing import CliRunner` import two modules: neither is said as the other's
    ("imports click (CliRunner)")."""
    project.write(
        {
            "app/__init__.py": "",
            "app/cli.py": CLICK_USER,
            ".importlinter": "[importlinter]\nroot_package = app\ninclude_external_packages = "
            "true\n\n"
            "[importlinter:contract:no-click]\nname = no click\ntype = forbidden\n"
            "source_modules = app.cli\nforbidden_modules = click\n"
            f"allow_indirect_imports = {allow_indirect_imports}\n",
        }
    )
    result = project.check("--no-cache")
    assert result.returncode == 1, result.stdout + result.stderr
    assert [line for line in result.stdout.splitlines() if "LY0" in line] == expected
