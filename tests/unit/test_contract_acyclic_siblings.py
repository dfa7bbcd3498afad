"""`acyclic_siblings` (import-linter's), decided in memory: the imports that close cycles between
the children of a package, statement by statement, with a note per package."""

from __future__ import annotations

import pytest
from fakes import InMemoryPackage, config_line, decide, findings

from layering.domain.errors import ConfigError
from layering.domain.results import Verdict

PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/orders/__init__.py": "",
    "pkg/orders/views.py": "from pkg.users import models\n",
    "pkg/users/__init__.py": "",
    "pkg/users/models.py": "from pkg.shared import helper\n",
    "pkg/shared/__init__.py": "",
    "pkg/shared/helper.py": """
        def later():
            import pkg.orders.views
    """,
    "pkg/billing.py": "",
}


@pytest.fixture
def package() -> InMemoryPackage:
    return InMemoryPackage(PACKAGE)


def test_an_import_that_closes_a_cycle_between_children_is_found(
    package: InMemoryPackage,
) -> None:
    result = decide(
        package,
        """
        [[contracts]]
        type = "acyclic_siblings"
        ancestors = ["pkg"]
        """,
    ).result

    assert result.verdict is Verdict.BROKEN
    assert findings(result) == [
        (
            "LY013",
            "src/pkg/shared/helper.py",
            2,
            "pkg.shared.helper imports pkg.orders.views: one of the imports from pkg.shared to "
            "pkg.orders "
            "that close cycles",
        )
    ]
    assert result.violations[0].qualifiers == ("function-level",)
    assert result.notes == (
        "The children of pkg import each other in cycles: removing the 1 import(s) of it above "
        "(1 dependencies between children) makes them acyclic.",
    )


def test_children_without_cycles_are_kept(package: InMemoryPackage) -> None:
    result = decide(
        package,
        """
        [[contracts]]
        type = "acyclic_siblings"
        ancestors = ["pkg.users"]
        """,
    ).result

    assert result.verdict is Verdict.KEPT
    assert result.notes == ()


def test_an_ancestor_that_is_a_module_is_a_configuration_error(package: InMemoryPackage) -> None:
    with pytest.raises(ConfigError) as raised:
        decide(
            package,
            """
            [[contracts]]
            type = "acyclic_siblings"
            ancestors = ["pkg", "pkg.billing"]
            """,
        )

    (problem,) = raised.value.problems
    assert problem.line == config_line(3)
    assert problem.message.startswith(
        "contract 'acyclic_siblings #1': 'pkg.billing' in 'ancestors' is a module, not a package"
    )
