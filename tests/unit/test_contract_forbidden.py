"""`forbidden`, decided in memory: chains (the graph) and direct imports, allowances that only
shrink, ignored imports, `as_packages`, `expect = "broken"` and `forbidden_names`."""

from __future__ import annotations

import pytest
from fakes import InMemoryPackage, as_row, config_line, decide, findings

from layering.domain.errors import ConfigError
from layering.domain.results import Hop, StaleEntry, Verdict

PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/a.py": """
        import json
        from pkg import m
    """,
    "pkg/m.py": """
        from pkg.b import thing, other
    """,
    "pkg/b.py": """
        thing = 1
        other = 2
        secret = 3
    """,
    "pkg/c.py": """
        import pkg.b

        def later():
            from pkg.b import secret
            return pkg.b.secret
    """,
    "pkg/sub/__init__.py": "",
    "pkg/sub/x.py": "from pkg.b import other\n",
}


@pytest.fixture
def package() -> InMemoryPackage:
    return InMemoryPackage(PACKAGE)


# --------------------------------------------------------------------- chains (the graph)


def test_a_chain_to_a_forbidden_module_is_found_at_the_statements_of_its_cut(
    package: InMemoryPackage,
) -> None:
    run = decide(
        package,
        """
        [[contracts]]
        name = "a does not reach b"
        type = "forbidden"
        source_modules = ["pkg.a"]
        forbidden_modules = ["pkg.b"]
        """,
    )

    assert run.result.verdict is Verdict.BROKEN
    assert findings(run.result) == [
        ("LY002", "src/pkg/m.py", 1, "pkg.m imports pkg.b (other, thing)"),
    ]
    (group,) = run.result.chain_groups
    assert (group.source, group.target, group.chains) == ("pkg.a", "pkg.b", 1)
    assert group.cut[0].example == (
        Hop("pkg.a", "pkg.m", "src/pkg/a.py", 2),
        Hop("pkg.m", "pkg.b", "src/pkg/m.py", 1, ("other", "thing")),
    )
    assert run.result.stale == ()
    assert package.graphs.builds == 1


def test_a_run_lists_the_chains_it_is_asked_for() -> None:
    package = InMemoryPackage(
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg import m, n\n",
            "pkg/m.py": "import pkg.b\n",
            "pkg/n.py": "import pkg.m\nimport pkg.b\n",
            "pkg/b.py": "",
        }
    )
    contract = """
        [[contracts]]
        type = "forbidden"
        source_modules = ["pkg.a"]
        forbidden_modules = ["pkg.b"]
        """

    (group,) = decide(package, contract).result.chain_groups
    assert (group.chains, group.listed) == (2, ())
    (group,) = decide(package, contract, chains=5).result.chain_groups
    assert [[hop.imported for hop in chain] for chain in group.listed] == [
        ["pkg.m", "pkg.b"],
        ["pkg.n", "pkg.b"],
    ]
    assert [(v.path, v.line) for cut in group.cut for v in cut.statements] == [
        ("src/pkg/m.py", 1),
        ("src/pkg/n.py", 2),
    ]


def test_a_direct_import_on_the_graph_is_LY001(package: InMemoryPackage) -> None:
    run = decide(
        package,
        """
        [[contracts]]
        type = "forbidden"
        source_modules = ["pkg.c"]
        forbidden_modules = ["pkg.b"]
        """,
    )

    assert findings(run.result) == [
        ("LY001", "src/pkg/c.py", 1, "pkg.c imports pkg.b"),
        ("LY001", "src/pkg/c.py", 4, "pkg.c imports pkg.b (secret)"),
    ]


def test_a_source_is_its_package_unless_as_packages_is_false(package: InMemoryPackage) -> None:
    contract = """
        [[contracts]]
        type = "forbidden"
        source_modules = ["pkg.sub"]
        forbidden_modules = ["pkg.b"]
        as_packages = {}
        """

    assert findings(decide(package, contract.format("true")).result) == [
        ("LY001", "src/pkg/sub/x.py", 1, "pkg.sub.x imports pkg.b (other)")
    ]
    assert decide(package, contract.format("false")).result.verdict is Verdict.KEPT


def test_a_chain_to_an_external_package_is_found_with_external_packages_in_the_graph(
    package: InMemoryPackage,
) -> None:
    run = decide(
        package,
        """
        [[contracts]]
        type = "forbidden"
        source_modules = ["pkg"]
        forbidden_modules = ["json"]
        """,
    )

    assert run.evidence.include_external_packages
    assert findings(run.result) == [("LY001", "src/pkg/a.py", 1, "pkg.a imports json")]


def test_an_allowance_cuts_a_chain_and_one_that_excuses_nothing_is_stale(
    package: InMemoryPackage,
) -> None:
    run = decide(
        package,
        """
        [[contracts]]
        type = "forbidden"
        source_modules = ["pkg.a", "pkg.c"]
        forbidden_modules = ["pkg.b"]
        allow = [
            "pkg.m -> pkg.b",
            "pkg.c -> pkg.b",
            "pkg.a -> pkg.b",
        ]
        """,
    )

    assert run.result.verdict is Verdict.BROKEN
    assert findings(run.result) == [
        (
            "LY030",
            "contracts.toml",
            config_line(8),
            "allowance 'pkg.a -> pkg.b' matches no import: remove it (allowances only shrink)",
        )
    ]
    assert run.result.stale == (StaleEntry("allow", 2, "pkg.a -> pkg.b"),)


def test_an_allowance_whose_import_lies_on_no_chain_is_stale(package: InMemoryPackage) -> None:
    run = decide(
        package,
        """
        [[contracts]]
        type = "forbidden"
        source_modules = ["pkg.a"]
        forbidden_modules = ["pkg.b"]
        allow = ["pkg.m -> pkg.b", "pkg.c -> pkg.b"]
        """,
    )

    assert findings(run.result) == [
        (
            "LY030",
            "contracts.toml",
            config_line(5),
            "allowance 'pkg.c -> pkg.b' excuses no import on a chain the contract is about (its "
            "import lies "
            "off every chain): remove it (allowances only shrink)",
        )
    ]


def test_an_allowance_of_some_names_leaves_an_import_of_others_and_stale_names_are_found(
    package: InMemoryPackage,
) -> None:
    run = decide(
        package,
        """
        [[contracts]]
        type = "forbidden"
        source_modules = ["pkg.a"]
        forbidden_modules = ["pkg.b"]
        allow = [{ importer = "pkg.m", module = "pkg.b", names = ["thing", "gone"] }]
        """,
    )

    assert findings(run.result) == [
        ("LY002", "src/pkg/m.py", 1, "pkg.m imports pkg.b (other)"),
        (
            "LY030",
            "contracts.toml",
            config_line(5),
            "allowance 'pkg.m -> pkg.b (thing, gone)': no import takes 'gone' any more: "
            "remove the name (allowances only shrink)",
        ),
    ]
    assert run.result.stale == (StaleEntry("allow", 0, "pkg.m -> pkg.b (thing, gone)", "gone"),)


def test_an_ignored_import_leaves_the_graph_and_one_that_matches_nothing_is_stale(
    package: InMemoryPackage,
) -> None:
    run = decide(
        package,
        """
        [[contracts]]
        type = "forbidden"
        source_modules = ["pkg.a"]
        forbidden_modules = ["pkg.b"]
        ignore_imports = [
            "pkg.m -> pkg.b",
            "pkg.a -> pkg.b",
        ]
        """,
    )

    assert findings(run.result) == [
        (
            "LY030",
            "contracts.toml",
            config_line(7),
            "ignored import 'pkg.a -> pkg.b' matches no import: remove it",
        )
    ]
    assert run.result.stale == (StaleEntry("ignore_imports", 1, "pkg.a -> pkg.b"),)
    assert run.result.ignored_imports == 1


@pytest.mark.parametrize("alerting", ["warn", "none"])
def test_an_ignored_import_that_matches_nothing_is_said_or_not_by_its_alerting(
    package: InMemoryPackage, alerting: str
) -> None:
    run = decide(
        package,
        f"""
        [[contracts]]
        type = "forbidden"
        source_modules = ["pkg.c"]
        forbidden_modules = ["pkg.m"]
        ignore_imports = ["pkg.c -> pkg.m"]
        unmatched_ignore_imports_alerting = "{alerting}"
        """,
    )

    assert run.result.verdict is Verdict.KEPT
    assert run.result.stale == ()
    said = [
        f"contracts.toml:{config_line(5)}: contract 'forbidden #1': ignored import 'pkg.c -> "
        "pkg.m' "
        "matches no import (remove it)"
    ]
    assert run.warnings == [said if alerting == "warn" else []]


# ------------------------------------------------------------------------- direct imports


def test_with_indirect_imports_allowed_only_direct_imports_count(package: InMemoryPackage) -> None:
    run = decide(
        package,
        """
        [[contracts]]
        type = "forbidden"
        source_modules = ["pkg.a", "pkg.c"]
        forbidden_modules = ["pkg.b", "json"]
        allow_indirect_imports = true
        """,
    )

    assert not run.evidence.graph_built
    assert findings(run.result) == [
        ("LY001", "src/pkg/a.py", 1, "pkg.a imports json"),
        ("LY001", "src/pkg/c.py", 1, "pkg.c imports pkg.b"),
        ("LY001", "src/pkg/c.py", 4, "pkg.c imports pkg.b (secret)"),
    ]
    assert run.result.chain_groups == ()


def test_a_direct_allowance_excuses_names_and_its_stale_entries_are_found(
    package: InMemoryPackage,
) -> None:
    run = decide(
        package,
        """
        [[contracts]]
        type = "forbidden"
        source_modules = ["pkg.m", "pkg.sub"]
        forbidden_modules = ["pkg.b"]
        allow_indirect_imports = true
        allow = [
            { importer = "pkg.m", module = "pkg.b", names = ["thing"] },
            "pkg.sub.x -> pkg.b",
            "pkg.a -> pkg.b",
        ]
        ignore_imports = ["pkg.a -> pkg.b"]
        """,
    )

    assert findings(run.result) == [
        (
            "LY030",
            "contracts.toml",
            config_line(11),
            "ignored import 'pkg.a -> pkg.b' matches no import: remove it",
        ),
        ("LY001", "src/pkg/m.py", 1, "pkg.m imports pkg.b (other)"),
        (
            "LY030",
            "contracts.toml",
            config_line(9),
            "allowance 'pkg.a -> pkg.b' matches no import: remove it (allowances only shrink)",
        ),
    ]
    assert run.result.stale == (
        StaleEntry("allow", 2, "pkg.a -> pkg.b"),
        StaleEntry("ignore_imports", 0, "pkg.a -> pkg.b"),
    )


def test_type_checking_imports_count_unless_the_run_leaves_them_out() -> None:
    package = InMemoryPackage(
        {
            "pkg/__init__.py": "",
            "pkg/a.py": """
                from typing import TYPE_CHECKING
                if TYPE_CHECKING:
                    from pkg.b import Thing
            """,
            "pkg/b.py": "class Thing: ...\n",
        }
    )
    for graph in ("false", "true"):
        contract = f"""
            [[contracts]]
            type = "forbidden"
            source_modules = ["pkg.a"]
            forbidden_modules = ["pkg.b"]
            allow_indirect_imports = {graph}
            """
        (finding,) = decide(package, contract).result.violations
        assert as_row(finding) == ("LY001", "src/pkg/a.py", 3, "pkg.a imports pkg.b (Thing)")
        assert finding.qualifiers == ("TYPE_CHECKING",)
        excluded = "exclude_type_checking_imports = true\n" + contract
        assert decide(package, excluded).result.verdict is Verdict.KEPT


# ------------------------------------------------------------------------ expect = "broken"


@pytest.mark.parametrize("indirect", ["true", "false"])
def test_expect_broken_holds_a_broken_contract_and_says_when_it_is_kept(
    package: InMemoryPackage, indirect: str
) -> None:
    contract = f"""
        [[contracts]]
        type = "forbidden"
        source_modules = ["{{source}}"]
        forbidden_modules = ["pkg.b"]
        allow_indirect_imports = {indirect}
        expect = "broken"
        """

    broken = decide(package, contract.format(source="pkg.c")).result
    assert broken.verdict is Verdict.EXPECTED_BROKEN
    assert [v.code for v in broken.violations] == ["LY001", "LY001"]
    assert broken.stale == ()

    kept = decide(package, contract.format(source="pkg.b")).result
    assert kept.verdict is Verdict.UNEXPECTEDLY_KEPT
    assert findings(kept) == [
        (
            "LY031",
            "contracts.toml",
            config_line(6),
            'contract is kept but says expect = "broken": remove the expectation',
        )
    ]
    assert kept.stale == (StaleEntry("expect", None, 'expect = "broken"'),)


def test_expect_broken_with_a_stale_allowance_is_broken(package: InMemoryPackage) -> None:
    result = decide(
        package,
        """
        [[contracts]]
        type = "forbidden"
        source_modules = ["pkg.c"]
        forbidden_modules = ["pkg.b"]
        allow = ["pkg.a -> pkg.b"]
        expect = "broken"
        """,
    ).result

    assert result.verdict is Verdict.BROKEN
    assert [v.code for v in result.violations] == ["LY001", "LY001", "LY030"]


def test_guidance_is_shown_under_the_findings(package: InMemoryPackage) -> None:
    result = decide(
        package,
        """
        [[contracts]]
        type = "forbidden"
        source_modules = ["pkg.c"]
        forbidden_modules = ["pkg.b"]
        broken_contract_guidance = "Ask the b team."
        """,
    ).result

    assert result.notes == ("Ask the b team.",)


# ------------------------------------------------------------------------- forbidden_names


def test_a_forbidden_name_is_found_where_it_is_imported_and_where_it_is_used(
    package: InMemoryPackage,
) -> None:
    run = decide(
        package,
        """
        [[contracts]]
        type = "forbidden"
        source_modules = ["pkg"]
        forbidden_names = [{ module = "pkg.b", names = ["secret", "thing"] }]
        allow = [{ importer = "pkg.m", module = "pkg.b", names = ["thing"] }]
        """,
    )

    assert not run.evidence.graph_built
    assert findings(run.result) == [
        ("LY005", "src/pkg/c.py", 4, "pkg.c imports pkg.b (secret)"),
        ("LY005", "src/pkg/c.py", 5, "pkg.c imports pkg.b (secret)"),
    ]
    assert [v.qualifiers for v in run.result.violations] == [
        ("function-level",),
        ("attribute", "function-level"),
    ]
    assert run.warnings == [[]]


def test_a_forbidden_name_the_module_no_longer_defines_is_a_note(package: InMemoryPackage) -> None:
    run = decide(
        package,
        """
        [[contracts]]
        type = "forbidden"
        source_modules = ["pkg.a"]
        forbidden_names = [{ module = "pkg.b", names = ["thing", "retired"] }]
        """,
    )

    assert run.result.verdict is Verdict.KEPT
    assert run.warnings == [
        [
            f"contracts.toml:{config_line(4)}: contract 'forbidden #1': 'pkg.b' does not define "
            "'retired' "
            "(1 of its 2 names); a note, not a failure: keep the rule so they do not come back, "
            "retire it, "
            "or fix a misspelt name"
        ]
    ]


def test_forbidden_names_and_modules_are_decided_together(package: InMemoryPackage) -> None:
    result = decide(
        package,
        """
        [[contracts]]
        type = "forbidden"
        source_modules = ["pkg.sub", "pkg.c"]
        forbidden_modules = ["pkg.m"]
        forbidden_names = [{ module = "pkg.b", names = ["other"] }]
        """,
    ).result

    assert findings(result) == [
        ("LY005", "src/pkg/sub/x.py", 1, "pkg.sub.x imports pkg.b (other)")
    ]


# ----------------------------------------------------------------- what cannot be decided


def test_a_file_that_does_not_parse_leaves_the_contract_undecided() -> None:
    package = InMemoryPackage(
        {"pkg/__init__.py": "", "pkg/a.py": "import pkg.b\ndef broken(:\n", "pkg/b.py": ""}
    )
    for indirect in ("true", "false"):
        run = decide(
            package,
            f"""
            [[contracts]]
            type = "forbidden"
            source_modules = ["pkg.a"]
            forbidden_modules = ["pkg.b"]
            allow_indirect_imports = {indirect}
            """,
        )
        assert run.result.verdict is Verdict.ERROR
        ((code, path, line, message),) = findings(run.result)
        assert (code, path, line) == ("LY040", "src/pkg/a.py", 2)
        assert message.startswith("syntax error: ")
        assert message.endswith(
            "; fix the file to decide this contract (or, if it uses newer syntax, run layering on "
            "a Python that has it)"
        )


def test_a_source_module_that_matches_nothing_is_a_located_configuration_error(
    package: InMemoryPackage,
) -> None:
    with pytest.raises(ConfigError) as raised:
        decide(
            package,
            """
            [[contracts]]
            name = "typo"
            type = "forbidden"
            source_modules = ["pkg.sub.y"]
            forbidden_modules = ["pkg.b"]
            """,
        )

    (problem,) = raised.value.problems
    assert problem.line == config_line(4)
    assert problem.message == (  # 'x' is not what 'y' meant: no module is suggested
        "contract 'typo': 'pkg.sub.y' in 'source_modules' matches no module in the package pkg."
    )


def test_deciding_a_contract_twice_gives_the_same_decision(package: InMemoryPackage) -> None:
    run = decide(
        package,
        """
        [[contracts]]
        type = "forbidden"
        source_modules = ["pkg.a"]
        forbidden_modules = ["pkg.b"]
        allow = [{ importer = "pkg.m", module = "pkg.b", names = ["thing"] }]
        ignore_imports = ["pkg.x -> pkg.b"]
        """,
    )
    (contract,) = run.contracts
    graph = run.evidence.graph_shares(2)
    first = contract.evaluate(run.evidence, graph.take())
    second = contract.evaluate(run.evidence, graph.take())

    assert first == second == run.decided[0].decision
    assert contract.result(first) == run.result
    assert [as_row(v) for v in contract.result(first).violations] == findings(run.result)


# ------------------------------------------ ignored imports and external packages, direct


def test_an_ignored_import_of_a_module_that_is_no_source_matches_with_direct_imports_too() -> None:
    package = InMemoryPackage(
        {
            "pkg/__init__.py": "",
            "pkg/m.py": "from pkg.b import thing\n",
            "pkg/b.py": "thing = 1\n",
            "pkg/c.py": "import pkg.b\n",
        }
    )
    contract = """
        [[contracts]]
        type = "forbidden"
        source_modules = ["pkg.c"]
        forbidden_modules = ["pkg.b"]
        ignore_imports = ["pkg.m -> pkg.b", "pkg.c -> pkg.b"]
        allow_indirect_imports = {}
        """

    assert decide(package, contract.format("false")).result.verdict is Verdict.KEPT
    direct = decide(package, contract.format("true")).result
    assert (direct.verdict, direct.violations, direct.stale) == (Verdict.KEPT, (), ())


def test_an_ignored_import_of_an_external_package_covers_its_submodules_with_direct_imports_too() -> (
    None
):
    package = InMemoryPackage({"pkg/__init__.py": "", "pkg/c.py": "import os.path\n"})
    contract = """
        [[contracts]]
        type = "forbidden"
        source_modules = ["pkg.c"]
        forbidden_modules = ["os"]
        ignore_imports = ["pkg.c -> os"]
        allow_indirect_imports = {}
        """

    assert decide(package, contract.format("false")).result.verdict is Verdict.KEPT
    direct = decide(package, contract.format("true")).result
    assert (direct.verdict, direct.violations, direct.stale) == (Verdict.KEPT, (), ())


def test_a_forbidden_external_submodule_imported_by_name_from_its_package_is_found() -> None:
    package = InMemoryPackage(
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from os import path\n",
            "pkg/b.py": "import os.path\n",
        }
    )

    result = decide(
        package,
        """
        [[contracts]]
        type = "forbidden"
        source_modules = ["pkg"]
        forbidden_modules = ["os.path"]
        allow_indirect_imports = true
        """,
    ).result

    assert findings(result) == [
        ("LY001", "src/pkg/a.py", 1, "pkg.a imports os (path)"),
        ("LY001", "src/pkg/b.py", 1, "pkg.b imports os.path"),
    ]
