"""A project that runs import-linter runs `layering check` on the same, unchanged file, and gets
the same verdict for every contract and the same exit code: `.importlinter`, `setup.cfg` and
`[tool.importlinter]` in `pyproject.toml`, each found without being named, as `lint-imports`
finds it."""

from __future__ import annotations

import importlib.util
import re

import pytest
from importlinter_configs import (
    BILLING,
    FORMATS,
    SHOP,
    layering,
    lint_imports,
    under,
    write_config,
)

SHAPES = [
    (
        "plugins",
        {
            "name": "Plugins are layered",
            "type": "layers",
            "containers": ["shop.plugins.alpha", "shop.plugins.beta"],
            "layers": ["ui", "logic", "data"],
        },
    ),
    (
        "alpha",
        {
            "name": "Alpha is layered",
            "type": "layers",
            "containers": "shop.plugins.alpha",
            "layers": ["ui", "logic", "(missing)", "data"],
            "exhaustive": "True",
        },
    ),
    (
        "beta",
        {
            "name": "Beta declares every layer",
            "type": "layers",
            "containers": ["shop.plugins.beta"],
            "layers": ["logic", "data"],
            "exhaustive": "True",
        },
    ),
    (
        "beta-ignores",
        {
            "name": "Beta ignores its data",
            "type": "layers",
            "containers": ["shop.plugins.beta"],
            "layers": ["ui", "logic"],
            "exhaustive": "True",
            "exhaustive_ignores": "data",
        },
    ),
    (
        "independent-lower",
        {
            "name": "Lower layers independent",
            "type": "layers",
            "layers": ["shop.api", "shop.domain | shop.infra"],
        },
    ),
    (
        "shared-lower",
        {
            "name": "Lower layers shared",
            "type": "layers",
            "layers": ["shop.gui", "shop.domain : shop.infra"],
        },
    ),
    (
        "no-qt",
        {
            "name": "Only the GUI imports Qt",
            "type": "forbidden",
            "source_modules": "shop.domain",
            "forbidden_modules": ["PyQt5"],
        },
    ),
    (
        "gui-qt",
        {
            "name": "The GUI imports no Qt",
            "type": "forbidden",
            "source_modules": "shop.gui",
            "forbidden_modules": ["PyQt5"],
        },
    ),
    (
        "no-dataclasses",
        {
            "name": "No dataclasses in the domain",
            "type": "forbidden",
            "source_modules": ["shop.domain", "shop.api"],
            "forbidden_modules": ["dataclasses", "sqlite3"],
        },
    ),
    (
        "ignored-dataclasses",
        {
            "name": "Dataclasses only where ignored",
            "type": "forbidden",
            "source_modules": "shop",
            "forbidden_modules": "dataclasses",
            "ignore_imports": ["shop.*.db -> dataclasses", "shop.** -> sqlite3"],
        },
    ),
    (
        "independent",
        {
            "name": "GUI and API are independent",
            "type": "independence",
            "modules": ["shop.api", "shop.gui"],
        },
    ),
    (
        "protected",
        {
            "name": "Only the API touches infra",
            "type": "protected",
            "protected_modules": "shop.infra",
            "allowed_importers": ["shop.api"],
        },
    ),
    ("acyclic", {"name": "No cycles in shop", "type": "acyclic_siblings", "ancestors": ["shop"]}),
]
PRIVATE = (
    "private",
    {
        "name": "Private modules stay private",
        "type": "private_modules",
        "packages_with_private_modules": ["shop"],
    },
)
# import-linter 2.17 brought private_modules; 2.15 is the last that runs on Python 3.10.
HAS_PRIVATE_MODULES = (
    importlib.util.find_spec("importlinter.contracts.private_modules") is not None
)
if HAS_PRIVATE_MODULES:
    SHAPES.append(PRIVATE)


@pytest.mark.parametrize("file_format", FORMATS)
def test_shapes_real_projects_use(project, tmp_path, file_format):
    """root_package with layers and containers, `a | b` and `a : b`, external packages forbidden,
    `source_modules` as a string, wildcards in ignored imports, every built-in type."""
    project.write(SHOP)
    write_config(
        tmp_path,
        file_format,
        {"root_package": "shop", "include_external_packages": "True"},
        SHAPES,
    )
    theirs = lint_imports(tmp_path)
    ours = layering(project)
    assert theirs[1], theirs[2]
    assert len(theirs[1]) == len(SHAPES)
    assert ours[1] == theirs[1]
    assert ours[0] == theirs[0] == 1
    assert ours[2]["config_path"] == str(tmp_path / file_format)
    assert "KEPT" in theirs[1].values() and "BROKEN" in theirs[1].values()


