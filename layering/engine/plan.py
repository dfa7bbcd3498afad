"""A run's plan: what it decided once from the contracts it checks, before reading the package
for them. The evidence is read by it and never told otherwise afterwards."""

from __future__ import annotations

from typing import NamedTuple


class RunPlan(NamedTuple):
    """How the run reads the package: decided from the selected contracts and the options."""

    keeps_cache: bool = True
    """Whether the run reads and writes the cache (off with `--no-cache`, `cache_dir = false`,
    or a cache directory that cannot be written)."""
    listed_chains: int = 0
    """How many chains a report lists beyond one example per import of a cut: each listed
    chain costs the reading of its files, so the run decides it, not the renderer."""
    graph_reach: tuple[frozenset[str], frozenset[str]] | None = None
    """(starts, also) when every graph contract of the run is about what some modules reach:
    only those modules (and `also`, scanned alone) are scanned; None: the whole package."""
    include_external_packages: bool = False
    """Whether the graph holds external packages (squashed to their top level)."""
    records_chain_ends: bool = False
    """Whether each group of chains records the pairs of modules its chains join (what
    `layering baseline` writes as known chains): a pass over the group's imports, which a run
    that writes no baseline need not pay for."""
    draws_graph: bool = False
    """Whether the graph is drawn once the contracts are decided (`layering graph`): it is then
    read whole, with external packages, and each contract is handed a copy of it, so that one
    build serves the contracts and the drawing."""


DEFAULT_PLAN = RunPlan()
"""A run that keeps its cache and reads the whole package: until a run says more."""
