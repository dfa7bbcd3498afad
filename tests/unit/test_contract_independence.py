"""`independence` (import-linter's), decided in memory: modules that reach each other, directly
or through a chain, are found at the statements of each cut; ignored imports only shrink."""

from __future__ import annotations

import pytest
from fakes import InMemoryPackage, config_line, decide, findings

from layering.domain.errors import ConfigError
from layering.domain.results import Hop, StaleEntry, Verdict

PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/orders/__init__.py": "",
    "pkg/orders/views.py": "from pkg.users import models\n",
    "pkg/users/__init__.py": "",
    "pkg/users/models.py": "from pkg.shared import helper\n",
    "pkg/shared/__init__.py": "",
    "pkg/shared/helper.py": "import pkg.orders.views\n",
    "pkg/billing.py": "",
}

CONTRACT = """
    [[contracts]]
    name = "apps"
    type = "independence"
    modules = ["pkg.orders", "pkg.users", "pkg.billing"]
    """


@pytest.fixture
def package() -> InMemoryPackage:
    return InMemoryPackage(PACKAGE)


def test_each_way_one_module_reaches_another_is_a_cut(package: InMemoryPackage) -> None:
    run = decide(package, CONTRACT)

    assert run.result.verdict is Verdict.BROKEN
    assert findings(run.result) == [
        ("LY012", "src/pkg/orders/views.py", 1, "pkg.orders.views imports pkg.users.models"),
        ("LY012", "src/pkg/shared/helper.py", 1, "pkg.shared.helper imports pkg.orders.views"),
    ]
    assert [(g.source, g.target, g.chains) for g in run.result.chain_groups] == [
        ("pkg.orders", "pkg.users", 1),
        ("pkg.users", "pkg.orders", 1),
    ]
    assert run.result.violations[1].chain == (
        Hop("pkg.users.models", "pkg.shared.helper", "src/pkg/users/models.py", 1),
        Hop("pkg.shared.helper", "pkg.orders.views", "src/pkg/shared/helper.py", 1),
    )


def test_ignored_imports_cut_chains_and_one_that_matches_nothing_is_stale(
    package: InMemoryPackage,
) -> None:
    run = decide(
        package,
        CONTRACT
        + """ignore_imports = [
            "pkg.orders.views -> pkg.users.models",
            "pkg.shared.* -> pkg.orders.views",
            "pkg.billing -> pkg.users",
        ]
        """,
    )

    assert findings(run.result) == [
        (
            "LY030",
            "contracts.toml",
            config_line(8),
            "ignored import 'pkg.billing -> pkg.users' matches no import: remove it",
        )
    ]
    assert run.result.stale == (StaleEntry("ignore_imports", 2, "pkg.billing -> pkg.users"),)
    assert run.result.ignored_imports == 2


def test_expect_broken_holds_a_broken_contract(package: InMemoryPackage) -> None:
    result = decide(package, CONTRACT + 'expect = "broken"\n').result

    assert result.verdict is Verdict.EXPECTED_BROKEN
    assert result.stale == ()


def test_a_contract_of_one_module_cannot_fail_and_is_a_configuration_error(
    package: InMemoryPackage,
) -> None:
    with pytest.raises(ConfigError) as raised:
        decide(package, CONTRACT.replace('"pkg.orders", "pkg.users", ', ""))

    (problem,) = raised.value.problems
    assert (problem.line, problem.message) == (
        config_line(4),
        "contract 'apps': 'modules' names one module (pkg.billing): a contract that cannot fail",
    )
