"""The workloads on one corpus: a, b, c and cut in three modes, the issue 16 guard's rounds and
the issue 10 cut check (the edit workloads are in `edits`, f in `importlinter_file`, `layering
init` in `init_runs`, `layering lsp` in `lsp_session`); peak memory, start-up and the runtime
probes."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import time
from pathlib import Path

from . import source_edits
from .corpora import EDIT_WORKLOADS, STANDARD_WORKLOADS
from .edits import time_corpus_edits
from .env import Env
from .importlinter_file import time_config_file
from .init_runs import time_init
from .lsp_session import LSP_CORPORA, time_lsp
from .processes import TIME_BIN, log, measure_peak_kb, one_line, run, tail
from .profiles import CacheWriteProfile, profile_cache_writes
from .projects import (
    TOOLS,
    Configs,
    Project,
    copy_package,
    corpus_project,
    layering_cmd,
    layering_config,
    lint_imports_cmd,
    render_contract,
    write_configs,
    write_tach_config,
)
from .timing import (
    Series,
    Timed,
    ToolSeries,
    cache_dirs,
    interleave,
    log_medians,
    new_series,
    run_untimed,
    tool_series,
    verdict_of,
    warm_up,
)

# Modes of the standard workloads.  cold: no cache (layering's cache dir removed, --no-cache;
# import-linter --no-cache); default: layering as a user runs it, cache on, from an empty cache
# dir; warm: each tool's cache as one untimed run left it.
MODES = ("cold", "default", "warm")


def time_standard_workload(
    env: Env, project: Project, workload: str, repeat: int
) -> tuple[Series, Configs, str]:
    """Every mode of both tools (and tach, where it can express the workload) in one set of
    interleaved rounds; also returns the note on tach's configuration."""
    configs = write_configs(project, workload)
    tach_text, tach_note = write_tach_config(project, workload)
    caches = cache_dirs(env, project)
    series = new_series(
        env,
        [
            ("cold", "layering"),
            ("default", "layering"),
            ("warm", "layering"),
            ("cold", "import-linter"),
            ("warm", "import-linter"),
            ("cold", "tach"),
        ],
    )
    lay, il = layering_cmd(env, configs), lint_imports_cmd(env, configs)
    warm = [
        Timed(series["warm"]["layering"], lay, lambda: caches.restore("layering")),
        Timed(series["warm"]["import-linter"], il, lambda: caches.restore("import-linter")),
    ]
    timed = [
        Timed(series["cold"]["layering"], lay + ["--no-cache"], lambda: caches.clear("layering")),
        Timed(series["default"]["layering"], lay, lambda: caches.clear("layering")),
        warm[0],
        Timed(series["cold"]["import-linter"], il + ["--no-cache"]),
        warm[1],
        Timed(series["cold"]["tach"], [env.exe("tach"), "check"]),
    ]
    if tach_text is None:
        series["cold"]["tach"].na = tach_note
    warm_up(env, project, caches, warm)
    log(f"{project.name} {workload}: {repeat} interleaved rounds")
    interleave(timed, project.root, repeat, env.env)
    log_medians(series)
    return series, configs, tach_note


# ---------------------------------------------------------------------------------------
# Issue 10: the cut, read from the JSON report and removed from a copy of the code
# ---------------------------------------------------------------------------------------
@dataclasses.dataclass
class CutCheck:
    """What layering's JSON report says of a broken contract's cut, and whether removing the
    cut's import statements from a copy of the code keeps the contract."""

    chains: int | None = None
    first_group_cut: int | None = None
    cut_entries: int | None = None
    statements_removed: int = 0
    kept_after_removal: bool | None = None
    problems: list[str] = dataclasses.field(default_factory=list)


