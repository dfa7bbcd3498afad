"""The load walk on paper: order, cycles, parent packages, stopping at a forbidden module."""

from __future__ import annotations

from layering.domain.loads import LoadStep, walk_loads
from layering.domain.patterns import ModulePattern


def steps(graph: dict[str, list[str]]):
    """`steps_of` for a package where module m's line n imports graph[m][n - 1]."""

    def steps_of(module: str) -> list[LoadStep]:
        return [
            LoadStep((line, 0, 0), module, imported, f"{module}.py", line)
            for line, imported in enumerate(graph.get(module, []), start=1)
        ]

    return steps_of


def chain(closure, loaded: str) -> list[str]:
    return [f"{step.path}:{step.line}" for step in closure.chain(loaded)]


def test_each_module_is_entered_once_by_the_first_statement_that_reaches_it():
    closure = walk_loads("a", steps({"a": ["b", "c"], "b": ["c", "a"], "c": ["d"]}))
    assert list(closure.loaders) == ["a", "b", "c", "d"]
    assert chain(closure, "d") == ["a.py:1", "b.py:1", "c.py:1"]
    assert closure.graph["b"] == frozenset(steps({"b": ["c", "a"]})("b"))


def test_parent_packages_run_first_and_a_chain_starts_in_the_last_one_that_ran():
    closure = walk_loads("p.q.m", steps({"p": ["x"], "p.q": ["y"], "y": ["z"]}))
    assert list(closure.loaders) == ["p", "x", "p.q", "y", "z", "p.q.m"]
    assert chain(closure, "z") == ["p.q.py:1", "y.py:1"]
    assert closure.loaders["p.q.m"] is None


def test_a_module_that_stops_the_walk_is_entered_not_followed():
    forbidden = ModulePattern("b")
    closure = walk_loads("a", steps({"a": ["b", "c"], "b": ["d"], "c": ["b.e"]}), forbidden.covers)
    assert list(closure.loaders) == ["a", "b", "c", "b.e"]
    assert closure.covered([forbidden]) == ["b"]
    assert "b" not in closure.graph
