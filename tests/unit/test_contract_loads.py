"""`loads`, decided in memory: what importing a module executes, followed through module-level
statements (not functions, not `if TYPE_CHECKING:`), parent packages and both sides of a
branch; `expect_loaded` holds what loads today and only shrinks."""

from __future__ import annotations

import pytest
from fakes import InMemoryPackage, config_line, decide, findings

from layering.domain.errors import ConfigError
from layering.domain.results import Hop, StaleEntry, Verdict

PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/client.py": """
        from typing import TYPE_CHECKING

        from pkg import service

        if TYPE_CHECKING:
            from pkg import heavy

        def later():
            from pkg import heavy
    """,
    "pkg/service.py": """
        try:
            from pkg.heavy import Engine
        except ImportError:
            Engine = None
    """,
    "pkg/heavy.py": """
        import json

        class Engine: ...
    """,
    "pkg/light.py": """
        def later():
            import json
    """,
    "pkg/plugins/__init__.py": """
        from pkg import heavy
    """,
    "pkg/plugins/one.py": "",
}


@pytest.fixture
def package() -> InMemoryPackage:
    return InMemoryPackage(PACKAGE)


def test_importing_a_module_that_loads_a_forbidden_one_is_found_with_its_chain(
    package: InMemoryPackage,
) -> None:
    run = decide(
        package,
        """
        [[contracts]]
        type = "loads"
        modules = ["pkg.client"]
        forbidden = ["json"]
        """,
    )

    assert run.result.verdict is Verdict.BROKEN
    (finding,) = run.result.violations
    assert findings(run.result) == [
        ("LY026", "src/pkg/client.py", 3, "importing pkg.client loads json"),
    ]
    assert finding.chain == (
        Hop("pkg.client", "pkg.service", "src/pkg/client.py", 3, ("service",)),
        Hop("pkg.service", "pkg.heavy", "src/pkg/service.py", 2, ("Engine",), ("conditional",)),
        Hop("pkg.heavy", "json", "src/pkg/heavy.py", 1),
    )
    assert finding.qualifiers == ("conditional",)
    assert not run.evidence.graph_built


def test_a_forbidden_module_is_entered_not_followed(package: InMemoryPackage) -> None:
    result = decide(
        package,
        """
        [[contracts]]
        type = "loads"
        modules = ["pkg.client"]
        forbidden = ["pkg.heavy", "json"]
        """,
    ).result

    assert findings(result) == [
        ("LY026", "src/pkg/client.py", 3, "importing pkg.client loads pkg.heavy"),
    ]


def test_imports_in_functions_and_under_type_checking_do_not_load(
    package: InMemoryPackage,
) -> None:
    run = decide(
        package,
        """
        [[contracts]]
        type = "loads"
        modules = ["pkg.light", "pkg.heavy"]
        forbidden = ["pkg.client", "json"]
        """,
    )

    assert findings(run.result) == [
        ("LY026", "src/pkg/heavy.py", 1, "importing pkg.heavy loads json")
    ]
    assert [(item.key, item.verdict) for item in run.result.items] == [
        ("pkg.heavy", Verdict.BROKEN),
        ("pkg.light", Verdict.KEPT),
    ]


def test_a_parent_package_is_executed_first(package: InMemoryPackage) -> None:
    result = decide(
        package,
        """
        [[contracts]]
        type = "loads"
        modules = ["pkg.plugins.one"]
        forbidden = ["pkg.heavy"]
        """,
    ).result

    (finding,) = result.violations
    assert (finding.path, finding.line, finding.message) == (
        "src/pkg/plugins/__init__.py",
        1,
        "importing pkg.plugins.one loads pkg.heavy through its parent package pkg.plugins",
    )


def test_a_module_that_is_forbidden_itself_loads_it(package: InMemoryPackage) -> None:
    result = decide(
        package,
        """
        [[contracts]]
        type = "loads"
        modules = ["pkg.heavy"]
        forbidden = ["pkg.heavy"]
        """,
    ).result

    assert findings(result) == [
        (
            "LY026",
            "src/pkg/heavy.py",
            1,
            "importing pkg.heavy loads pkg.heavy: it is forbidden itself",
        )
    ]


def test_expect_loaded_holds_a_module_that_loads_and_a_stale_one_must_go(
    package: InMemoryPackage,
) -> None:
    run = decide(
        package,
        """
        [[contracts]]
        type = "loads"
        modules = ["pkg.service", "pkg.light"]
        forbidden = ["pkg.heavy"]
        expect_loaded = ["pkg.service", "pkg.light"]
        """,
    )

    assert run.result.verdict is Verdict.BROKEN
    assert findings(run.result) == [
        (
            "LY032",
            "contracts.toml",
            config_line(5),
            "pkg.light no longer loads a forbidden module: remove it from expect_loaded (it only "
            "shrinks)",
        )
    ]
    assert [(item.key, item.verdict) for item in run.result.items] == [
        ("pkg.light", Verdict.UNEXPECTEDLY_KEPT),
        ("pkg.service", Verdict.EXPECTED_BROKEN),
    ]
    assert run.result.stale == (StaleEntry("expect_loaded", 1, "pkg.light"),)


def test_expect_loaded_that_still_loads_keeps_the_contract(package: InMemoryPackage) -> None:
    result = decide(
        package,
        """
        [[contracts]]
        type = "loads"
        modules = ["pkg.service", "pkg.light"]
        forbidden = ["pkg.heavy"]
        expect_loaded = ["pkg.service"]
        """,
    ).result

    assert result.verdict is Verdict.KEPT
    assert result.violations == ()


def test_expect_loaded_may_name_only_checked_modules(package: InMemoryPackage) -> None:
    with pytest.raises(ConfigError) as raised:
        decide(
            package,
            """
            [[contracts]]
            type = "loads"
            modules = ["pkg.service"]
            forbidden = ["pkg.heavy"]
            expect_loaded = ["pkg.client"]
            """,
        )

    (problem,) = raised.value.problems
    assert (problem.line, problem.message) == (
        config_line(5),
        "contract 'loads #1': expect_loaded names 'pkg.client', which is not checked",
    )
