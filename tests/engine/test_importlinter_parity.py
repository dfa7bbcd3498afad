"""import-linter's contract types, and `forbidden` with only its options, give its verdicts; and
what a
report shows (broken pairs, chain ends, the imports named) agrees with what import-linter finds."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from report_support import (
    EXAMPLE_CONTRACTS,
    SHOP,
    SHOP_CONTRACTS,
    compare_with_importlinter,
    copy_example,
    importlinter_findings,
    json_report,
    route_chains,
    shop_config,
    tomllib,
    write_files,
)

PACKAGE = {
    "src/shop/__init__.py": "",
    "src/shop/api/__init__.py": "",
    "src/shop/api/views.py": "from shop.domain import orders\nfrom shop import infra\n",
    "src/shop/domain/__init__.py": "",
    "src/shop/domain/orders.py": "from ..domain import pricing\n\ndef f():\n    from shop.infra "
    "import db\n",
    "src/shop/domain/pricing.py": "import decimal\n",
    "src/shop/infra/__init__.py": "",
    "src/shop/infra/db.py": "from shop.domain.pricing import Money\nimport sqlite3\n",
    "src/shop/util.py": "from shop.api import views\n",
}

CONTRACTS = [
    ("forbidden", 'source_modules = ["shop.domain"]\nforbidden_modules = ["shop.infra"]'),
    ("forbidden", 'source_modules = ["shop.domain.pricing"]\nforbidden_modules = ["shop.infra"]'),
    (
        "forbidden",
        'source_modules = ["shop.api"]\nforbidden_modules = '
        '["shop.infra.db"]\nallow_indirect_imports = true',
    ),
    ("forbidden", 'source_modules = ["shop.api"]\nforbidden_modules = ["shop.infra.db"]'),
    (
        "forbidden",
        'source_modules = ["shop.domain"]\nforbidden_modules = ["shop.infra"]\nignore_imports = '
        '["shop.domain.orders -> shop.infra.db"]',
    ),
    ("forbidden", 'source_modules = ["shop.domain.*"]\nforbidden_modules = ["sqlite3"]'),
    ("layers", 'layers = ["shop.api", "shop.domain", "shop.infra"]'),
    ("layers", 'layers = ["shop.api", "shop.infra", "shop.domain"]'),
    ("independence", 'modules = ["shop.api", "shop.infra"]'),
    ("independence", 'modules = ["shop.domain", "shop.infra"]'),
    ("acyclic_siblings", 'ancestors = ["shop"]'),
    ("protected", 'protected_modules = ["shop.infra"]\nallowed_importers = ["shop.domain"]'),
    (
        "protected",
        'protected_modules = ["shop.infra"]\nallowed_importers = ["shop.api", "shop.domain"]',
    ),
]


def _toml(kind: str, body: str, tool_prefix: str) -> str:
    return f'\n[[{tool_prefix}contracts]]\nname = "c"\ntype = "{kind}"\n{body}\n'


@pytest.mark.parametrize(
    "kind,body", CONTRACTS, ids=[f"{k}-{i}" for i, (k, _) in enumerate(CONTRACTS)]
)
def test_same_verdict_as_lint_imports(project, tmp_path, kind, body):
    lint_imports = str(Path(sys.executable).parent / "lint-imports")
    external = "\ninclude_external_packages = true" if "sqlite3" in body else ""
    project.write(
        {
            **PACKAGE,
            "contracts.toml": 'root_packages = ["shop"]\nsource_roots = ["src"]\ncache_dir = '
            "false\n" + _toml(kind, body, ""),
            "importlinter.toml": '[tool.importlinter]\nroot_package = "shop"'
            + external
            + "\n"
            + _toml(kind, body, "tool.importlinter."),
        }
    )
    ours = project.check()
    theirs = subprocess.run(
        [
            lint_imports,
            "--config",
            str(tmp_path / "importlinter.toml"),
            "--no-cache",
        ],  # --config: every 2.x
        cwd=tmp_path / "src",
        capture_output=True,
        text=True,
    )
    assert "Contracts:" in theirs.stdout or "contracts:" in theirs.stdout.lower(), (
        theirs.stdout + theirs.stderr
    )
    assert ours.returncode == theirs.returncode, (
        ours.stdout + ours.stderr + "\n---\n" + theirs.stdout
    )


# --------------------------------------------------------------------------- what users see

IMPORTLINTER_CONTRACTS = [
    (i, kind, body) for i, (kind, body) in enumerate(CONTRACTS) if "sqlite3" not in body
]


def _config(contracts) -> str:
    header = 'root_packages = ["shop"]\nsource_roots = ["src"]\ncache_dir = false\n'
    return header + "".join(
        f'\n[[contracts]]\nid = "c{i}"\ntype = "{kind}"\n{body}\n' for i, kind, body in contracts
    )


@pytest.fixture(scope="module")
def both_reports(tmp_path_factory):
    """layering's JSON report (--chains all) and import-linter's findings, each run once over the
    contracts above, the hand-written package of every contract type, and the bundled example."""
    reports = {}
    cases = {
        "parity": (PACKAGE, _config(IMPORTLINTER_CONTRACTS), "src"),
        "shop": (
            SHOP,
            shop_config([i for i in SHOP_CONTRACTS if i not in ("leaf", "contained")]),
            "src",
        ),
        "example": (None, EXAMPLE_CONTRACTS, "examples/serve"),
    }
    for case, (files, config, source_root) in cases.items():
        root = tmp_path_factory.mktemp(case)
        if files is None:
            copy_example(root)
        else:
            write_files(root, files)
        (root / "contracts.toml").write_text(config)
        theirs = importlinter_findings(root, config, source_root)
        reports[case] = (json_report(root), tomllib.loads(config), theirs)
    return reports


def _each_contract(case: str, ids: list[str]):
    return [pytest.param(case, i, id=f"{case}-{i}") for i in ids]


PARAMETERS = (
    _each_contract("parity", [f"c{i}" for i, _, _ in IMPORTLINTER_CONTRACTS])
    + _each_contract("shop", [i for i in SHOP_CONTRACTS if i not in ("leaf", "contained")])
    + _each_contract(
        "example",
        [
            "forbidden-chains",
            "forbidden-direct",
            "layers",
            "layers-containers",
            "independence",
            "protected",
            "acyclic",
        ],
    )
)


@pytest.mark.parametrize("case,contract_id", PARAMETERS)
def test_same_findings_as_import_linter(both_reports, case, contract_id):
    """Per contract: the verdict, the broken pairs (forbidden: source and forbidden module;
    layers and independence: importer and imported package), where import-linter's chains start
    and that each crosses layering's cut; the exact imports for protected and acyclic_siblings."""
    document, config, theirs = both_reports[case]
    contract = next(c for c in document["contracts"] if c["id"] == contract_id)
    options = next(c for c in config["contracts"] if c["id"] == contract_id)
    imports = {tuple(pair) for pair in theirs["imports"]}
    compare_with_importlinter(contract, options, theirs["contracts"][contract_id], imports)


