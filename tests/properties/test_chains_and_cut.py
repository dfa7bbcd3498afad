"""`chains_and_cut` on random graphs, against brute force: the cut it reports keeps the contract,
no smaller one does, its chains and examples are real, and it is the same however it is built.

A chain is what grimp calls one: a path from a source to a target whose interior avoids the
sources, the targets and the excluded modules. Everything here is read from that definition
alone, never from the code under test.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
import textwrap
from collections import deque

from hypothesis import given, note, settings
from hypothesis import strategies as st

from layering.domain.chains import chains_and_cut

MODULES = tuple(f"m{i}" for i in range(8))
MAX_IMPORTS = 16  # keeps the brute-force search for a smaller cut to a few thousand subsets
PURE = settings(
    max_examples=max(100, settings.default.max_examples)
)  # no I/O: more examples, still fast


@st.composite
def graphs(draw, max_modules: int = len(MODULES)):
    """(imports, sources, targets, excluded) on up to `max_modules` modules."""
    modules = MODULES[: draw(st.integers(2, max_modules))]
    pairs = [(a, b) for a in modules for b in modules if a != b]
    edges = draw(st.lists(st.sampled_from(pairs), max_size=MAX_IMPORTS, unique=True))
    imports = {m: frozenset(b for a, b in edges if a == m) for m in modules}
    sources = frozenset(
        draw(st.lists(st.sampled_from(modules), min_size=1, max_size=3, unique=True))
    )
    targets = frozenset(
        draw(st.lists(st.sampled_from(modules), min_size=1, max_size=3, unique=True))
    )
    excluded = frozenset(draw(st.lists(st.sampled_from(modules), max_size=2, unique=True)))
    return imports, sources, targets, excluded


class Problem:
    """The question `chains_and_cut` answers, read directly from the definition of a chain."""

    def __init__(self, imports, sources, targets, excluded) -> None:
        self.imports = imports
        self.excluded = frozenset(excluded)
        self.sources = frozenset(sources) - self.excluded
        self.targets = frozenset(targets) - self.sources - self.excluded
        self.closed = self.sources | frozenset(targets) | self.excluded  # never inside a chain

    def edges(self) -> set[tuple[str, str]]:
        return {(a, b) for a, imported in self.imports.items() for b in imported}

    def is_chain(self, chain) -> bool:
        """A real path from a source to a target, its interior outside sources, targets,
        excluded."""
        return (
            len(chain) >= 2
            and chain[0] in self.sources
            and chain[-1] in self.targets
            and all(b in self.imports.get(a, ()) for a, b in zip(chain, chain[1:]))
            and not any(m in self.closed for m in chain[1:-1])
        )

    def connected(self, removed=frozenset(), starts=None) -> bool:
        """Whether some chain (from `starts`, by default the sources) survives removing the
        imports in `removed`."""
        starts = self.sources if starts is None else starts
        seen = set(starts)
        queue = deque(sorted(starts))
        while queue:
            module = queue.popleft()
            if module in self.targets:
                return True
            for imported in self.imports.get(module, ()):
                if (module, imported) in removed or imported in seen:
                    continue
                if imported in self.closed and imported not in self.targets:
                    continue
                seen.add(imported)
                queue.append(imported)
        return False

    def reaching_targets(self, removed) -> set[str]:
        """The sources and open modules from which a chain (or its end) still reaches a target
        once the imports in `removed` are gone: the targets' side of that cut."""
        candidates = self.sources | (set(self.imports) - self.closed)
        return {module for module in candidates if self.connected(removed, starts={module})}

    def simple_chains_through(self, edge):
        """Every chain without a repeated module that crosses `edge` (small graphs only)."""
        found = []

        def extend(path):
            if path[-1] in self.targets and len(path) >= 2:
                if edge in zip(path, path[1:]):
                    found.append(tuple(path))
                return
            for imported in sorted(self.imports.get(path[-1], ())):
                if imported in path or (imported in self.closed and imported not in self.targets):
                    continue
                extend(path + [imported])

        for source in sorted(self.sources):
            extend([source])
        return found

    def first_imports_that_lead_to_a_target(self) -> set[tuple[str, str]]:
        """(source, first) for every import of a source that starts a chain."""
        return {
            (source, first)
            for source in self.sources
            for first in self.imports.get(source, ())
            if first in self.targets
            or (first not in self.closed and self.connected(starts={first}))
        }

    def maximum_flow(self) -> int:
        """How many chains with no import in common exist (Edmonds-Karp, one unit per import):
        by Menger's theorem, the size of every minimum cut."""
        open_modules = set(self.imports) - self.closed
        capacity: dict[str, dict[str, int]] = {}

        def arc(a, b, amount):
            capacity.setdefault(a, {})[b] = capacity.get(a, {}).get(b, 0) + amount
            capacity.setdefault(b, {}).setdefault(a, 0)

        for a, imported in self.imports.items():
            if a in self.sources or a in open_modules:
                for b in imported:
                    if b in self.targets or (b in open_modules and b not in self.sources):
                        arc(a, b, 1)
        for source in self.sources:
            arc("<start>", source, len(self.imports) ** 2)
        for target in self.targets:
            arc(target, "<end>", len(self.imports) ** 2)
        flow = 0
        while True:
            parent = {"<start>": None}
            queue = deque(["<start>"])
            while queue and "<end>" not in parent:
                node = queue.popleft()
                for following, left in capacity.get(node, {}).items():
                    if left > 0 and following not in parent:
                        parent[following] = node
                        queue.append(following)
            if "<end>" not in parent:
                return flow
            node = "<end>"
            while parent[node] is not None:
                capacity[parent[node]][node] -= 1
                capacity[node][parent[node]] += 1
                node = parent[node]
            flow += 1


