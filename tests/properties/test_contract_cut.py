"""`contract_cut` on random graphs asked several questions at once: the one cut it gives a
contract cuts every question's chains, is never larger than the union of their cuts, and
`joined`, which it decides by, agrees with the definition of a chain (`Problem.connected`)."""

from __future__ import annotations

from hypothesis import given, note
from hypothesis import strategies as st
from test_chains_and_cut import MAX_IMPORTS, MODULES, PURE, Problem, lopsided_graph

from layering.domain.chains import ChainGraph, Question, chains_and_cut, contract_cut, joined


@st.composite
def asked(draw):
    """(imports, questions): one graph, two to four questions of it."""
    modules = MODULES[: draw(st.integers(3, len(MODULES)))]
    pairs = [(a, b) for a in modules for b in modules if a != b]
    edges = draw(st.lists(st.sampled_from(pairs), max_size=MAX_IMPORTS, unique=True))
    imports = {m: frozenset(b for a, b in edges if a == m) for m in modules}
    some = st.lists(st.sampled_from(modules), min_size=1, max_size=2, unique=True)
    questions = [
        Question(
            frozenset(draw(some)),
            frozenset(draw(some)),
            frozenset(draw(st.lists(st.sampled_from(modules), max_size=2, unique=True))),
        )
        for _ in range(draw(st.integers(2, 4)))
    ]
    return imports, questions


@PURE
@given(asked())
def test_the_contract_cut_cuts_every_question_and_is_no_larger_than_their_union(case):
    imports, questions = case
    graph = ChainGraph(imports)
    cuts = [chains_and_cut(graph, q.sources, q.targets, q.excluded).cut for q in questions]
    union = {edge for cut in cuts for edge in cut}
    cut = contract_cut(graph, zip(questions, cuts))
    note(f"union {sorted(union)}, contract cut {cut}")
    assert len(cut) <= len(union)
    assert list(cut) == sorted(set(cut))
    for question in questions:
        problem = Problem(imports, question.sources, question.targets, question.excluded)
        assert not problem.connected(removed=frozenset(cut)), question


@PURE
@given(asked(), st.data())
def test_joined_is_whether_a_chain_survives_the_removed_imports(case, data):
    imports, questions = case
    graph = ChainGraph(imports)
    edges = sorted((a, b) for a, imported in imports.items() for b in imported)
    removed = frozenset(data.draw(st.lists(st.sampled_from(edges), unique=True)) if edges else [])
    for question in questions:
        problem = Problem(imports, question.sources, question.targets, question.excluded)
        assert joined(graph, question, removed) == problem.connected(removed=removed)


@PURE
@given(st.integers(24, 40), st.integers(0, 2**32 - 1), st.data())
def test_joined_is_the_same_walked_from_far_fewer_sources(count, seed, data):
    imports, sources, targets, excluded = lopsided_graph(count, seed)
    edges = sorted((a, b) for a, imported in imports.items() for b in imported)
    removed = frozenset(data.draw(st.lists(st.sampled_from(edges), unique=True)) if edges else [])
    problem = Problem(imports, sources, targets, excluded)
    question = Question(frozenset(sources), frozenset(targets), frozenset(excluded))
    found = joined(ChainGraph(imports), question, removed)
    assert found == problem.connected(removed=removed)


def test_one_import_that_carries_every_pair_is_the_contract_cut():
    # x reaches y and z only through x -> hub; each pair's own cut is nearest its target.
    imports = {"x": {"hub"}, "hub": {"y", "z"}, "y": set(), "z": set()}
    graph = ChainGraph(imports)
    questions = [
        Question(frozenset({"x"}), frozenset({"y"}), frozenset({"z"})),
        Question(frozenset({"x"}), frozenset({"z"}), frozenset({"y"})),
    ]
    cuts = [chains_and_cut(imports, q.sources, q.targets, q.excluded).cut for q in questions]
    assert sorted(edge for cut in cuts for edge in cut) == [("hub", "y"), ("hub", "z")]
    assert contract_cut(graph, zip(questions, cuts)) == (("x", "hub"),)
