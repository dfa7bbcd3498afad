"""`forbidden` against its rule as written, on generated packages: a source is checked against
each forbidden module except one it is or (as packages) lies in or holds, and an import hits a
forbidden module it names or lies within (of an external package, `from ext import sub` too).
The contract finds them through an index of the forbidden modules; the rule is a scan of them.
"""

from __future__ import annotations

from fakes import InMemoryPackage, decide
from hypothesis import given
from hypothesis import strategies as st

from layering.contracts._common import statement_violations
from layering.domain.codes import DIRECT_IMPORT
from layering.domain.patterns import is_within
from layering.engine.reach import ChainPair

MODULES = ("pkg", "pkg.a", "pkg.a.x", "pkg.a.y", "pkg.b", "pkg.b.x", "pkg.c")
PACKAGES = {"pkg", "pkg.a", "pkg.b"}
EXTERNAL = ("ext", "ext.sub")
STATEMENTS = (
    *(f"import {m}\n" for m in MODULES),
    "import ext\n",
    "import ext.sub\n",
    "from ext import sub\n",
    "from pkg.a import x\n",
)


def path_of(module: str) -> str:
    return module.replace(".", "/") + ("/__init__.py" if module in PACKAGES else ".py")


@st.composite
def contracts(draw):
    """A package whose modules import some of the others and of `ext`, and a forbidden contract
    over it: (package, sources, forbidden, as_packages)."""
    texts = {
        path_of(m): "".join(draw(st.lists(st.sampled_from(STATEMENTS), max_size=4)))
        for m in MODULES
    }
    sources = draw(st.lists(st.sampled_from(MODULES), min_size=1, max_size=4, unique=True))
    forbidden = draw(
        st.lists(st.sampled_from(MODULES + EXTERNAL), min_size=1, max_size=6, unique=True)
    )
    return InMemoryPackage(texts), sources, forbidden, draw(st.booleans())


def body(sources, forbidden, as_packages: bool, indirect: bool) -> str:
    return (
        f'[[contracts]]\nname = "c"\ntype = "forbidden"\nsource_modules = {sources!r}\n'
        f"forbidden_modules = {forbidden!r}\nas_packages = {str(as_packages).lower()}\n"
        f"allow_indirect_imports = {str(indirect).lower()}\n"
    ).replace("'", '"')


def overlaps(source: str, target: str, as_packages: bool) -> bool:
    if source == target:
        return True
    return as_packages and (is_within(source, target) or is_within(target, source))


def hits(fact, target: str, as_packages: bool) -> bool:
    if not is_within(target, "pkg"):
        return is_within(fact.imported, target) or (
            fact.name is not None and is_within(fact.dotted, target)
        )
    return is_within(fact.imported, target) if as_packages else fact.imported == target


@given(contracts())
def test_direct_imports_are_the_ones_the_rule_names(contract):
    package, sources, forbidden, as_packages = contract
    run = decide(package, body(sources, forbidden, as_packages, indirect=True))
    evidence = run.evidence
    taken = []
    for source in sorted(sources):
        importers = [source, *evidence.descendants(source)] if as_packages else [source]
        targets = [t for t in forbidden if not overlaps(source, t, as_packages)]
        for importer in importers:
            taken.extend(
                fact
                for fact in evidence.facts_of(importer)
                if any(hits(fact, t, as_packages) for t in targets)
            )
    expected = statement_violations(sorted(set(taken)), DIRECT_IMPORT)
    assert list(run.result.violations) == sorted(expected)


@given(contracts())
def test_sources_are_paired_with_the_forbidden_modules_they_are_checked_against(contract):
    package, sources, forbidden, as_packages = contract
    internal = [t for t in forbidden if is_within(t, "pkg")]
    if not internal:
        return
    run = decide(package, body(sources, internal, as_packages, indirect=False))
    (checked,) = run.contracts
    groups: dict[tuple[str, ...], list[str]] = {}
    for source in sorted(sources):
        targets = tuple(t for t in sorted(internal) if not overlaps(source, t, as_packages))
        if targets:
            groups.setdefault(targets, []).append(source)
    assert checked.chain_pairs(run.evidence, run.evidence.graph) == [
        ChainPair(tuple(members), tuple(targets), as_packages)
        for members, targets in sorted((m, list(t)) for t, m in groups.items())
    ]
