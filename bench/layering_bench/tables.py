"""The sections of RESULTS.md: each workload's tables, the guard, the cut, the edits, scaling,
memory, start-up, probes, the verdict check and the configurations."""

from __future__ import annotations

from . import synthetic
from .corpora import CORPORA, CUT_MINIMUM
from .edits import EDIT_MODES, SCALE_FULL_ROUNDS_UP_TO, SCALE_ONE_ROUND_OVER, EditResults
from .guard import GUARD_SIGNIFICANCE, guard_holds, paired_differences, rounds_over
from .importlinter_file import CONFIG_FILE, F_MODES
from .profiles import PHASES, CacheWriteProfile
from .projects import TOOLS
from .timing import Series, ToolSeries, fmt_ratio, fmt_s, median, ratio
from .workloads import GUARD_ROUNDS, MODES, PROBE_MODULES, WorkloadResult


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines + [""]


def state(ok: bool | None) -> str:
    return "met" if ok else ("not met" if ok is False else "not measured")


def met(ok: bool | None) -> str:
    return f"**{state(ok)}**"


def all_met(oks: list[bool | None]) -> bool | None:
    """False if any is False, else None if any is unknown (or there are none), else True."""
    if False in oks:
        return False
    return None if (None in oks or not oks) else True


def at_most(value: float | None, limit: float) -> bool | None:
    return None if value is None else value <= limit


def standard_rows(workload: str, series: Series) -> list[list[str]]:
    tach = series["cold"]["tach"]
    il_of = {
        "cold": series["cold"]["import-linter"],
        "default": series["cold"]["import-linter"],
        "warm": series["warm"]["import-linter"],
    }
    rows = []
    for mode in MODES:
        lay, il = series[mode]["layering"], il_of[mode]
        il_cell = il.cell + (" (cold)" if mode == "default" else "")
        tach_cell = tach.cell + (" ≈" if workload == "c" and tach.med is not None else "")
        rows.append(
            [
                workload,
                mode,
                lay.cell,
                il_cell,
                tach_cell,
                fmt_ratio(ratio(lay.med, il.med)),
                fmt_ratio(ratio(lay.med, tach.med)),
                f"{lay.verdict} / {il.verdict} / {tach.verdict}",
            ]
        )
    return rows


def standard_section(results: dict) -> list[str]:
    L = ["## Timings: workloads a, b, c and cut\n"]
    for corpus, res in results.items():
        if not res["standard"]:
            continue
        L.append(f"### {corpus}\n")
        rows = [row for wl, wr in res["standard"].items() for row in standard_rows(wl, wr.series)]
        L += table(
            [
                "workload",
                "mode",
                "layering",
                "import-linter",
                "tach",
                "layering/import-linter",
                "layering/tach",
                "verdict layering / import-linter / tach",
            ],
            rows,
        )
        L += failures(
            [
                (wl, s)
                for wl, wr in res["standard"].items()
                for by_tool in wr.series.values()
                for s in by_tool.values()
            ]
            + [(wl, s) for wl, wr in res["standard"].items() for s in wr.guard.values()]
            + [(wl, wr.untimed_runs) for wl, wr in res["standard"].items()]
        )
    L.append(
        "tach notes: (b) and (cut) are n/a — tach checks direct imports only and cannot express a "
        "contract "
        "on indirect chains; (c) ≈ is an approximation (tach `layers` + `cannot_depend_on`, "
        "direct imports "
        "only), so its verdict may legitimately differ from import-linter's.\n"
    )
    return L


def failures(where_series: list[tuple[str, ToolSeries]]) -> list[str]:
    errs: dict[str, list[str]] = {}
    for where, s in where_series:
        if s.error:
            errs.setdefault(s.error, []).append(f"{where} {s.mode}")
    if not errs:
        return []
    return ["Failures:\n"] + [f"- {', '.join(where)}: {msg}" for msg, where in errs.items()] + [""]