def check_cut(env: Env, project: Project, configs: Configs, series: ToolSeries) -> CutCheck:
    res = run_untimed(
        env, project, series, layering_cmd(env, configs) + ["--no-cache", "--format", "json"]
    )
    try:
        contract = json.loads(res.out)["contracts"][0]
    except (ValueError, KeyError, IndexError):
        return CutCheck(
            problems=[f"no JSON report (exit {res.rc}): " + one_line(tail(res.err or res.out, 4))]
        )
    groups = contract.get("chain_groups", [])
    found = CutCheck(
        chains=sum(group["chains"] for group in groups),
        first_group_cut=groups[0]["cut"] if groups else 0,
        cut_entries=len(contract.get("cut", [])),
    )
    if contract["verdict"] != "broken":
        found.problems.append(f"the contract is {contract['verdict']}: there is nothing to cut")
        return found
    copy = copy_package(project, env.scratch / "cut_check" / project.name)
    removals = [cut_removal(project, copy, entry) for entry in contract["cut"]]
    found.statements_removed, problems = source_edits.remove_imports(removals)
    found.problems += problems
    (copy.root / configs.layering).write_text(layering_config(copy, "cut"))
    after = run_untimed(env, copy, series, layering_cmd(env, configs) + ["--no-cache"])
    found.kept_after_removal = after.rc == 0 if after.rc in (0, 1) else None
    return found


def cut_removal(project: Project, copy: Project, entry: dict) -> source_edits.ImportToRemove:
    """The statements of one `cut` entry, in the copy (report paths are relative to the
    configuration's directory, or absolute)."""
    path = Path(entry["path"])
    if path.is_absolute():
        path = path.relative_to(project.root)
    return source_edits.ImportToRemove(
        copy.root / path, entry["importer"], entry["imported"], tuple(entry["lines"])
    )


# ---------------------------------------------------------------------------------------
# One corpus
# ---------------------------------------------------------------------------------------
@dataclasses.dataclass
class WorkloadResult:
    """A standard workload's timings, the issue 16 guard's rounds and cache-write profile, the
    cut check of issue 10 (workload cut only), and the untimed layering runs behind those."""

    series: Series
    tach_note: str
    guard: dict[str, ToolSeries]
    cache_writes: CacheWriteProfile
    untimed_runs: ToolSeries
    cut: CutCheck | None = None


# The guard decides on differences of a few percent of a run, which the machine's noise hides in
# the workloads' few rounds of six commands: it has rounds of its own, of the two runs it compares.
GUARD_ROUNDS = 15


def time_guard(env: Env, project: Project, configs: Configs) -> dict[str, ToolSeries]:
    """layering `--no-cache` and in the default mode from an empty cache, one after the other,
    the first of the two alternating, `GUARD_ROUNDS` rounds."""
    caches = cache_dirs(env, project)
    lay = layering_cmd(env, configs)
    guard = {
        "cold": tool_series(env, "layering", "cold"),
        "default": tool_series(env, "layering", "default"),
    }
    log(f"{project.name}: the guard's {GUARD_ROUNDS} rounds")
    interleave(
        [
            Timed(guard["cold"], lay + ["--no-cache"], lambda: caches.clear("layering")),
            Timed(guard["default"], lay, lambda: caches.clear("layering")),
        ],
        project.root,
        GUARD_ROUNDS,
        env.env,
    )
    return guard


def bench_standard_workload(
    env: Env, project: Project, workload: str, repeat: int
) -> WorkloadResult:
    series, configs, tach_note = time_standard_workload(env, project, workload, repeat)
    guard = time_guard(env, project, configs)
    untimed = tool_series(env, "layering", "untimed")
    log(f"{project.name} {workload}: profiling the cache writes of one run from an empty cache")
    cache_writes = profile_cache_writes(env, project, configs, untimed)
    cut = None
    if workload == "cut":
        log(f"{project.name} cut: reading the cut and removing it from a copy of the code")
        cut = check_cut(env, project, configs, untimed)
    (project.root / "tach.toml").unlink(missing_ok=True)
    return WorkloadResult(series, tach_note, guard, cache_writes, untimed, cut)


def bench_corpus(
    env: Env, corpus: str, cdir: Path, sections: list[str], repeat: int, memory_rounds: int
) -> dict:
    project = corpus_project(corpus, cdir)
    out: dict = {"files": sum(1 for _ in project.package_dir.rglob("*.py")), "standard": {}}
    for workload in STANDARD_WORKLOADS:
        if workload in sections and workload in project.workloads:
            out["standard"][workload] = bench_standard_workload(env, project, workload, repeat)
    edits = [w for w in EDIT_WORKLOADS if w in sections]
    if edits:
        out["edits"] = time_corpus_edits(env, corpus, cdir, edits, repeat)
    if "f" in sections:
        out["f"] = time_config_file(env, corpus, cdir, repeat)
    if "init" in sections:
        out["init"] = time_init(env, corpus, cdir, repeat)
    if "lsp" in sections and corpus in LSP_CORPORA:
        out["lsp"] = time_lsp(env, corpus, cdir, 2 * repeat + 1)
    if "memory" in sections:
        out["memory"] = bench_memory(env, project, memory_rounds)
    return out


