"""Known chains excuse the pairs of modules a contract's chains join today, never tomorrow's.

`chain_ends` against brute force (a chain's interior avoids the sources, the targets and the
excluded modules, as grimp's chains do), and the property a baseline promises, on the real
CLI: after `layering baseline`, one more import breaks the contract exactly when it joins a
pair of modules no chain joined before, even when its chain runs through an excused import.
"""

from __future__ import annotations

import os
from collections import deque

import layering_process
from hypothesis import given, note, settings
from hypothesis import strategies as st
from test_chains_and_cut import PURE, graphs

from layering.domain.chains import chain_ends, chains_and_cut


def brute_ends(imports, sources, targets, excluded) -> dict[str, frozenset[str]]:
    """For each source, the targets a walk through open modules reaches (by definition)."""
    sources = frozenset(sources) - excluded
    targets = frozenset(targets) - sources - excluded
    closed = sources | targets | excluded
    found = {}
    for source in sources:
        seen, queue, ends = {source}, deque([source]), set()
        while queue:
            module = queue.popleft()
            for imported in imports.get(module, ()):
                if imported in targets:
                    ends.add(imported)
                elif imported not in closed and imported not in seen:
                    seen.add(imported)
                    queue.append(imported)
        if ends:
            found[source] = frozenset(ends)
    return found


@PURE
@given(graphs())
def test_chain_ends_are_the_pairs_a_chain_joins(graph):
    imports, sources, targets, excluded = graph
    ends = chain_ends(imports, sources, targets, excluded)
    assert ends == brute_ends(imports, sources, targets, excluded)
    assert bool(ends) == bool(chains_and_cut(imports, sources, targets, excluded).cut)


MODULES = [f"m{i}" for i in range(6)]
SOURCES = ["app.m0", "app.m1"]
FORBIDDEN = ["app.m4", "app.m5"]
CONTRACTS = f"""\
root_packages = ["app"]
cache_dir = false

[[contracts]]
id = "low-no-high"
name = "m0 and m1 do not reach m4 and m5"
type = "forbidden"
source_modules = {SOURCES}
forbidden_modules = {FORBIDDEN}
""".replace("'", '"')


def layering(root, *args):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return layering_process.run(args, cwd=root, env=env, timeout=120)


def write_package(root, edges) -> None:
    (root / "app").mkdir(exist_ok=True)
    (root / "app" / "__init__.py").write_text("")
    for module in MODULES:
        lines = [f"import app.{b}\n" for a, b in sorted(edges) if a == module]
        (root / "app" / f"{module}.py").write_text("".join(lines))


def pairs_of(edges) -> set[tuple[str, str]]:
    imports: dict[str, set[str]] = {}
    for a, b in edges:
        imports.setdefault(f"app.{a}", set()).add(f"app.{b}")
    ends = brute_ends(imports, frozenset(SOURCES), frozenset(FORBIDDEN), frozenset())
    return {(s, t) for s, targets in ends.items() for t in targets}


EDGES = st.lists(
    st.sampled_from([(a, b) for a in MODULES for b in MODULES if a != b]), max_size=8, unique=True
)


@settings(max_examples=max(8, settings.default.max_examples // 4))
@given(edges=EDGES, new=st.sampled_from([(a, b) for a in MODULES for b in MODULES if a != b]))
def test_after_a_baseline_an_import_breaks_the_contract_exactly_when_it_joins_a_new_pair(
    tmp_path_factory, edges, new
):
    root = tmp_path_factory.mktemp("known")
    write_package(root, edges)
    (root / "contracts.toml").write_text(CONTRACTS)
    baseline = layering(root, "baseline")
    note(f"baseline ({baseline.returncode}):\n{baseline.stdout}{baseline.stderr}")
    assert baseline.returncode == 0, baseline.stdout + baseline.stderr
    assert layering(root, "check").returncode == 0
    after = set(edges) | {new}
    write_package(root, after)
    check = layering(root, "check")
    note(f"check ({check.returncode}):\n{check.stdout}{check.stderr}")
    joined = pairs_of(after) - pairs_of(edges)
    assert check.returncode == (1 if joined else 0), (joined, check.stdout + check.stderr)
    for start, end in sorted(joined):
        assert f"{start}" in check.stdout and f"{end}" in check.stdout, check.stdout