def guard_cell(wr: WorkloadResult) -> str:
    """The guard's verdict; "within noise" where the median of the differences is over the
    allowance but too few rounds are to show it."""
    counted = rounds_over(wr.guard["default"], wr.guard["cold"], wr.cache_writes.seconds)
    verdict = met(guard_holds(wr))
    if counted is None:
        return verdict
    over, rounds = counted
    if over * 2 > rounds and guard_holds(wr):
        verdict += " (within noise)"
    return f"{verdict}: {over} of {rounds} rounds over"


def fmt_differences(differences: list[float] | None) -> str:
    """The median of the rounds' differences, with the middle half of them."""
    if not differences:
        return "n/a"
    quarter = len(differences) // 4
    return (
        f"{fmt_signed(median(differences))} ({fmt_signed(differences[quarter])} to "
        f"{fmt_signed(differences[-1 - quarter])})"
    )


def cache_guard_section(results: dict) -> list[str]:
    L = [
        "## Issue 16: the cache's guard (default mode from an empty cache vs `--no-cache`)\n",
        "The default mode may be slower than `--no-cache` by at most the time it takes to write "
        "the cache. "
        "That time is the cumulative time of the cache-writing functions (hashing the files, "
        "signing what grimp "
        "read, computing what only the cache holds: what each contract reaches, the verdicts as "
        "stored; "
        "encoding and writing it all) in one untimed run from an empty cache of `python -m "
        "layering check` "
        "under cProfile, out of the whole profiled run. In a user's run most of that work is done "
        "by a builder "
        "beside the run, which the run's profile cannot see, so the profiled run builds its cache "
        "in its own "
        "process (the builder's fallback). cProfile slows Python code down, so the allowance is "
        "generous "
        "rather than tight. The two modes are timed in "
        f"{GUARD_ROUNDS} rounds of their own, one after the other (which first alternates); the "
        "difference is "
        "the median of the rounds' differences (default less `--no-cache`), with the middle half "
        "of them in "
        "brackets: the machine's noise. The guard fails where the rounds show the default mode "
        "slower than "
        "that: so many rounds over the allowance that a fair coin would give as many heads in "
        "fewer than "
        f'{GUARD_SIGNIFICANCE:.0%} of runs (a one-sided sign test; 12 or more of 15). "Within '
        'noise" marks a '
        "cell whose median is over the allowance in fewer rounds than that.\n",
    ]
    rows = []
    functions: set[str] = set()
    notes: set[str] = set()
    for corpus, res in results.items():
        for wl, wr in res["standard"].items():
            cold, default = wr.guard["cold"].med, wr.guard["default"].med
            writes = wr.cache_writes
            differences = paired_differences(wr.guard["default"], wr.guard["cold"])
            rows.append(
                [
                    corpus,
                    wl,
                    fmt_s(cold),
                    fmt_s(default),
                    fmt_ratio(ratio(default, cold)),
                    fmt_differences(differences),
                    cache_write_cell(writes),
                    guard_cell(wr),
                ]
            )
            functions.update(writes.functions)
            if writes.note:
                notes.add(f"{corpus} {wl}: {writes.note}")
    if not rows:
        return L[:1] + ["(skipped)\n"]
    L += table(
        [
            "corpus",
            "workload",
            "layering --no-cache",
            "default, from empty",
            "default/--no-cache",
            "difference (rounds)",
            "cache writes (profiled run)",
            "guard",
        ],
        rows,
    )
    L.append(
        "Cache-writing functions found in the profiles: "
        + (", ".join(f"`{f}`" for f in sorted(functions)) or "none")
        + ".\n"
    )
    L += [f"- {note}" for note in sorted(notes)] + ([""] if notes else [])
    return L


def cache_write_cell(writes: CacheWriteProfile) -> str:
    if writes.seconds is None:
        return "n/a"
    written = "" if writes.cache_written else " (no cache written)"
    return f"{fmt_s(writes.seconds)} of {fmt_s(writes.profiled_total)}{written}"


