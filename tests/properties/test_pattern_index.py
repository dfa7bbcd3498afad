"""The pattern index answers what a scan of every pattern answers, in the list's order.

Patterns and module names are drawn from a few parts, so that wildcards, names and classes of
modules meet the same modules often; `expand_each` is held to each pattern's own `expand`, and
the index of a contract's allowances to asking each allowance.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from layering.domain.allowances import Allowance, AllowanceIndex
from layering.domain.facts import ImportFact
from layering.domain.module_classes import MODULE_CLASSES, ModuleClasses
from layering.domain.patterns import ModulePattern, PatternIndex, expand_each, index_patterns

CLASSES = ModuleClasses(first_party=("a",), stdlib=frozenset({"b"}))
NAMES = ("a", "b", "c", "0c", "__init__")


def dotted(parts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.lists(parts, min_size=1, max_size=5).map(".".join)


modules = dotted(st.sampled_from(NAMES))
patterns = st.one_of(
    dotted(st.sampled_from((*NAMES, "*", "**"))).map(ModulePattern.parse),
    st.sampled_from(MODULE_CLASSES).map(lambda text: ModulePattern.parse(text, CLASSES)),
)


@given(st.lists(patterns, max_size=12), st.lists(modules, max_size=12))
def test_the_index_finds_what_a_scan_finds(listed, names):
    index = PatternIndex((pattern, position) for position, pattern in enumerate(listed))
    for name in names:
        assert index.matching(name) == [i for i, p in enumerate(listed) if p.matches(name)]
        assert index.covering(name) == [i for i, p in enumerate(listed) if p.covers(name)]


@given(st.lists(patterns, max_size=12), st.sets(modules, max_size=20))
def test_expand_each_expands_as_each_pattern_does(listed, names):
    expanded = expand_each(listed, names)
    assert expanded == {pattern: pattern.expand(names) for pattern in listed}


@given(patterns, modules)
def test_a_pattern_matches_only_below_its_named_head(pattern, name):
    if pattern.matches(name) and pattern.named_head and pattern.has_wildcard:
        assert name.startswith(pattern.named_head + ".")


def test_a_duplicate_pattern_is_found_once_per_entry():
    index = index_patterns([ModulePattern.parse("a.*"), ModulePattern.parse("a.*")])
    assert index.matching("a.b") == [ModulePattern.parse("a.*")] * 2


allowances = st.builds(
    Allowance,
    module=patterns,
    importer=st.none() | patterns,
    names=st.none() | st.lists(st.sampled_from(("x", "y", "*")), min_size=1).map(tuple),
    whole_package=st.booleans(),
)
facts = st.builds(
    lambda importer, module, name, submodule: ImportFact(
        "f.py",
        1,
        importer,
        f"{module}.{name}" if name and submodule else module,
        module,
        name,
        1,
        1,
    ),
    modules,
    modules,
    st.none() | st.sampled_from(("x", "y", "c")),
    st.booleans(),
)
"""`import module`, `from module import name`, and the same where `module.name` is a module."""


@given(st.lists(allowances, max_size=10), st.lists(facts, max_size=10))
def test_the_allowance_index_finds_what_asking_each_allowance_finds(listed, imports):
    index = AllowanceIndex(listed)
    for fact in imports:
        assert index.excusing(fact) == [a for a in listed if a.excuses(fact)]
        assert index.of_importer(fact.importer) == [
            a for a in listed if a.importer is None or a.importer.matches(fact.importer)
        ]