# ---------------------------------------------------------------------------------------
# Peak memory (per corpus), start-up and the runtime probes
# ---------------------------------------------------------------------------------------
def bench_memory(env: Env, project: Project, rounds: int) -> dict:
    """Peak RSS of each tool on workload (c), cold and warm (separate, untimed runs)."""
    configs = write_configs(project, "c")
    tach_text, _ = write_tach_config(project, "c")
    caches = cache_dirs(env, project)
    lay, il = layering_cmd(env, configs), lint_imports_cmd(env, configs)
    out: dict = {}
    log(f"{project.name} c: peak memory, {rounds} rounds per tool and mode")
    for mode in ("cold", "warm"):
        extra = ["--no-cache"] if mode == "cold" else []
        cmds = {
            "layering": None if env.layering_install_error else lay + extra,
            "import-linter": il + extra,
            "tach": [env.exe("tach"), "check"] if tach_text else None,
        }
        recorded = {t: ToolSeries(t, mode) for t in TOOLS}  # exit codes (and stderr) of every run
        peaks: dict[str, list[int]] = {t: [] for t in TOOLS}
        if mode == "warm":
            for t, cmd in cmds.items():
                if cmd:
                    recorded[t].record(run(cmd, project.root, env.env), timed=False)
        for _ in range(rounds):
            for t, cmd in cmds.items():
                if not cmd or recorded[t].error:
                    continue
                if t == "layering" and mode == "cold":
                    caches.clear("layering")
                kb, res = measure_peak_kb(cmd, project.root, env.env)
                recorded[t].record(res, timed=False)
                if kb is not None and not recorded[t].error:
                    peaks[t].append(kb)
        out[mode] = {t: (max(v) if v else None) for t, v in peaks.items()}
        out[f"{mode} layering runs"] = recorded["layering"]
    (project.root / "tach.toml").unlink(missing_ok=True)
    out["method"] = (
        "GNU time %M"
        if os.path.exists(TIME_BIN)
        else "wait4 ru_maxrss (includes the benchmark's own RSS as a floor)"
    )
    return out


def bench_startup(env: Env, repeat: int) -> dict[str, ToolSeries]:
    series = new_series(env, [("start-up", t) for t in TOOLS])["start-up"]
    timed = [
        Timed(series[t], [env.exe(exe), "--version"])
        for t, exe in zip(TOOLS, ("layering", "lint-imports", "tach"))
    ]
    for t in timed:  # warm the bytecode caches (untimed)
        if not t.series.error:
            t.series.record(run(t.cmd, env.scratch, env.env), timed=False)
    log(f"start-up: {repeat} interleaved rounds")
    interleave(timed, env.scratch, repeat, env.env)
    return series


# 20 runtime probes on the installed Django: "django.X must not load django.db".
PROBE_MODULES = [
    # these load django.db (broken)
    "django.http",
    "django.template",
    "django.urls",
    "django.forms",
    "django.views.generic",
    "django.middleware.csrf",
    "django.shortcuts",
    "django.core.serializers",
    "django.core.handlers.wsgi",
    "django.core.management",
    # these do not (kept)
    "django.utils.html",
    "django.core.signing",
    "django.core.mail",
    "django.utils.timezone",
    "django.core.paginator",
    "django.conf",
    "django.dispatch",
    "django.core.validators",
    "django.core.cache",
    "django.utils.translation",
]
PROBE_FORBIDDEN = "django.db"
NAIVE_PROBE = (
    "import {module}, sys; "
    "sys.exit(1 if any(m == {f!r} or m.startswith({f!r} + '.') for m in sys.modules) else 0)"
)


