"""The targets of RESULTS.md: each issue's goals, met or not met, with the measured ratios."""

from __future__ import annotations

from collections.abc import Callable

from .corpora import CUT_MINIMUM, STANDARD_WORKLOADS
from .guard import guard_holds, shown_slower
from .tables import all_met, at_most, edit_series, first, met, state, yes_no
from .timing import fmt_ratio, ratio
from .workloads import WorkloadResult

# Issue 14's goals: layering's median / lint-imports' median (a, b, c cold; d1, d2, e cached).
SPEED_GOALS = {"a": 0.10, "b": 0.70, "c": 0.90, "d1": 0.25, "d2": 0.50, "e": 0.35}
SPEED_GOAL_EXCEPTIONS = {("a", "django"): 0.25}  # interpreter start-up is the floor there
SPEED_GOAL_MODES = {
    "a": "cold",
    "b": "cold",
    "c": "cold",
    "d1": "after a body edit, both warm before",
    "d2": "after an added import, both warm before",
    "e": "fresh checkout, caches restored",
}

CUT_REPORT_MAX_LINES = 300


def target_line(label: str, ok: bool | None, detail: str) -> str:
    return f"- {label}: {met(ok)} — {detail}"


def standard_med(results: dict, corpus: str, wl: str, mode: str, tool: str) -> float | None:
    wr = results[corpus]["standard"].get(wl)
    return wr.series[mode][tool].med if wr else None


def speed_targets(results: dict) -> list[str]:
    """Issue 14's table: layering / lint-imports on every corpus (a, b, c cold; d1, d2, e
    cached)."""
    L = ["### Issue 14: speed where users wait (layering / lint-imports, every corpus)\n"]
    for wl, goal in SPEED_GOALS.items():
        parts, oks = [], []
        for corpus, res in results.items():
            if wl in STANDARD_WORKLOADS:
                r = ratio(
                    standard_med(results, corpus, wl, "cold", "layering"),
                    standard_med(results, corpus, wl, "cold", "import-linter"),
                )
            elif wl in edit_series(res):
                cached = edit_series(res)[wl]["cache"]
                r = ratio(cached["layering"].med, cached["import-linter"].med)
            else:
                r = None
            limit = SPEED_GOAL_EXCEPTIONS.get((wl, corpus), goal)
            parts.append(
                f"{corpus} {fmt_ratio(r)}" + (f" (goal {limit:.2f}x)" if limit != goal else "")
            )
            oks.append(at_most(r, limit))
        L.append(
            target_line(
                f"{wl} ({SPEED_GOAL_MODES[wl]}) <= {goal:.2f}x", all_met(oks), ", ".join(parts)
            )
        )
    return L + [""]


def cache_targets(results: dict) -> list[str]:
    L = ["### Issue 16: the cache never costs more than it saves\n"]
    parts, oks = [], []
    for corpus, res in results.items():
        for wl, wr in res["standard"].items():
            oks.append(guard_holds(wr))
            parts.append(f"{corpus} {wl} {state(oks[-1])}")
    L.append(
        target_line(
            "guard: default from empty <= `--no-cache` + cache-write time, every workload",
            all_met(oks),
            ", ".join(parts) or "n/a",
        )
    )
    slower, within_noise = [], []
    oks = []
    for corpus, res in results.items():
        # the default mode from an empty cache writes the cache: the guard above is its rule
        cells = [
            (f"{corpus} {wl} warm", wr.series["warm"]["layering"], wr.series["cold"]["layering"])
            for wl, wr in res["standard"].items()
        ]
        cells += [
            (f"{corpus} {wl}", series["cache"]["layering"], series["no-cache"]["layering"])
            for wl, series in edit_series(res).items()
        ]
        for where, cached, uncached in cells:
            shown = shown_slower(cached, uncached)
            oks.append(None if shown is None else not shown)
            r = ratio(cached.med, uncached.med)
            if oks[-1] is not True:
                slower.append(f"{where} {fmt_ratio(r)}")
            elif r is not None and r > 1.0:
                within_noise.append(f"{where} {fmt_ratio(r)}")
    detail = (
        ("slower or unmeasured: " + ", ".join(slower))
        if slower
        else f"{len(oks)} cells, none shown slower"
    )
    if within_noise:
        detail += "; over 1.00x within noise (too few rounds slower to show it): " + ", ".join(
            within_noise
        )
    L.append(
        target_line(
            "no workload slower with a cache to use than with `--no-cache` (warm, d1, d2, e)",
            all_met(oks),
            detail,
        )
    )
    r = (
        ratio(
            standard_med(results, "transformers", "cut", "default", "layering"),
            standard_med(results, "transformers", "cut", "cold", "import-linter"),
        )
        if "transformers" in results
        else None
    )
    L.append(
        target_line(
            "transformers cut, default mode from an empty cache <= lint-imports (cold)",
            at_most(r, 1.0),
            fmt_ratio(r),
        )
    )
    return L + [""]


