"""`protected` (import-linter's), decided in memory: each import of a protected module by a module
not allowed to, statement by statement; external packages protected from everyone."""

from __future__ import annotations

import pytest
from fakes import InMemoryPackage, config_line, decide, findings

from layering.domain.errors import ConfigError
from layering.domain.results import StaleEntry, Verdict

PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/db/__init__.py": "",
    "pkg/db/models.py": "",
    "pkg/repository.py": "from pkg.db.models import Order\n",
    "pkg/views.py": """
        from pkg.db import models
        from pkg.db.models import Order, User
        import json
    """,
}


@pytest.fixture
def package() -> InMemoryPackage:
    return InMemoryPackage(PACKAGE)


def test_an_import_by_a_module_not_allowed_is_found_statement_by_statement(
    package: InMemoryPackage,
) -> None:
    result = decide(
        package,
        """
        [[contracts]]
        type = "protected"
        protected_modules = ["pkg.db.models"]
        allowed_importers = ["pkg.repository"]
        """,
    ).result

    assert result.verdict is Verdict.BROKEN
    assert findings(result) == [
        ("LY014", "src/pkg/views.py", 1, "pkg.views imports pkg.db.models"),
        ("LY014", "src/pkg/views.py", 2, "pkg.views imports pkg.db.models (Order, User)"),
    ]


def test_allowed_importers_and_ignored_imports_excuse_and_only_shrink(
    package: InMemoryPackage,
) -> None:
    run = decide(
        package,
        """
        [[contracts]]
        type = "protected"
        protected_modules = ["pkg.db.models"]
        allowed_importers = ["pkg.repository"]
        ignore_imports = ["pkg.views -> pkg.db.models", "pkg.repository -> pkg.db"]
        """,
    )

    assert findings(run.result) == [
        (
            "LY030",
            "contracts.toml",
            config_line(5),
            "ignored import 'pkg.repository -> pkg.db' matches no import: remove it",
        )
    ]
    assert run.result.stale == (StaleEntry("ignore_imports", 1, "pkg.repository -> pkg.db"),)


def test_an_external_package_is_protected_from_everyone(package: InMemoryPackage) -> None:
    contract = """
        [[contracts]]
        type = "protected"
        protected_modules = ["{}"]
        allowed_importers = ["pkg.repository"]
        """

    run = decide(package, contract.format("json"))
    assert run.evidence.include_external_packages
    assert findings(run.result) == [("LY014", "src/pkg/views.py", 3, "pkg.views imports json")]
    assert decide(package, contract.format("csv")).result.verdict is Verdict.KEPT


def test_a_protected_module_that_matches_nothing_is_a_configuration_error(
    package: InMemoryPackage,
) -> None:
    with pytest.raises(ConfigError) as raised:
        decide(
            package,
            """
            [[contracts]]
            type = "protected"
            protected_modules = ["pkg.db.model"]
            allowed_importers = ["pkg.repository"]
            """,
        )

    (problem,) = raised.value.problems
    assert problem.line == config_line(3)
    assert problem.message.endswith("Did you mean 'pkg.db.models'?")