def fmt_signed(x: float | None) -> str:
    if x is None:
        return "n/a"
    return ("+" if x >= 0 else "-") + fmt_s(abs(x))


def cut_section(results: dict) -> list[str]:
    L = ["## Issue 10: reports that name the imports to cut\n"]
    shape, timing = [], []
    for corpus, res in results.items():
        wr = res["standard"].get("cut")
        if wr is None:
            continue
        w = CORPORA[corpus]["cut"]
        lay, il = wr.series["default"]["layering"], wr.series["cold"]["import-linter"]
        cut = wr.cut
        shape.append(
            [
                corpus,
                f"`{w['source']}` -> `{w['forbidden']}`",
                str(cut.chains),
                f"{cut.first_group_cut} / {cut.cut_entries}",
                str(CUT_MINIMUM[corpus]),
                f"{first(lay.report_lines)} / {first(il.report_lines)}",
                f"{lay.verdict} / {il.verdict}",
                f"{yes_no(cut.kept_after_removal)} ({cut.statements_removed} statements)",
            ]
        )
        s = wr.series
        timing.append(
            [
                corpus,
                s["cold"]["layering"].cell,
                s["default"]["layering"].cell,
                s["warm"]["layering"].cell,
                s["cold"]["import-linter"].cell,
                s["warm"]["import-linter"].cell,
                fmt_ratio(ratio(s["cold"]["layering"].med, s["cold"]["import-linter"].med)),
                fmt_ratio(ratio(s["default"]["layering"].med, s["cold"]["import-linter"].med)),
                fmt_ratio(ratio(s["warm"]["layering"].med, s["warm"]["import-linter"].med)),
            ]
        )
    if not shape:
        return L + ["(skipped)\n"]
    L.append(
        "One `forbidden` contract with chains per corpus. Report lines: the text report at "
        "default "
        "settings (layering in default mode, lint-imports). Chains and cut from layering's "
        "`--format json` (`chain_groups[0].cut` / entries of `cut`). Then each import statement "
        "of the "
        "`cut` is replaced by `pass` in a copy of the package and `layering check` runs on the "
        "copy.\n"
    )
    L += table(
        [
            "corpus",
            "contract",
            "chains",
            "cut (first group / entries)",
            "minimum (issue)",
            "report lines layering / lint-imports",
            "verdict layering / lint-imports",
            "removing the cut keeps the contract",
        ],
        shape,
    )
    L += table(
        [
            "corpus",
            "layering cold",
            "layering default, from empty",
            "layering warm",
            "lint-imports cold",
            "lint-imports warm",
            "cold / cold",
            "default / lint-imports cold",
            "warm / warm",
        ],
        timing,
    )
    for corpus, res in results.items():
        problems = res["standard"]["cut"].cut.problems if "cut" in res["standard"] else []
        if problems:
            L.append(f"{corpus}: problems while checking the cut:\n")
            L += [f"- {p}" for p in problems[:10]]
            L += [f"- ... and {len(problems) - 10} more" for _ in problems[10:11]]
            L.append("")
    return L


def first(values: list[int]) -> str:
    return str(values[0]) if values else "n/a"


def yes_no(value: bool | None) -> str:
    return "n/a" if value is None else ("yes" if value else "no")


def edit_row(name: str, series: Series) -> list[str]:
    cache, nocache = series["cache"], series["no-cache"]
    lay, il = cache["layering"], cache["import-linter"]
    return [
        name,
        lay.cell,
        il.cell,
        fmt_ratio(ratio(lay.med, il.med)),
        nocache["layering"].cell,
        nocache["import-linter"].cell,
        fmt_ratio(ratio(lay.med, nocache["layering"].med)),
        f"{lay.verdict} / {il.verdict}",
    ]


def edit_series(corpus_result: dict) -> dict[str, Series]:
    """The series of each edit workload run on a corpus."""
    return corpus_result["edits"].series if "edits" in corpus_result else {}


