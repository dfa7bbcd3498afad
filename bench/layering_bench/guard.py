"""Issue 16's guard: the default mode from an empty cache may be slower than `--no-cache` by at
most the time writing the cache takes, and is called slower only where the paired rounds show
it (a one-sided sign test). The allowance is measured in `profiles`, the guard's own rounds are
timed in `workloads.time_guard`."""

from __future__ import annotations

import math

from .timing import ToolSeries
from .workloads import WorkloadResult


def paired_differences(a: ToolSeries, b: ToolSeries) -> list[float] | None:
    """`a`'s time less `b`'s, round by round (both run in each interleaved round: a slow spell
    of the machine slows both), sorted; None unless both have a time in every round."""
    if a.med is None or b.med is None or len(a.times) != len(b.times):
        return None
    return sorted(x - y for x, y in zip(a.times, b.times))


# The guard calls the default mode slower only where the rounds show it: more of them over the
# allowance than a fair coin would give in 1 run of 20 (a one-sided sign test). With the median
# alone, a cell whose two modes run the same code fails by chance, as often as not.
GUARD_SIGNIFICANCE = 0.05


def rounds_over(
    a: ToolSeries, b: ToolSeries, allowance: float | None = 0.0
) -> tuple[int, int] | None:
    """In how many of their rounds `a` took longer than `b` plus `allowance`, and of how many
    rounds; None when a time or the allowance is missing."""
    differences = paired_differences(a, b)
    if differences is None or allowance is None:
        return None
    return sum(d > allowance for d in differences), len(differences)


def sign_test(over: int, rounds: int) -> float:
    """The chance that `over` or more of `rounds` fair coin flips come up heads: how often so
    many rounds would be over if the one run were not slower than the other."""
    return sum(math.comb(rounds, k) for k in range(over, rounds + 1)) / 2**rounds


def shown_slower(a: ToolSeries, b: ToolSeries, allowance: float | None = 0.0) -> bool | None:
    """Whether the rounds show `a` slower than `b` plus `allowance`: over it in so many of their
    rounds that a fair coin would give as many heads in fewer than `GUARD_SIGNIFICANCE` of runs."""
    counted = rounds_over(a, b, allowance)
    return None if counted is None else sign_test(*counted) < GUARD_SIGNIFICANCE


def guard_holds(wr: WorkloadResult) -> bool | None:
    """Issue 16: the default mode is slower than `--no-cache` by at most the cache-write time;
    it fails only where the rounds show it (`GUARD_SIGNIFICANCE`)."""
    shown = shown_slower(wr.guard["default"], wr.guard["cold"], wr.cache_writes.seconds)
    return None if shown is None else not shown