EVERY = 10**9  # list every canonical chain, not only the first few a report shows


def solved(graph):
    """The question and `chains_and_cut`'s answer to it."""
    found = chains_and_cut(*graph, listed=EVERY)
    note(f"chains: {found.listed}\ncut: {found.cut}\nexamples: {found.example}")
    return Problem(*graph), found


@PURE
@given(graphs())
def test_removing_the_cut_leaves_no_chain(graph):
    problem, found = solved(graph)
    assert not problem.connected(frozenset(found.cut))
    assert bool(found.cut) == problem.connected()
    assert set(found.cut) <= problem.edges()
    assert list(found.cut) == sorted(set(found.cut))


@PURE
@given(graphs())
def test_no_smaller_cut_exists(graph):
    problem, found = solved(graph)
    candidates = sorted(problem.edges())
    for smaller in itertools.combinations(candidates, max(len(found.cut) - 1, 0)):
        if len(found.cut) == 0:
            break
        assert problem.connected(frozenset(smaller)), (
            f"{smaller} is a smaller cut than {found.cut}"
        )


@PURE
@given(graphs())
def test_the_cut_is_the_minimum_cut_nearest_the_targets(graph):
    """Of all minimum cuts, the reported one leaves the fewest modules able to reach a target:
    any other leaves those too (the least targets' side, which every maximum flow finds, in
    whichever direction it was sent)."""
    problem, found = solved(graph)
    near = problem.reaching_targets(frozenset(found.cut))
    for other in itertools.combinations(sorted(problem.edges()), len(found.cut)):
        if not problem.connected(frozenset(other)):
            assert near <= problem.reaching_targets(frozenset(other)), (
                f"{other} is a minimum cut nearer the targets than {found.cut}"
            )


@PURE
@given(graphs())
def test_a_direct_import_is_always_in_the_cut(graph):
    problem, found = solved(graph)
    direct = {
        (s, t) for s in problem.sources for t in problem.imports.get(s, ()) if t in problem.targets
    }
    assert direct <= set(found.cut)


@PURE
@given(graphs())
def test_every_example_is_a_real_chain_through_its_import(graph):
    problem, found = solved(graph)
    assert set(found.example) == set(found.cut) == set(found.through)
    for edge, example in found.example.items():
        note(f"{edge}: {example}")
        assert problem.is_chain(example), example
        assert edge in set(zip(example, example[1:])), (edge, example)
        simple = problem.simple_chains_through(edge)
        if simple and len(set(example)) == len(example):
            assert len(example) == min(len(c) for c in simple), (example, min(simple, key=len))


@PURE
@given(graphs())
def test_canonical_chains_are_real_one_per_leading_import_and_all_cross_the_cut(graph):
    problem, found = solved(graph)
    cut = set(found.cut)
    assert found.chains == len(found.listed)
    for chain in found.listed:
        assert problem.is_chain(chain), chain
        assert len(set(chain)) == len(chain), chain
        assert cut & set(zip(chain, chain[1:])), (
            f"{chain} crosses no import of the cut {found.cut}"
        )
    assert sorted(chain[:2] for chain in found.listed) == sorted(
        problem.first_imports_that_lead_to_a_target()
    )
    assert list(found.listed) == sorted(found.listed, key=lambda c: (len(c), c))
    for edge in found.cut:
        assert found.through[edge] == sum(1 for c in found.listed if edge in set(zip(c, c[1:])))


def random_graph(count: int, seed: int):
    """(imports, sources, targets, excluded) on `count` modules, about three imports each."""
    rng = random.Random(seed)
    modules = [f"n{i}" for i in range(count)]
    imports = {
        m: frozenset(n for n in modules if n != m and rng.random() < 3 / count) for m in modules
    }
    sources = set(rng.sample(modules, rng.randint(1, 4)))
    targets = set(rng.sample(modules, rng.randint(1, 4)))
    excluded = set(rng.sample(modules, rng.randint(0, 2)))
    return imports, sources, targets, excluded