def all_series(edits: EditResults) -> list[tuple[str, ToolSeries]]:
    """(workload, series) of every run of the edit workloads, the warm-up's too."""
    return [("warm-up", s) for s in edits.warm_up.values()] + [
        (wl, s)
        for wl, by_mode in edits.series.items()
        for by_tool in by_mode.values()
        for s in by_tool.values()
    ]


EDIT_HEADER = [
    "workload",
    "layering",
    "lint-imports",
    "layering/lint-imports",
    "layering --no-cache",
    "lint-imports --no-cache",
    "layering cache/--no-cache",
    "verdict layering / lint-imports",
]


def edits_section(results: dict) -> list[str]:
    L = ["## Issue 14: workload c after an edit (d1, d2, e)\n"]
    shown = False
    for corpus, res in results.items():
        if "edits" not in res:
            continue
        shown = True
        target = res["edits"].target
        L.append(f"### {corpus}\n")
        L.append(f"Edited module: `{target.module}`; d2 adds `import {target.added_import}`.\n")
        L += table(EDIT_HEADER, [edit_row(wl, series) for wl, series in edit_series(res).items()])
        L += failures(all_series(res["edits"]))
        L += phase_table(res["edits"].phases)
    return L if shown else L + ["(skipped)\n"]


def phase_table(phases: dict[str, dict[str, float] | None]) -> list[str]:
    """Where layering's time goes in each edit workload: one more run of it under cProfile
    (which slows Python code, not grimp's Rust scanner), each part's cumulative time."""
    shown = {wl: parts for wl, parts in phases.items() if parts}
    if not shown:
        return []
    labels = ["profiled run"] + [
        label for label, _ in PHASES if any(parts.get(label) for parts in shown.values())
    ]
    rows = [
        [label] + [f"{shown[wl].get(label, 0) * 1000:.0f} ms" for wl in shown] for label in labels
    ]
    return [
        "Where layering's time goes (one more run of each workload under cProfile; parts overlap "
        "where one "
        "calls another, e.g. an import made while deciding):\n"
    ] + table(["part"] + list(shown), rows)


def scale_section(scale: dict | None) -> list[str]:
    L = ["## Issue 14: scaling (synthetic layered packages, layers + independence, both kept)\n"]
    if not scale:
        return L + ["(skipped)\n"]
    L.append(
        f"`{synthetic.PACKAGE}`: {synthetic.LAYERS} layers, subpackages of "
        f"{synthetic.PACKAGE_SIZE} modules, "
        f"each module importing {synthetic.IMPORTS_PER_MODULE} modules of lower layers and "
        "defining "
        f"{synthetic.FUNCTIONS_PER_MODULE} functions. cold = `--no-cache`; d1 = after a body "
        "edit, both tools "
        f"warm before (packages above {SCALE_FULL_ROUNDS_UP_TO:,} modules get a third of the "
        f"rounds, above {SCALE_ONE_ROUND_OVER:,} one round).\n"
    )
    rows = []
    for modules, res in scale.items():
        s = res.series["d1"]
        lay_cold, il_cold = s["no-cache"]["layering"], s["no-cache"]["import-linter"]
        lay_d1, il_d1 = s["cache"]["layering"], s["cache"]["import-linter"]
        rows.append(
            [
                f"{modules:,}",
                lay_cold.cell,
                il_cold.cell,
                fmt_ratio(ratio(lay_cold.med, il_cold.med)),
                lay_d1.cell,
                il_d1.cell,
                fmt_ratio(ratio(lay_d1.med, il_d1.med)),
                f"{lay_d1.verdict} / {il_d1.verdict}",
            ]
        )
    L += table(
        [
            "modules",
            "layering cold",
            "lint-imports cold",
            "cold ratio",
            "layering d1",
            "lint-imports d1",
            "d1 ratio",
            "verdict layering / lint-imports",
        ],
        rows,
    )
    L += growth_lines(scale)
    L += failures(
        [(f"{m:,} modules {wl}", s) for m, res in scale.items() for wl, s in all_series(res)]
    )
    return L