def bench_probes(env: Env, repeat: int) -> dict:
    pdir = env.scratch / "probes"
    pdir.mkdir(parents=True, exist_ok=True)
    site = run(
        [
            str(env.python),
            "-c",
            "import django, os; print(os.path.dirname(os.path.dirname(django.__file__)))",
        ],
        cwd=pdir,
        env=env.env,
    ).out.strip()
    rel_site = os.path.relpath(site, pdir)
    cfg = pdir / "contracts.toml"
    cfg.write_text(
        f'root_packages = ["django"]\nsource_roots = [{json.dumps(rel_site)}]\ncache_dir = '
        '".layering_cache"\n\n'
        + render_contract(
            {
                "id": "probe",
                "name": f"django modules must not load {PROBE_FORBIDDEN}",
                "type": "probe",
                "modules": PROBE_MODULES,
                "forbidden": [PROBE_FORBIDDEN],
            },
            "contracts",
        )
        + "\n"
    )
    static = pdir / "loads.toml"
    static.write_text(
        cfg.read_text()
        .replace('type = "probe"', 'type = "loads"')
        .replace('id = "probe"', 'id = "loads"')
    )
    lay = tool_series(env, "layering", "probes")
    loads = tool_series(env, "layering", "loads")
    naive = ToolSeries("naive", "probes")
    naive_verdicts: dict[str, str] = {}
    lay_outputs: list[str] = []
    lay_cmd = [env.exe("layering"), "check", "--config", cfg.name, "--no-cache"]
    if not lay.error:
        helptext = run([env.exe("layering"), "check", "--help"], pdir, env.env)
        if "json" in helptext.out + helptext.err:
            lay_cmd += ["--format", "json"]  # lets us compare verdicts module by module
    log(f"probes: {repeat} paired rounds (layering, then 20 sequential naive subprocesses)")
    # The default mode, as users run it: the cache one untimed run left (a probe runs the code,
    # which no cache can answer).
    loads_cmd = [env.exe("layering"), "check", "--config", static.name]
    if not loads.error:
        run(loads_cmd, pdir, env.env)
    for r in range(repeat):
        order = ["layering", "loads", "naive"][r % 3 :] + ["layering", "loads", "naive"][: r % 3]
        for which in order:
            if which == "loads":
                if not loads.error:
                    loads.record(run(loads_cmd, pdir, env.env))
            elif which == "layering":
                if lay.error:
                    continue
                shutil.rmtree(pdir / ".layering_cache", ignore_errors=True)
                res = run(lay_cmd, pdir, env.env)
                lay.record(res)
                if not lay.error:
                    lay_outputs.append(res.out)
            else:
                t0 = time.perf_counter()
                rcs = []
                peak = 0
                for m in PROBE_MODULES:
                    res = run(
                        [str(env.python), "-c", NAIVE_PROBE.format(module=m, f=PROBE_FORBIDDEN)],
                        pdir,
                        env.env,
                    )
                    rcs.append(res.rc)
                    peak = max(peak, res.maxrss_kb)
                    naive_verdicts[m] = verdict_of(res.rc)
                naive.times.append(time.perf_counter() - t0)
                naive.rss.append(peak)
                naive.rcs.append(
                    1 if any(rc == 1 for rc in rcs) else (0 if all(rc == 0 for rc in rcs) else 2)
                )
    per_module = parse_probe_output(lay_outputs[-1]) if lay_outputs else {}
    return {
        "layering": lay,
        "loads": loads,
        "naive": naive,
        "naive_verdicts": naive_verdicts,
        "layering_per_module": per_module,
    }


def parse_probe_output(text: str) -> dict[str, str]:
    """Best effort: per-module probe verdicts from layering's output (JSON or text).

    Each offending module has a finding "LY020 importing <module> loads <forbidden>" (the
    `message` of a violation in JSON); the probe modules not named there are taken as clean.
    """
    messages: list[str] = []
    try:
        data = json.loads(text)
    except ValueError:
        messages = [text]
    else:

        def walk(node):
            if isinstance(node, dict):
                if isinstance(node.get("message"), str):
                    messages.append(node["message"])
                for v in node.values():
                    walk(v)
            elif isinstance(node, list):
                for v in node:
                    walk(v)

        walk(data)
        if not isinstance(data, dict) or "contracts" not in data:
            return {}
    named = set(re.findall(r"importing ([\w.]+) loads ", "\n".join(messages)))
    if not named and "KEPT" not in text and '"kept"' not in text:
        return {}
    return {m: ("broken" if m in named else "kept") for m in PROBE_MODULES}
