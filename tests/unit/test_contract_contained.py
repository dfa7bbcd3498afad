"""`contained`, decided in memory: each matched package imports nothing of the enclosing
package outside itself, each import read as `<module>.<name>`; allowances only shrink."""

from __future__ import annotations

import pytest
from fakes import InMemoryPackage, config_line, decide, findings

from layering.domain.errors import ConfigError
from layering.domain.results import StaleEntry, Verdict

PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/shared.py": "",
    "pkg/api/__init__.py": "from pkg.api import orders, users\n",
    "pkg/api/common.py": "",
    "pkg/api/orders/__init__.py": "",
    "pkg/api/orders/router.py": """
        from pkg.api.orders import service
        from pkg.api.orders.service import place
        from pkg import shared
        from pkg.api import common
    """,
    "pkg/api/orders/service.py": """
        def place(): ...
    """,
    "pkg/api/users/__init__.py": "",
    "pkg/api/users/router.py": """
        from pkg.api.orders.service import place
        import pkg.api.orders

        def lookup():
            from pkg.api import orders
    """,
}

CONTRACT = """
    [[contracts]]
    name = "endpoints are independent"
    type = "contained"
    packages = "pkg.api.*"
    within = "pkg.api"
    """


@pytest.fixture
def package() -> InMemoryPackage:
    return InMemoryPackage(PACKAGE)


def test_an_import_outside_its_own_package_is_found_and_one_inside_is_not(
    package: InMemoryPackage,
) -> None:
    result = decide(package, CONTRACT).result

    assert result.verdict is Verdict.BROKEN
    assert findings(result) == [
        (
            "LY004",
            "src/pkg/api/orders/router.py",
            4,
            "pkg.api.orders.router imports pkg.api.common, outside its package pkg.api.orders",
        ),
        (
            "LY004",
            "src/pkg/api/users/router.py",
            1,
            "pkg.api.users.router imports pkg.api.orders.service (place), outside its package "
            "pkg.api.users",
        ),
        (
            "LY004",
            "src/pkg/api/users/router.py",
            2,
            "pkg.api.users.router imports pkg.api.orders, outside its package pkg.api.users",
        ),
        (
            "LY004",
            "src/pkg/api/users/router.py",
            5,
            "pkg.api.users.router imports pkg.api.orders, outside its package pkg.api.users",
        ),
    ]
    assert result.violations[-1].qualifiers == ("function-level",)


def test_an_allowance_without_an_importer_excuses_every_contained_package(
    package: InMemoryPackage,
) -> None:
    run = decide(
        package,
        CONTRACT
        + """allow = [
            "pkg.api.common",
            "pkg.api.users.router -> pkg.api.orders",
            { importer = "pkg.api.users.router", module = "pkg.api.orders.service", names = ["place"] },
            "pkg.api.users",
        ]
        """,
    )

    assert findings(run.result) == [
        (
            "LY030",
            "contracts.toml",
            config_line(10),
            "allowance 'pkg.api.users' matches no import: remove it (allowances only shrink)",
        )
    ]
    assert run.result.stale == (StaleEntry("allow", 3, "pkg.api.users"),)


def test_the_enclosing_package_itself_may_import_its_packages(package: InMemoryPackage) -> None:
    result = decide(
        package,
        """
        [[contracts]]
        type = "contained"
        packages = "pkg.api.orders"
        within = "pkg.api"
        """,
    ).result

    assert findings(result) == [
        (
            "LY004",
            "src/pkg/api/orders/router.py",
            4,
            "pkg.api.orders.router imports pkg.api.common, outside its package pkg.api.orders",
        )
    ]


def test_a_pattern_that_matches_nothing_is_a_located_configuration_error(
    package: InMemoryPackage,
) -> None:
    with pytest.raises(ConfigError) as raised:
        decide(package, CONTRACT.replace('"pkg.api.*"', '"pkg.apis.*"'))

    (problem,) = raised.value.problems
    assert problem.line == config_line(4)
    assert problem.message.startswith(
        "contract 'endpoints are independent': 'pkg.apis.*' in 'packages' matches no module"
    )