@PURE
@given(
    st.one_of(graphs(), st.builds(random_graph, st.integers(8, 40), st.integers(0, 2**32 - 1))),
    st.randoms(use_true_random=False),
)
def test_the_result_does_not_depend_on_the_order_the_input_was_built_in(graph, shuffler):
    imports, sources, targets, excluded = graph
    reference = chains_and_cut(imports, sources, targets, excluded)

    def shuffled(items):
        items = list(items)
        shuffler.shuffle(items)
        return items

    rebuilt = {m: set(shuffled(imports[m])) for m in shuffled(imports)}
    again = chains_and_cut(
        rebuilt, set(shuffled(sources)), set(shuffled(targets)), set(shuffled(excluded))
    )
    assert repr(again) == repr(reference)


_PRINT_RESULTS = textwrap.dedent(
    """
    import json, random, sys
    from layering.domain.chains import chains_and_cut

    modules = [f"pkg.m{i}" for i in range(12)]
    for seed in range(int(sys.argv[1])):
        rng = random.Random(seed)
        imports = {m: {n for n in modules if n != m and rng.random() < 0.25} for m in modules}
        sources = set(rng.sample(modules, 3))
        targets = set(rng.sample(modules, 3))
        excluded = set(rng.sample(modules, 1))
        found = chains_and_cut(imports, sources, targets, excluded, listed=10**9)
        print(json.dumps([found.chains, found.listed, found.cut, list(found.example.items()), list(found.through.items())]))
    """
)


def test_the_result_is_the_same_under_any_hash_seed():
    outputs = []
    for seed in ("0", "1", "123"):
        run = subprocess.run(
            [sys.executable, "-c", _PRINT_RESULTS, "300"],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
            timeout=120,
        )
        assert run.returncode == 0, run.stderr
        outputs.append(run.stdout)
    assert outputs[0].count("\n") == 300
    assert any(json.loads(line)[2] for line in outputs[0].splitlines()), (
        "no graph had a cut: the check proves nothing"
    )
    assert outputs[1] == outputs[0]
    assert outputs[2] == outputs[0]


@PURE
@given(st.integers(8, 40), st.integers(0, 2**32 - 1))
def test_on_larger_graphs_the_cut_has_the_size_of_a_maximum_flow(count, seed):
    """Beyond brute force: the cut disconnects, and its size equals an independent maximum flow."""
    imports, sources, targets, excluded = random_graph(count, seed)
    problem = Problem(imports, sources, targets, excluded)
    found = chains_and_cut(imports, sources, targets, excluded)
    assert not problem.connected(frozenset(found.cut))
    assert len(found.cut) == problem.maximum_flow()


def lopsided_graph(count: int, seed: int):
    """(imports, sources, targets, excluded) on `count` modules, one source and twenty-one
    targets or more: what is walked from the sources first (as `homeassistant.auth`, whose chains
    end in any of the 8,600 modules of `homeassistant.components`)."""
    rng = random.Random(seed)
    modules = [f"n{i}" for i in range(count)]
    imports = {
        m: frozenset(n for n in modules if n != m and rng.random() < 3 / count) for m in modules
    }
    source = rng.choice(modules)
    others = [m for m in modules if m != source]
    targets = set(rng.sample(others, rng.randint(21, len(others) - 1)))
    excluded = set(rng.sample(sorted(set(others) - targets), rng.randint(0, 1)))
    return imports, {source}, targets, excluded


@PURE
@given(st.integers(24, 40), st.integers(0, 2**32 - 1))
def test_where_the_targets_far_outnumber_the_sources_the_cut_and_chains_still_hold(count, seed):
    graph = lopsided_graph(count, seed)
    problem, found = solved(graph)
    assert not problem.connected(frozenset(found.cut))
    assert len(found.cut) == problem.maximum_flow()
    assert sorted(chain[:2] for chain in found.listed) == sorted(
        problem.first_imports_that_lead_to_a_target()
    )
    assert all(problem.is_chain(chain) for chain in found.listed)
    for edge, example in found.example.items():
        assert problem.is_chain(example) and edge in set(zip(example, example[1:])), example


@PURE
@given(graphs(), st.data())
def test_uncuttable_imports_are_cut_only_where_no_other_cut_exists(graph, data):
    """A module the contract does not check (`unchecked`) is a hop, never the importer of an
    import of the cut, unless no cut avoids its imports; the cut is the smallest that does."""
    imports, sources, targets, excluded = graph
    uncuttable = (
        frozenset(data.draw(st.lists(st.sampled_from(sorted(imports)), max_size=3, unique=True)))
        - sources
    )
    found = chains_and_cut(imports, sources, targets, excluded, uncuttable=uncuttable)
    plain = chains_and_cut(imports, sources, targets, excluded)
    problem = Problem(*graph)
    assert not problem.connected(frozenset(found.cut))
    assert (found.chains, found.listed) == (plain.chains, plain.listed)
    cuttable = sorted(e for e in problem.edges() if e[0] not in uncuttable)
    avoidable = not problem.connected(frozenset(cuttable))
    if avoidable:
        assert all(importer not in uncuttable for importer, _ in found.cut), found.cut
        for smaller in itertools.combinations(cuttable, max(len(found.cut) - 1, 0)):
            if not found.cut:
                break
            assert problem.connected(frozenset(smaller)), f"{smaller} is smaller than {found.cut}"