@pytest.mark.skipif(HAS_PRIVATE_MODULES, reason="the installed import-linter has private_modules")
def test_a_type_the_installed_import_linter_lacks_is_a_located_error_that_says_upgrade(
    project, tmp_path
):
    project.write(SHOP)
    write_config(tmp_path, ".importlinter", {"root_package": "shop"}, [PRIVATE])

    result = project.check("--no-cache", cwd=tmp_path)

    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert re.search(
        r"\.importlinter:\d+: error: contract 'Private modules stay private': the installed "
        r"import-linter "
        r"\([\d.]+\) has no 'private_modules' contract type; upgrade import-linter to check it",
        result.stdout + result.stderr,
    )


IGNORES = [
    (
        "wildcards",
        {
            "name": "Layers with ignored imports",
            "type": "layers",
            "layers": ["shop.api", "shop.domain", "shop.infra"],
            "ignore_imports": [
                "shop.domain.* -> shop.infra.db",
                "shop.**.db -> shop.domain.**",
                "shop.*.pricing -> shop.api.*",
            ],
        },
    ),
    (
        "stale-warn",
        {
            "name": "A stale ignore, warned",
            "type": "independence",
            "modules": ["shop.api", "shop.gui"],
            "ignore_imports": ["shop.gui.window -> shop.api.views"],
            "unmatched_ignore_imports_alerting": "warn",
        },
    ),
    (
        "stale-none",
        {
            "name": "A stale ignore, silent",
            "type": "layers",
            "layers": ["shop.gui", "shop.api"],
            "ignore_imports": ["shop.api.* -> shop.gui"],
            "unmatched_ignore_imports_alerting": "none",
        },
    ),
]


@pytest.mark.parametrize("file_format", FORMATS)
def test_ignored_imports_with_wildcards_and_alerting_levels(project, tmp_path, file_format):
    project.write(SHOP)
    write_config(tmp_path, file_format, {"root_packages": ["shop"]}, IGNORES)
    theirs = lint_imports(tmp_path)
    ours = layering(project)
    assert (
        ours[1]
        == theirs[1]
        == {
            name: "KEPT"
            for name in (
                "Layers with ignored imports",
                "A stale ignore, warned",
                "A stale ignore, silent",
            )
        }
    )
    assert ours[0] == theirs[0] == 0
    result = project.check("--no-cache")
    warned = re.search(
        r"warning: \S+:(\d+): contract 'A stale ignore, warned': .*shop\.gui\.window -> "
        r"shop\.api\.views",
        result.stdout + result.stderr,
    )
    assert warned, result.stdout + result.stderr
    lines = (project.root / file_format).read_text().splitlines()
    assert "shop.gui.window -> shop.api.views" in lines[int(warned.group(1)) - 1]
    assert "shop.api.* -> shop.gui" not in result.stdout + result.stderr


@pytest.mark.parametrize("file_format", FORMATS)
def test_stale_ignored_import_breaks_its_contract_at_its_own_line(project, tmp_path, file_format):
    """import-linter stops the whole run (MissingImport, exit 1); layering breaks the contract
    that holds the entry (exit 1 too), located at the entry, and checks the others."""
    project.write(SHOP)
    contracts = [
        (
            "layers",
            {
                "name": "Layers",
                "type": "layers",
                "layers": ["shop.api", "shop.domain"],
                "ignore_imports": [
                    "shop.domain.pricing -> shop.api.views",
                    "shop.domain.orders -> shop.api",
                ],
            },
        ),
        (
            "gui",
            {"name": "GUI alone", "type": "independence", "modules": ["shop.gui", "shop.api"]},
        ),
    ]
    path = write_config(tmp_path, file_format, {"root_package": "shop"}, contracts)
    code, _, output = lint_imports(tmp_path)
    assert code == 1 and "No matches for ignored import shop.domain.orders -> shop.api." in output
    ours = layering(project)
    assert ours[0] == 1
    assert ours[1] == {"Layers": "BROKEN", "GUI alone": "KEPT"}
    stale_line = next(
        n
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if "shop.domain.orders -> shop.api" in line
    )
    (finding,) = ours[2]["contracts"][0]["violations"]
    assert (finding["code"], finding["line"]) == ("LY030", stale_line)
    (stale,) = ours[2]["contracts"][0]["stale"]
    assert (stale["option"], stale["index"], stale["text"]) == (
        "ignore_imports",
        1,
        "shop.domain.orders -> shop.api",
    )