def cut_targets(results: dict) -> list[str]:
    L = ["### Issue 10: reports that scale\n"]
    cuts = {
        corpus: res["standard"]["cut"]
        for corpus, res in results.items()
        if "cut" in res["standard"]
    }
    if not cuts:
        return L + ["(cut workload not run)", ""]

    def each(
        check: Callable[[str, WorkloadResult], tuple[bool | None, str]],
    ) -> tuple[bool | None, str]:
        found = [check(corpus, wr) for corpus, wr in cuts.items()]
        return all_met([ok for ok, _ in found]), ", ".join(
            f"{corpus} {text}" for corpus, (_, text) in zip(cuts, found)
        )

    def lines(corpus, wr):
        n = wr.series["default"]["layering"].report_lines
        return (at_most(n[0], CUT_REPORT_MAX_LINES) if n else None), first(n)

    def size(corpus, wr):
        got = wr.cut.first_group_cut
        return (
            None if got is None else got == CUT_MINIMUM[corpus]
        ), f"{got} (minimum {CUT_MINIMUM[corpus]})"

    def removal(corpus, wr):
        return wr.cut.kept_after_removal, yes_no(wr.cut.kept_after_removal)

    def faster(mode):
        def check(corpus, wr):
            r = ratio(wr.series[mode]["layering"].med, wr.series["cold"]["import-linter"].med)
            return at_most(r, 1.0), fmt_ratio(r)

        return check

    L.append(
        target_line(
            f"text report at default settings <= {CUT_REPORT_MAX_LINES} lines", *each(lines)
        )
    )
    L.append(target_line("cut size equals the minimum", *each(size)))
    L.append(target_line("removing the cut keeps the contract", *each(removal)))
    L.append(
        target_line(
            "layering default from an empty cache <= lint-imports (cold)", *each(faster("default"))
        )
    )
    L.append(target_line("layering cold <= lint-imports cold", *each(faster("cold"))))
    return L + [""]


def earlier_targets(results: dict, startup, probes) -> list[str]:
    """The targets this benchmark was first written for."""
    L = ["### Earlier targets\n"]

    def check_all(wl, mode, tool, limit):
        parts, oks = [], []
        for corpus in results:
            r = ratio(
                standard_med(results, corpus, wl, mode, "layering"),
                standard_med(results, corpus, wl, mode, tool),
            )
            parts.append(f"{corpus} {fmt_ratio(r)}")
            oks.append(at_most(r, limit))
        return all_met(oks), ", ".join(parts)

    L.append(
        target_line(
            "(a) <= 0.10x import-linter cold, every corpus",
            *check_all("a", "cold", "import-linter", 0.10),
        )
    )
    L.append(
        target_line(
            "(a) <= 0.25x tach (layering cold), every corpus",
            *check_all("a", "cold", "tach", 0.25),
        )
    )
    L.append(
        target_line(
            "(b) <= 0.70x import-linter cold, every corpus",
            *check_all("b", "cold", "import-linter", 0.70),
        )
    )
    L.append(
        target_line(
            "(c) <= 0.60x import-linter cold, every corpus",
            *check_all("c", "cold", "import-linter", 0.60),
        )
    )
    r = (
        ratio(
            standard_med(results, "homeassistant", "c", "warm", "layering"),
            standard_med(results, "homeassistant", "c", "warm", "import-linter"),
        )
        if "homeassistant" in results
        else None
    )
    L.append(
        target_line(
            "(c) homeassistant warm <= 0.60x import-linter warm", at_most(r, 0.60), fmt_ratio(r)
        )
    )
    r = startup and ratio(startup["layering"].med, startup["import-linter"].med)
    L.append(
        target_line(
            "start-up <= 0.35x import-linter",
            at_most(r, 0.35),
            fmt_ratio(r) if startup else "skipped",
        )
    )
    r = probes and ratio(probes["layering"].med, probes["naive"].med)
    L.append(
        target_line(
            "probes <= 0.35x naive", at_most(r, 0.35), fmt_ratio(r) if probes else "skipped"
        )
    )
    mem = results.get("homeassistant", {}).get("memory")
    if mem is None:
        L.append(
            target_line("peak memory <= import-linter on homeassistant (c)", None, "not measured")
        )
    else:
        parts, oks = [], []
        for m in ("cold", "warm"):
            lay, il = mem[m].get("layering"), mem[m].get("import-linter")
            oks.append(None if lay is None or il is None else lay <= il)
            parts.append(
                f"{m}: not measured"
                if oks[-1] is None
                else f"{m}: layering {lay / 1024:.0f} MiB vs import-linter {il / 1024:.0f} MiB"
            )
        L.append(
            target_line(
                "peak memory <= import-linter on homeassistant (c), cold and warm",
                all_met(oks),
                "; ".join(parts),
            )
        )
    return L + [""]