def growth_lines(scale: dict) -> list[str]:
    sizes = list(scale)
    if len(sizes) < 2:
        return []
    small, large = sizes[0], sizes[-1]
    parts = []
    for label, mode, tool in (
        ("layering cold", "no-cache", "layering"),
        ("lint-imports cold", "no-cache", "import-linter"),
        ("layering d1", "cache", "layering"),
        ("lint-imports d1", "cache", "import-linter"),
    ):
        times = [scale[m].series["d1"][mode][tool].med for m in (small, large)]
        parts.append(f"{label} {fmt_ratio(ratio(times[1], times[0]))}")
    return [
        f"Growth from {small:,} to {large:,} modules ({large // small}x the modules): "
        + ", ".join(parts)
        + ".\n"
    ]


def memory_section(results: dict) -> list[str]:
    memory = {corpus: res["memory"] for corpus, res in results.items() if "memory" in res}
    L = ["## Peak memory (max RSS, workload c)\n"]
    if not memory:
        return L + ["(skipped)\n"]
    L.append(
        "Separate untimed runs, max over the rounds; measured with "
        f"{next(iter(memory.values()))['method']}.\n"
    )
    rows = [
        [corpus, mode]
        + ["n/a" if mem[mode].get(t) is None else f"{mem[mode][t] / 1024:.0f} MiB" for t in TOOLS]
        for corpus, mem in memory.items()
        for mode in ("cold", "warm")
    ]
    return L + table(["corpus", "mode", *TOOLS], rows)


def startup_section(startup: dict | None) -> list[str]:
    L = ["## Start-up (`--version`)\n"]
    if not startup:
        return L + ["(skipped)\n"]
    lay, il, ta = startup["layering"], startup["import-linter"], startup["tach"]
    L += table(
        ["layering", "import-linter", "tach", "layering/import-linter"],
        [[lay.cell, il.cell, ta.cell, fmt_ratio(ratio(lay.med, il.med))]],
    )
    return L + ([lay.error, ""] if lay.error else [])


def probes_section(probes: dict | None) -> tuple[list[str], bool | None]:
    L = ["## Runtime probes (20 installed Django modules must not load django.db)\n"]
    if not probes:
        return L + ["(skipped)\n"], None
    lay, naive = probes["layering"], probes["naive"]
    nb = sorted(m for m, v in probes["naive_verdicts"].items() if v == "broken")
    L.append(
        "One `layering check` on a config with one probe contract over 20 modules, versus the "
        "naive "
        "way: 20 sequential `python -c \"import X, sys; ...'django.db' in sys.modules...\"` "
        "subprocesses. "
        "layering runs with `--no-cache` (probe results are not reused).\n"
    )
    L += table(
        ["layering", "naive (20 subprocesses)", "layering/naive", "verdict layering / naive"],
        [
            [
                lay.cell,
                naive.cell,
                fmt_ratio(ratio(lay.med, naive.med)),
                f"{lay.verdict} / {naive.verdict}",
            ]
        ],
    )
    L.append(
        f"Naive verdicts: {len(nb)} of {len(PROBE_MODULES)} modules load django.db: "
        f"{', '.join(nb)}."
    )
    if lay.error:
        return L + [f"\n{lay.error}", ""], None
    per = probes["layering_per_module"]
    if per and len(per) == len(PROBE_MODULES):
        diff = [m for m in PROBE_MODULES if per[m] != probes["naive_verdicts"].get(m)]
        same = not diff and lay.verdict == naive.verdict
        L.append(
            "Per-module verdicts "
            + ("identical." if not diff else f"DIFFER on: {', '.join(diff)}.")
        )
    else:
        same = lay.verdict == naive.verdict
        L.append(
            f"Per-module verdicts could not be read from layering's output (found {len(per)}); "
            "compared the contract verdict only: " + ("identical." if same else "DIFFERENT.")
        )
    return L + [""], same