@pytest.mark.parametrize("file_format", FORMATS)
def test_two_root_packages_under_src_found_without_being_told(project, tmp_path, file_format):
    """lint-imports finds `src/` packages on the Python path (an installed or PYTHONPATH
    checkout); layering finds a `src/` layout by itself."""
    project.write({**under("src", SHOP), **under("src", BILLING)})
    contracts = [
        (
            "billing",
            {
                "name": "Billing does not reach infra",
                "type": "forbidden",
                "source_modules": "billing",
                "forbidden_modules": "shop.infra",
            },
        ),
        (
            "apart",
            {
                "name": "Billing and the GUI are independent",
                "type": "independence",
                "modules": ["billing", "shop.gui"],
            },
        ),
    ]
    write_config(tmp_path, file_format, {"root_packages": ["shop", "billing"]}, contracts)
    theirs = lint_imports(tmp_path, pythonpath=str(tmp_path / "src"))
    ours = layering(project)
    assert (
        ours[1]
        == theirs[1]
        == {
            "Billing does not reach infra": "BROKEN",
            "Billing and the GUI are independent": "KEPT",
        }
    )
    assert ours[0] == theirs[0] == 1


def test_packages_on_pythonpath_are_found(project, tmp_path):
    project.write({**under("lib", SHOP), **under("lib", BILLING)})
    write_config(
        tmp_path,
        ".importlinter",
        {"root_packages": ["shop", "billing"]},
        [
            (
                "billing",
                {
                    "name": "Billing does not reach infra",
                    "type": "forbidden",
                    "source_modules": "billing",
                    "forbidden_modules": "shop.infra",
                },
            )
        ],
    )
    assert "not found" in project.check().stderr
    result = project.check("--no-cache", env={"PYTHONPATH": str(tmp_path / "lib")})
    assert result.returncode == 1, result.stderr
    assert "Billing does not reach infra [billing] BROKEN" in result.stdout
    assert "lib/billing/core.py:1:" in result.stdout


@pytest.mark.parametrize("file_format", FORMATS)
def test_exclude_type_checking_imports(project, tmp_path, file_format):
    project.write(SHOP)
    contracts = [
        (
            "layers",
            {
                "name": "API above the domain",
                "type": "layers",
                "layers": ["shop.api", "shop.domain"],
            },
        )
    ]
    for exclude, verdict in (("True", "KEPT"), ("False", "BROKEN")):
        write_config(
            tmp_path,
            file_format,
            {"root_package": "shop", "exclude_type_checking_imports": exclude},
            contracts,
        )
        theirs = lint_imports(tmp_path)
        ours = layering(project)
        assert ours[1] == theirs[1] == {"API above the domain": verdict}


PLUGIN = '''
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck


class ImportsNothingContract(Contract):
    """The modules import no other module of the graph."""

    modules = fields.ListField(subfield=fields.ModuleField())

    def check(self, graph, verbose):
        found = [
            {"importer": m.name, "imported": imported, "line_numbers": ()}
            for m in self.modules
            for imported in sorted(graph.find_modules_directly_imported_by(m.name))
        ]
        return ContractCheck(kept=not found, metadata={"imports": found})

    def render_broken_contract(self, check):
        from importlinter.application import output

        for item in check.metadata["imports"]:
            output.print(f"{item['importer']} imports {item['imported']}")
'''


@pytest.mark.parametrize("file_format", FORMATS)
def test_contract_types_of_the_users_own(project, tmp_path, file_format):
    project.write({**SHOP, "shop_contracts.py": PLUGIN})
    contracts = [
        (
            "lonely-data",
            {
                "name": "Data imports nothing",
                "type": "imports_nothing",
                "modules": ["shop.plugins.alpha.data"],
            },
        ),
        (
            "lonely-ui",
            {
                "name": "UI imports nothing",
                "type": "imports_nothing",
                "modules": "shop.plugins.alpha.ui",
            },
        ),
    ]
    session = {
        "root_package": "shop",
        "contract_types": ["imports_nothing: shop_contracts.ImportsNothingContract"],
    }
    write_config(tmp_path, file_format, session, contracts)
    theirs = lint_imports(tmp_path)
    ours = layering(project)
    assert ours[1] == theirs[1] == {"Data imports nothing": "KEPT", "UI imports nothing": "BROKEN"}
    assert ours[0] == theirs[0] == 1
    assert (
        "shop.plugins.alpha.ui imports shop.plugins.alpha.logic"
        in project.check("--no-cache").stdout
    )


