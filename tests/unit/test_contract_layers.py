"""`layers` (import-linter's), decided in memory: a lower layer importing a higher one, directly
or through a chain, is found at the statements of the cut; independent layers, containers,
`exhaustive`, ignored imports that match nothing, `expect = "broken"`."""

from __future__ import annotations

import pytest
from fakes import InMemoryPackage, config_line, decide, findings

from layering.domain.errors import ConfigError
from layering.domain.results import Hop, StaleEntry, Verdict

PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/api.py": "from pkg import domain\n",
    "pkg/domain.py": """
        from pkg import infra
        from pkg import utils
    """,
    "pkg/utils.py": "from pkg.api import app\n",
    "pkg/infra.py": "",
    "pkg/orders.py": "from pkg import users\n",
    "pkg/users.py": "",
}

LAYERS = """
    [[contracts]]
    name = "layers"
    type = "layers"
    layers = ["pkg.api", "pkg.domain", "pkg.infra"]
    """


@pytest.fixture
def package() -> InMemoryPackage:
    return InMemoryPackage(PACKAGE)


def test_a_lower_layer_reaching_a_higher_one_is_found_at_the_cut(package: InMemoryPackage) -> None:
    run = decide(package, LAYERS)

    assert run.result.verdict is Verdict.BROKEN
    assert findings(run.result) == [
        ("LY011", "src/pkg/utils.py", 1, "pkg.utils imports pkg.api (app)"),
    ]
    (group,) = run.result.chain_groups
    assert (group.source, group.target, group.chains) == ("pkg.domain", "pkg.api", 1)
    assert group.cut[0].example == (
        Hop("pkg.domain", "pkg.utils", "src/pkg/domain.py", 2),
        Hop("pkg.utils", "pkg.api", "src/pkg/utils.py", 1, ("app",)),
    )
    assert run.result.notes == ()


def test_layers_kept_and_expect_broken_says_so(package: InMemoryPackage) -> None:
    contract = """
        [[contracts]]
        type = "layers"
        layers = ["pkg.orders", "pkg.users"]
        expect = "broken"
        """

    result = decide(package, contract).result

    assert result.verdict is Verdict.UNEXPECTEDLY_KEPT
    assert findings(result) == [
        (
            "LY031",
            "contracts.toml",
            config_line(4),
            'contract is kept but says expect = "broken": remove the expectation',
        )
    ]
    assert result.stale == (StaleEntry("expect", None, 'expect = "broken"'),)
    assert decide(package, LAYERS + 'expect = "broken"\n').result.verdict is (
        Verdict.EXPECTED_BROKEN
    )


def test_an_ignored_import_cuts_the_chain_and_one_that_matches_nothing_is_stale(
    package: InMemoryPackage,
) -> None:
    run = decide(
        package,
        LAYERS
        + """ignore_imports = [
            "pkg.utils -> pkg.api",
            "pkg.infra -> pkg.api",
        ]
        """,
    )

    assert findings(run.result) == [
        (
            "LY030",
            "contracts.toml",
            config_line(7),
            "ignored import 'pkg.infra -> pkg.api' matches no import: remove it",
        )
    ]
    assert run.result.stale == (StaleEntry("ignore_imports", 1, "pkg.infra -> pkg.api"),)
    assert run.result.ignored_imports == 1


def test_an_ignored_import_that_matches_nothing_only_warns_when_asked(
    package: InMemoryPackage,
) -> None:
    run = decide(
        package,
        LAYERS
        + """ignore_imports = ["pkg.utils -> pkg.api", "pkg.infra -> pkg.api"]
        unmatched_ignore_imports_alerting = "warn"
        """,
    )

    assert run.result.verdict is Verdict.KEPT
    assert run.warnings == [
        [
            f"contracts.toml:{config_line(5)}: contract 'layers': ignored import 'pkg.infra -> "
            "pkg.api' "
            "matches no import (remove it)"
        ]
    ]


def test_modules_of_an_independent_layer_may_not_import_each_other(
    package: InMemoryPackage,
) -> None:
    contract = """
        [[contracts]]
        type = "layers"
        layers = ["pkg.orders {} pkg.users", "pkg.infra"]
        """

    assert findings(decide(package, contract.format("|")).result) == [
        ("LY011", "src/pkg/orders.py", 1, "pkg.orders imports pkg.users"),
    ]
    assert decide(package, contract.format(":")).result.verdict is Verdict.KEPT


def test_an_exhaustive_contract_names_each_module_it_does_not_list(
    package: InMemoryPackage,
) -> None:
    result = decide(
        package,
        """
        [[contracts]]
        type = "layers"
        layers = ["api", "domain", "infra"]
        containers = ["pkg"]
        exhaustive = true
        exhaustive_ignores = ["utils", "orders"]
        """,
    ).result

    assert findings(result) == [
        (
            "LY015",
            "contracts.toml",
            config_line(3),
            "pkg.users is not listed as a layer (the contract is exhaustive): list it, or add it "
            "to "
            "exhaustive_ignores",
        ),
        ("LY011", "src/pkg/utils.py", 1, "pkg.utils imports pkg.api (app)"),
    ]


def test_a_missing_layer_is_an_error_unless_it_is_optional(package: InMemoryPackage) -> None:
    contract = """
        [[contracts]]
        type = "layers"
        layers = ["pkg.api", "{}", "pkg.infra"]
        """

    assert decide(package, contract.format("(pkg.service)")).result.verdict is Verdict.KEPT
    with pytest.raises(ConfigError) as raised:
        decide(package, contract.format("pkg.service"))
    (problem,) = raised.value.problems
    assert problem.line == config_line(3)
    assert problem.message.startswith(
        "contract 'layers #1': 'pkg.service' in 'layers' matches no module in the package pkg."
    )