def compared_pairs(results: dict, scale: dict | None) -> list[tuple[str, ToolSeries, ToolSeries]]:
    """Every (where, layering series, lint-imports series) whose verdicts must agree."""
    pairs = []
    for corpus, res in results.items():
        for wl, wr in res["standard"].items():
            for mode in MODES:
                il_mode = "warm" if mode == "warm" else "cold"
                pairs.append(
                    (
                        f"{corpus} {wl} {mode}",
                        wr.series[mode]["layering"],
                        wr.series[il_mode]["import-linter"],
                    )
                )
        for wl, series in edit_series(res).items():
            for mode in EDIT_MODES:
                pairs.append(
                    (
                        f"{corpus} {wl} {mode}",
                        series[mode]["layering"],
                        series[mode]["import-linter"],
                    )
                )
        for mode in F_MODES if "f" in res else ():
            s = res["f"].series[mode]
            pairs.append((f"{corpus} f {mode}", s["layering"], s["import-linter"]))
    for modules, res in (scale or {}).items():
        for mode in EDIT_MODES:
            s = res.series["d1"][mode]
            pairs.append((f"synthetic {modules:,} d1 {mode}", s["layering"], s["import-linter"]))
    return pairs


def verdict_section(
    results: dict, scale: dict | None, probes, probe_same: bool | None
) -> list[str]:
    L = ["## Verdict check (layering vs import-linter, every workload and mode)\n"]
    checked, diffs = 0, []
    for where, lay, il in compared_pairs(results, scale):
        if lay.error or il.error:
            diffs.append(f"{where}: not compared (a tool failed, see Failures)")
        else:
            checked += 1
            if lay.verdict != il.verdict:
                diffs.append(f"{where}: layering {lay.verdict}, import-linter {il.verdict}")
    real = [d for d in diffs if "not compared" not in d]
    if checked and not diffs:
        L.append(f"**verdicts identical** ({checked} cells compared).")
    elif real:
        L.append(f"**verdicts differ** in {len(real)} of {checked} compared cells:\n")
    else:
        L.append(
            f"No differences in {checked} compared cells, but some cells could not be compared:\n"
        )
    L += [f"- {d}" for d in diffs]
    if probes:
        said = "not compared" if probe_same is None else "DIFFERENT"
        L.append(f"\nProbes: {'identical' if probe_same else said}.")
    return L + [""]


def codes(names: list[str]) -> str:
    return ", ".join(f"`{name}`" for name in names)


def configurations_section(results: dict, scale: dict | None) -> list[str]:
    L = [
        "## Configurations\n",
        "The exact files are written into each project dir in the scratch directory as "
        "`bench_<w>.layering.toml`, `bench_<w>.importlinter.toml`, `bench_<w>.tach.toml`; "
        f"workload f's `{CONFIG_FILE}` into its copy, `<scratch>/config_file/<corpus>/`.\n",
    ]
    for corpus in results:
        c = CORPORA[corpus]
        cut = (
            f"; (cut) `{c['cut']['source']}` must not import `{c['cut']['forbidden']}` (indirect "
            "too)"
            if "cut" in c
            else ""
        )
        L.append(
            f"- **{corpus}**: (a) `{c['a']['source']}` must not import `{c['a']['forbidden']}` "
            "(direct only); "
            f"(b) `{c['b']['source']}` must not import `{c['b']['forbidden']}` (indirect too); "
            f"(c) layers {' > '.join('`%s`' % x for x in c['c']['layers'])}, independence of "
            f"{', '.join('`%s`' % x for x in c['c']['independent'])}{cut}; (f, in "
            f"`{CONFIG_FILE}`) c's two contracts and {codes(c['f']['source'])} must not import "
            f"{codes(c['f']['forbidden'])} (direct only)."
        )
    if scale:
        L.append(
            f"- **synthetic**: layers {' > '.join('`%s`' % x for x in synthetic.layer_names())}, "
            "independence of "
            f"{', '.join('`%s`' % x for x in synthetic.independent_siblings())}."
        )
    return L + [""]