def test_a_contract_type_that_cannot_be_loaded_is_a_located_error(project, tmp_path):
    project.write(SHOP)
    session = {
        "root_package": "shop",
        "contract_types": ["mine: shop_contracts.Missing", "broken entry"],
    }
    path = write_config(
        tmp_path,
        ".importlinter",
        session,
        [("x", {"name": "Mine", "type": "mine", "modules": "shop.api"})],
    )
    result = project.check()
    assert result.returncode == 2
    lines = path.read_text().splitlines()
    entry = next(n for n, line in enumerate(lines, 1) if "broken entry" in line)
    contract_type = next(n for n, line in enumerate(lines, 1) if line.startswith("type = mine"))
    assert (
        f".importlinter:{entry}: error: contract type 'broken entry' is not 'name: module.Class'"
        in result.stderr
    )
    assert (
        f".importlinter:{contract_type}: error: contract 'Mine': contract type 'mine' "
        "(shop_contracts.Missing, line " in result.stderr
    )
    assert "ModuleNotFoundError: No module named 'shop_contracts'" in result.stderr


def test_an_installed_root_package_is_found_on_the_python_path(project, tmp_path):
    """As lint-imports finds it: here tomlkit, installed beside layering."""
    contracts = [
        (
            "api",
            {
                "name": "The API does not parse",
                "type": "forbidden",
                "source_modules": "tomlkit.api",
                "forbidden_modules": "tomlkit.parser",
            },
        ),
        (
            "errors",
            {
                "name": "Errors import no parser",
                "type": "forbidden",
                "source_modules": "tomlkit.exceptions",
                "forbidden_modules": "tomlkit.parser",
            },
        ),
    ]
    write_config(tmp_path, ".importlinter", {"root_package": "tomlkit"}, contracts)
    theirs = lint_imports(tmp_path)
    ours = layering(project)
    assert len(theirs[1]) == 2, theirs[2]
    assert ours[1] == theirs[1]
    assert ours[0] == theirs[0]


@pytest.mark.parametrize("file_format", FORMATS)
def test_a_direct_only_forbidden_contract_counts_its_ignored_imports_anywhere(
    project, tmp_path, file_format
):
    """With allow_indirect_imports, import-linter still takes the ignored imports out of the
    whole graph and counts them: one whose importer is no source module matches, and the
    contract is KEPT (1 ignored import), not broken by a stale entry."""
    project.write(SHOP)
    contracts = [
        (
            "from-a-source",
            {
                "name": "From a source",
                "type": "forbidden",
                "source_modules": "shop.api.views",
                "forbidden_modules": "shop.infra",
                "allow_indirect_imports": "True",
                "ignore_imports": "shop.api.views -> shop.infra",
            },
        ),
        (
            "elsewhere",
            {
                "name": "Elsewhere",
                "type": "forbidden",
                "source_modules": "shop.api.views",
                "forbidden_modules": "shop.infra",
                "allow_indirect_imports": "True",
                "ignore_imports": [
                    "shop.api.views -> shop.infra",
                    "shop.domain.orders -> shop.infra.db",
                ],
            },
        ),
    ]
    write_config(tmp_path, file_format, {"root_package": "shop"}, contracts)
    code, verdicts, output = lint_imports(tmp_path)
    assert "From a source KEPT (1 ignored import)" in output
    assert "Elsewhere KEPT (2 ignored imports)" in output
    ours = project.check("--no-cache")
    assert (ours.returncode, code) == (0, 0), ours.stdout + ours.stderr
    assert "From a source [from-a-source] KEPT (1 ignored import)\n" in ours.stdout
    assert "Elsewhere [elsewhere] KEPT (2 ignored imports)\n" in ours.stdout


