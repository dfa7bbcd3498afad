"""`leaf`, decided in memory: every import of a leaf that lies in `within` is a finding, module
and name allowances excuse some and only shrink, `within` takes external packages and names."""

from __future__ import annotations

import pytest
from fakes import InMemoryPackage, config_line, decide, findings

from layering.domain.errors import ConfigError
from layering.domain.results import StaleEntry, Verdict

PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/leaf.py": """
        from __future__ import annotations

        import json
        from typing import TYPE_CHECKING

        from pkg.errors import Broken, Gone
        from pkg import helpers

        if TYPE_CHECKING:
            from pkg.core import Engine

        def later():
            import pkg.core
            return pkg.core.start
    """,
    "pkg/errors.py": """
        class Broken(Exception): ...
        class Gone(Exception): ...
    """,
    "pkg/helpers.py": "",
    "pkg/core.py": """
        import json
        from pkg.errors import Broken
        def start(): ...
    """,
}


@pytest.fixture
def package() -> InMemoryPackage:
    return InMemoryPackage(PACKAGE)


def test_every_import_of_the_package_is_found_wherever_it_stands(package: InMemoryPackage) -> None:
    run = decide(
        package,
        """
        [[contracts]]
        type = "leaf"
        modules = ["pkg.leaf"]
        within = ["pkg"]
        """,
    )

    assert run.result.verdict is Verdict.BROKEN
    assert findings(run.result) == [
        ("LY003", "src/pkg/leaf.py", 6, "pkg.leaf imports pkg.errors (Broken, Gone)"),
        ("LY003", "src/pkg/leaf.py", 7, "pkg.leaf imports pkg.helpers"),
        ("LY003", "src/pkg/leaf.py", 10, "pkg.leaf imports pkg.core (Engine)"),
        ("LY003", "src/pkg/leaf.py", 13, "pkg.leaf imports pkg.core"),
    ]
    assert [v.qualifiers for v in run.result.violations] == [
        (),
        (),
        ("TYPE_CHECKING",),
        ("function-level",),
    ]
    assert not run.evidence.graph_built


def test_a_leaf_reads_only_its_own_file(package: InMemoryPackage) -> None:
    decide(
        package,
        """
        [[contracts]]
        type = "leaf"
        modules = ["pkg.leaf"]
        within = ["pkg"]
        """,
    )

    assert [p.rpartition("/")[2] for p in package.sources.reads] == ["leaf.py"]


def test_an_external_package_in_within_is_found(package: InMemoryPackage) -> None:
    run = decide(
        package,
        """
        [[contracts]]
        type = "leaf"
        modules = ["pkg.leaf", "pkg.core"]
        within = ["json"]
        """,
    )

    assert findings(run.result) == [
        ("LY003", "src/pkg/core.py", 1, "pkg.core imports json"),
        ("LY003", "src/pkg/leaf.py", 3, "pkg.leaf imports json"),
    ]


def test_allowances_excuse_modules_and_names_and_only_shrink(package: InMemoryPackage) -> None:
    run = decide(
        package,
        """
        [[contracts]]
        type = "leaf"
        modules = ["pkg.leaf"]
        within = ["pkg"]
        allow = [
            "pkg.core",
            { module = "pkg.errors", names = ["Broken", "Retired"] },
            "pkg.gone",
        ]
        """,
    )

    assert findings(run.result) == [
        ("LY003", "src/pkg/leaf.py", 6, "pkg.leaf imports pkg.errors (Gone)"),
        ("LY003", "src/pkg/leaf.py", 7, "pkg.leaf imports pkg.helpers"),
        (
            "LY030",
            "contracts.toml",
            config_line(8),
            "allowance 'pkg.gone' matches no import: remove it (allowances only shrink)",
        ),
        (
            "LY030",
            "contracts.toml",
            config_line(7),
            "allowance 'pkg.errors (Broken, Retired)': no import takes 'Retired' any more: "
            "remove the name (allowances only shrink)",
        ),
    ]
    assert run.result.stale == (
        StaleEntry("allow", 1, "pkg.errors (Broken, Retired)", "Retired"),
        StaleEntry("allow", 2, "pkg.gone"),
    )


def test_an_allowance_may_name_its_importer_among_several_leaves(package: InMemoryPackage) -> None:
    result = decide(
        package,
        """
        [[contracts]]
        type = "leaf"
        modules = ["pkg.leaf", "pkg.core"]
        within = ["pkg.errors"]
        allow = ["pkg.core -> pkg.errors"]
        """,
    ).result

    assert findings(result) == [
        ("LY003", "src/pkg/leaf.py", 6, "pkg.leaf imports pkg.errors (Broken, Gone)")
    ]


def test_names_in_within_are_found_where_imported_and_where_used(
    package: InMemoryPackage,
) -> None:
    run = decide(
        package,
        """
        [[contracts]]
        type = "leaf"
        modules = ["pkg.leaf"]
        within = [{ module = "pkg.core", names = ["start", "stop"] }, { module = "pkg.errors", names = ["Gone"] }]
        """,
    )

    assert findings(run.result) == [
        ("LY003", "src/pkg/leaf.py", 6, "pkg.leaf imports pkg.errors (Gone)"),
        ("LY003", "src/pkg/leaf.py", 14, "pkg.leaf imports pkg.core (start)"),
    ]
    assert run.warnings == [
        [
            f"contracts.toml:{config_line(4)}: contract 'leaf #1': 'pkg.core' does not define "
            "'stop' (1 of its 2 "
            "names); a note, not a failure: keep the rule so they do not come back, retire it, or "
            "fix a misspelt name"
        ]
    ]


def test_a_leaf_that_imports_nothing_of_within_is_kept_and_expect_broken_says_so(
    package: InMemoryPackage,
) -> None:
    contract = """
        [[contracts]]
        type = "leaf"
        modules = ["pkg.helpers", "pkg.errors"]
        within = ["pkg"]
        """

    assert decide(package, contract).result.verdict is Verdict.KEPT
    kept = decide(package, contract + 'expect = "broken"\n').result
    assert kept.verdict is Verdict.UNEXPECTEDLY_KEPT
    assert findings(kept) == [
        (
            "LY031",
            "contracts.toml",
            config_line(5),
            'contract is kept but says expect = "broken": remove the expectation',
        )
    ]


def test_type_checking_imports_are_left_out_when_the_run_says_so(package: InMemoryPackage) -> None:
    result = decide(
        package,
        """
        exclude_type_checking_imports = true
        [[contracts]]
        type = "leaf"
        modules = ["pkg.leaf"]
        within = ["pkg.core"]
        """,
    ).result

    assert findings(result) == [("LY003", "src/pkg/leaf.py", 13, "pkg.leaf imports pkg.core")]


def test_a_name_target_inside_a_module_pattern_is_a_configuration_error(
    package: InMemoryPackage,
) -> None:
    with pytest.raises(ConfigError) as raised:
        decide(
            package,
            """
            [[contracts]]
            type = "leaf"
            modules = ["pkg.leaf"]
            within = ["pkg", { module = "pkg.core", names = ["start"] }]
            """,
        )

    (problem,) = raised.value.problems
    assert (problem.line, problem.message) == (
        config_line(4),
        "contract 'leaf #1': the names of 'pkg.core' in 'within' are already covered by 'pkg'",
    )
