"""`private_modules` (import-linter's, 2.17 and later), decided in memory: a module whose name
starts with `_` is imported only from inside its parent package."""

from __future__ import annotations

import pytest
from fakes import InMemoryPackage, decide, findings

from layering.domain.results import Verdict

pytest.importorskip("importlinter.contracts.private_modules")

PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/_config.py": "",
    "pkg/sub/__init__.py": "from pkg.sub import _inner\n",
    "pkg/sub/_inner.py": "",
    "pkg/sub/x.py": "from pkg.sub import _inner\n",
    "pkg/out.py": """
        import pkg._config
        from pkg.sub._inner import thing
    """,
    "pkg/other/__init__.py": "",
    "pkg/other/y.py": "from pkg.sub import _inner\n",
}


@pytest.fixture
def package() -> InMemoryPackage:
    return InMemoryPackage(PACKAGE)


def test_a_private_module_imported_from_outside_its_parent_is_found(
    package: InMemoryPackage,
) -> None:
    result = decide(
        package,
        """
        [[contracts]]
        type = "private_modules"
        """,
    ).result

    assert result.verdict is Verdict.BROKEN
    assert findings(result) == [
        ("LY016", "src/pkg/other/y.py", 1, "pkg.other.y imports pkg.sub._inner"),
        ("LY016", "src/pkg/out.py", 2, "pkg.out imports pkg.sub._inner (thing)"),
    ]


def test_only_the_named_packages_keep_their_private_modules(package: InMemoryPackage) -> None:
    contract = """
        [[contracts]]
        type = "private_modules"
        packages_with_private_modules = ["{}"]
        """

    assert decide(package, contract.format("pkg.other")).result.verdict is Verdict.KEPT
    assert [v.importer for v in decide(package, contract.format("pkg.sub")).result.violations] == [
        "pkg.other.y",
        "pkg.out",
    ]