# One module of the lower package reaches two modules of the higher one through a module in
# between: import-linter reports both ends (the second as an "extra last" of its route, and, for
# forbidden, as a broken pair of its own); layering lists one chain per import of a source
# module, to the nearest target.
FORKED = {
    "src/app/__init__.py": "",
    "src/app/mid.py": "import app.high.a\nimport app.high.b\n",
    "src/app/low/__init__.py": "",
    "src/app/low/x.py": "import app.mid\n",
    "src/app/high/__init__.py": "",
    "src/app/high/a.py": "",
    "src/app/high/b.py": "",
}
FORKED_CONTRACTS = """root_packages = ["app"]
source_roots = ["src"]
cache_dir = false

[[contracts]]
id = "independence"
type = "independence"
modules = ["app.low", "app.high"]

[[contracts]]
id = "forbidden"
type = "forbidden"
source_modules = ["app.low"]
forbidden_modules = ["app.high.a", "app.high.b"]
"""


@pytest.fixture(scope="module")
def forked(tmp_path_factory):
    root = write_files(
        tmp_path_factory.mktemp("forked"), {**FORKED, "contracts.toml": FORKED_CONTRACTS}
    )
    document = json_report(root)
    theirs = importlinter_findings(root, FORKED_CONTRACTS, "src")
    return {c["id"]: (c, theirs["contracts"][c["id"]]) for c in document["contracts"]}


def test_the_forked_package_is_cut_as_import_linter_sees_it(forked):
    """What does hold on the forked package: one import to cut, which every chain of
    import-linter's crosses."""
    options = {c["id"]: c for c in tomllib.loads(FORKED_CONTRACTS)["contracts"]}
    for contract_id, (contract, theirs) in forked.items():
        assert [(c["importer"], c["imported"]) for c in contract["cut"]] == [
            ("app.low.x", "app.mid")
        ]
        compare_with_importlinter(
            contract,
            options[contract_id],
            theirs,
            {("app.low.x", "app.mid"), ("app.mid", "app.high.a"), ("app.mid", "app.high.b")},
        )


@pytest.mark.xfail(
    strict=True,
    reason="layering lists one chain per import of a source module, so app.high.b, an end of "
    "import-linter's chains, ends none of layering's",
)
@pytest.mark.parametrize("contract_id", ["independence", "forbidden"])
def test_every_end_of_import_linters_chains_ends_a_chain_layering_lists(forked, contract_id):
    contract, theirs = forked[contract_id]
    ends = {
        chain[-1]["imported"] for group in contract["chain_groups"] for chain in group["listed"]
    }
    their_ends = {chain[-1][1] for route in theirs["routes"] for chain in route_chains(route)}
    assert their_ends <= ends, f"import-linter's chains end at {sorted(their_ends - ends)} too"
