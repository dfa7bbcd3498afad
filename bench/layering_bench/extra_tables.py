"""The sections of RESULTS.md on workload f (import-linter's own file), the peak memory of every
workload's timed runs, `layering init` and `layering lsp`."""

from __future__ import annotations

from .edits import EDIT_MODES
from .importlinter_file import CONFIG_FILE, F_MODES
from .init_runs import INIT_ONE_RUN_OVER
from .lsp_session import LSP_CORPORA
from .tables import edit_series, failures, table
from .timing import ToolSeries, fmt_ratio, fmt_s, median, ratio
from .workloads import MODES


def config_file_section(results: dict) -> list[str]:
    L = ["## Workload f: import-linter's own file, as teams write it\n"]
    done = {corpus: res["f"] for corpus, res in results.items() if "f" in res}
    if not done:
        return L + ["(skipped)\n"]
    L.append(
        f"`{CONFIG_FILE}` (INI) at the root of a copy of the package, found by both tools with no "
        "argument (`layering check`, `lint-imports`): a layers contract (c's layers), a forbidden "
        "contract of direct imports only (`allow_indirect_imports = true`) and an independence "
        "contract (c's modules). cold = `--no-cache`; warm = each tool's cache as one untimed "
        "run left it; edit = d1's body edit, both warm before.\n"
    )
    rows = []
    for corpus, fr in done.items():
        for mode in F_MODES:
            lay, il = fr.series[mode]["layering"], fr.series[mode]["import-linter"]
            rows.append(
                [
                    corpus,
                    mode,
                    lay.cell,
                    il.cell,
                    fmt_ratio(ratio(lay.med, il.med)),
                    f"{lay.verdict} / {il.verdict}",
                ]
            )
    L += table(
        [
            "corpus",
            "mode",
            "layering",
            "lint-imports",
            "layering/lint-imports",
            "verdict layering / lint-imports",
        ],
        rows,
    )
    L.append("Each contract's verdict in each tool's report (layering / lint-imports):\n")
    for corpus, fr in done.items():
        parts = [
            f"{name}: {by_tool.get('layering', 'n/a')} / {by_tool.get('import-linter', 'n/a')}"
            for name, by_tool in fr.contracts.items()
        ]
        same = all(
            len(set(v.values())) == 1 and "n/a" not in v.values() for v in fr.contracts.values()
        )
        L.append(
            f"- **{corpus}** ({'identical' if same else 'DIFFERENT'}; edited "
            f"`{fr.target.module}`): " + "; ".join(parts)
        )
    L.append("")
    L += failures(
        [(f"{corpus} f", s) for corpus, fr in done.items() for s in fr.warm_up.values()]
        + [
            (f"{corpus} f", s)
            for corpus, fr in done.items()
            for by_tool in fr.series.values()
            for s in by_tool.values()
        ]
    )
    return L


def fmt_peak(series: ToolSeries) -> str:
    kb = series.peak_kb
    if kb is None:
        return series.cell if (series.error or series.na) else "n/a"
    return ("<= " if series.peak_at_floor else "") + f"{kb / 1024:.0f} MiB"


def peak_ratio_of(lay: ToolSeries, il: ToolSeries) -> float | None:
    """layering's peak RSS / lint-imports'; None where either is only an upper bound."""
    if lay.peak_at_floor or il.peak_at_floor:
        return None
    return ratio(lay.peak_kb, il.peak_kb)


def peak_ratio(lay: ToolSeries, il: ToolSeries) -> str:
    return fmt_ratio(peak_ratio_of(lay, il))


def peak_rows(corpus: str, res: dict) -> list[list[str]]:
    """(workload, mode, layering's series, lint-imports' series) of every timed cell."""
    cells = []
    for wl, wr in res["standard"].items():
        for mode in MODES:
            il_mode = "warm" if mode == "warm" else "cold"
            cells.append(
                (wl, mode, wr.series[mode]["layering"], wr.series[il_mode]["import-linter"])
            )
    for wl, series in edit_series(res).items():
        for mode in EDIT_MODES:
            cells.append((wl, mode, series[mode]["layering"], series[mode]["import-linter"]))
    if "f" in res:
        for mode in F_MODES:
            s = res["f"].series[mode]
            cells.append(("f", mode, s["layering"], s["import-linter"]))
    return [
        [corpus, wl, mode, fmt_peak(lay), fmt_peak(il), peak_ratio(lay, il)]
        for wl, mode, lay, il in cells
    ]