CANNOT_FAIL = [
    (
        "forbidden",
        {"source_modules": "shop.api", "forbidden_modules": ""},
        "'forbidden_modules' lists no module",
    ),
    (
        "forbidden",
        {"source_modules": "", "forbidden_modules": "shop.infra"},
        "'source_modules' lists no module",
    ),
    ("layers", {"layers": ""}, "'layers' lists no layers"),
    ("layers", {"layers": "shop.api"}, "one layer of one module cannot be broken"),
    ("independence", {"modules": "shop.api"}, "'modules' names one module (shop.api)"),
    ("acyclic_siblings", {"ancestors": "shop.plugins.beta.logic"}, "is a module, not a package"),
    (
        "acyclic_siblings",
        {"ancestors": "shop.empty"},
        "'shop.empty' in 'ancestors' has no children",
    ),
    ("acyclic_siblings", {"ancestors": ""}, "'ancestors' lists no package"),
    (
        "protected",
        {"protected_modules": "", "allowed_importers": "shop.api"},
        "lists nothing to protect",
    ),
]


@pytest.mark.parametrize("file_format", FORMATS)
@pytest.mark.parametrize(
    ("kind", "options", "said"),
    CANNOT_FAIL,
    ids=[f"{k}-{i}" for i, (k, _, _) in enumerate(CANNOT_FAIL)],
)
def test_a_contract_that_cannot_fail_is_kept_with_a_warning_as_lint_imports_keeps_it(
    project, tmp_path, file_format, kind, options, said
):
    """layering's own format refuses a contract that cannot fail (the user chose its checks);
    an import-linter configuration gets import-linter's verdict, KEPT, and a located warning,
    never a refused run."""
    project.write({**SHOP, "shop/empty/__init__.py": ""})
    contracts = [("c", {"name": "Cannot fail", "type": kind, **options})]
    write_config(tmp_path, file_format, {"root_package": "shop"}, contracts)
    theirs = lint_imports(tmp_path)
    assert theirs[:2] == (0, {"Cannot fail": "KEPT"}), theirs[2]
    result = project.check("--no-cache")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Cannot fail [c] KEPT\n" in result.stdout
    (warning,) = [line for line in result.stderr.splitlines() if said in line]
    assert warning.startswith(f"layering: warning: {file_format}:")
    assert warning.endswith(
        "; accepted, as lint-imports accepts it (an error in layering's own format)"
    )


def test_an_allowed_importer_that_names_no_module_is_a_located_error_not_a_traceback(
    project, tmp_path
):
    project.write(SHOP)
    contracts = [
        (
            "p",
            {
                "name": "Protected",
                "type": "protected",
                "protected_modules": "shop.infra",
                "allowed_importers": ["shop.domain", "shop.nope"],
            },
        )
    ]
    write_config(tmp_path, ".importlinter", {"root_package": "shop"}, contracts)
    assert lint_imports(tmp_path)[0] == 1  # import-linter refuses the run too
    result = project.check("--no-cache")
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    assert (
        "error: contract 'Protected': 'shop.nope' in 'allowed_importers' matches no module in the "
        "package shop." in result.stderr
    )


def test_two_contracts_of_one_name_without_ids_are_both_checked_as_lint_imports_checks_them(
    project, tmp_path
):
    """[tool.importlinter] contracts need no id; `lint-imports` checks two of one name. So does
    layering, the second known by its name and place, with a warning (contracts.toml refuses)."""
    project.write(SHOP)
    path = write_config(
        tmp_path,
        "pyproject.toml",
        {"root_package": "shop"},
        [
            (
                "x",
                {
                    "name": "Same",
                    "type": "forbidden",
                    "source_modules": "shop.domain",
                    "forbidden_modules": "shop.infra",
                },
            ),
            (
                "y",
                {"name": "Same", "type": "independence", "modules": ["shop.gui", "shop.plugins"]},
            ),
        ],
    )
    path.write_text(path.read_text().replace('id = "x"\n', "").replace('id = "y"\n', ""))
    theirs = lint_imports(tmp_path)
    assert theirs[0] == 1 and theirs[2].count("Same ") == 2, theirs[2]
    ours = project.check("--no-cache")
    assert ours.returncode == 1, ours.stdout + ours.stderr
    assert "Same BROKEN\n" in ours.stdout and "Same [Same #2] KEPT\n" in ours.stdout
    assert (
        "are both known as 'Same' (a contract without an id is known by its name): this one is "
        "'Same #2'" in ours.stderr
    )
    only = project.check("--no-cache", "--contract", "Same #2")
    assert only.returncode == 0 and "Same [Same #2] KEPT" in only.stdout