def peak_memory_section(results: dict, scale: dict | None) -> list[str]:
    L = ["## Peak memory of every timed cell (max RSS)\n"]
    rows = [row for corpus, res in results.items() for row in peak_rows(corpus, res)]
    for modules, res in (scale or {}).items():
        s = res.series["d1"]
        for mode in EDIT_MODES:
            lay, il = s[mode]["layering"], s[mode]["import-linter"]
            rows.append(
                [
                    f"synthetic {modules:,}",
                    "d1",
                    mode,
                    fmt_peak(lay),
                    fmt_peak(il),
                    peak_ratio(lay, il),
                ]
            )
    if not rows:
        return L + ["(skipped)\n"]
    L.append(
        "The highest peak RSS of each cell's timed runs, from `wait4` as each run ends (the "
        "process and the children it waited for; no polling). The default mode compares with "
        "lint-imports cold, as in the timings. A child starts from the benchmark's own address "
        "space, so its figure is at least the benchmark's peak: a cell whose every run was at or "
        "under that runs once more, untimed, under GNU time (`%M`, a small launcher's `wait4`); "
        "without it the cell is shown as `<=` and gets no ratio.\n"
    )
    return L + table(
        ["corpus", "workload", "mode", "layering", "lint-imports", "layering/lint-imports"], rows
    )


def init_section(results: dict) -> list[str]:
    L = ["## `layering init` on each corpus\n"]
    done = {corpus: res["init"] for corpus, res in results.items() if "init" in res}
    if not done:
        return L + ["(skipped)\n"]
    L.append(
        "`layering init PACKAGE` in a copy of the package's Python files, its `contracts.toml` "
        f"removed before each run (a corpus whose first run takes over {INIT_ONE_RUN_OVER:.0f} s "
        "is run once); then "
        "`layering check --no-cache` checks the file it wrote. No peer: import-linter has no such "
        "command.\n"
    )
    rows = [
        [
            corpus,
            ir.series.cell,
            str(len(ir.series.times)),
            "n/a" if ir.contracts is None else str(ir.contracts),
            ir.check_verdict,
            fmt_peak(ir.series),
        ]
        for corpus, ir in done.items()
    ]
    L += table(
        ["corpus", "init (median)", "runs", "contracts written", "check of the file", "peak RSS"],
        rows,
    )
    L += [f"- {corpus}: `{ir.first_line}`" for corpus, ir in done.items() if ir.first_line]
    L.append("")
    return L + failures([(corpus, ir.series) for corpus, ir in done.items()])


def fmt_spread(times: list[float]) -> list[str]:
    if not times:
        return ["n/a"] * 3
    return [fmt_s(min(times)), fmt_s(median(times)), fmt_s(max(times))]


def lsp_section(results: dict) -> list[str]:
    L = ["## `layering lsp`: a save answered\n"]
    done = {corpus: res["lsp"] for corpus, res in results.items() if "lsp" in res}
    if not done:
        return L + ["(skipped)\n"]
    L.append(
        "A real stdio exchange with `layering lsp` in a copy of the package whose "
        "`contracts.toml` holds workload c's contracts, cache warm. Each round saves a file that "
        "has diagnostics (d1's body edit, then back) and sends `textDocument/didSave`; answer = "
        "until the `textDocument/publishDiagnostics` for that file, check = until the log line "
        "that ends the check (every file's diagnostics sent). Both include the server's 50 ms "
        f"debounce. Corpora: {', '.join(LSP_CORPORA)}. No peer.\n"
    )
    rows = []
    for corpus, lr in done.items():
        rows.append(
            [corpus, f"`{lr.saved}`" if lr.saved else "n/a", str(len(lr.answers))]
            + fmt_spread(lr.answers)
            + fmt_spread(lr.checks)
            + [
                f"{lr.diagnostics} / {lr.files}",
                "n/a"
                if lr.peak_kb is None
                else ("<= " if lr.peak_kb <= lr.peak_floor_kb else "")
                + f"{lr.peak_kb / 1024:.0f} MiB",
            ]
        )
    L += table(
        [
            "corpus",
            "saved file",
            "saves",
            "answer min",
            "answer median",
            "answer max",
            "check min",
            "check median",
            "check max",
            "diagnostics: saved file / files with any",
            "server peak RSS",
        ],
        rows,
    )
    errors = [f"- {corpus}: {lr.error}" for corpus, lr in done.items() if lr.error]
    return L + (["Failures:\n", *errors, ""] if errors else [])
