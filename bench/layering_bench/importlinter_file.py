"""Workload f: import-linter's own configuration file as a team writes it.

`.importlinter` (INI) at the project root, which `lint-imports` and `layering check` both find
with no argument: a layers contract (c's layers), a forbidden contract of direct imports only
(`allow_indirect_imports = true`) and an independence contract (c's modules). It runs on a copy
of the corpus's Python files, in three modes in the same interleaved rounds: **cold**
(`--no-cache`), **warm** (each tool's cache as one untimed run left it), **edit** (d1's body
edit, both tools warm before). Each contract's verdict is read from each tool's text report.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from .edits import EditedTree, EditTarget, choose_edit_target
from .env import Env
from .processes import log
from .projects import TOOLS, Project, copy_package, corpus_project
from .timing import (
    CacheDirs,
    Series,
    Timed,
    ToolSeries,
    interleave,
    log_medians,
    new_series,
    run_untimed,
    tool_series,
)

CONFIG_FILE = ".importlinter"
F_MODES = ("cold", "warm", "edit")
F_TOOLS = TOOLS[:2]  # tach reads no import-linter file


def contract_names(project: Project) -> dict[str, str]:
    """Each contract's id in the file, and its name."""
    f = project.workloads["f"]
    return {
        "layers": f"The layers of {project.package}",
        "direct": f"{', '.join(f['source'])} must not import {', '.join(f['forbidden'])} directly",
        "independent": "Independent packages",
    }


def ini_list(key: str, values: list[str]) -> list[str]:
    return [f"{key} ="] + [f"    {value}" for value in values]


def importlinter_ini(project: Project) -> str:
    c, f = project.workloads["c"], project.workloads["f"]
    names = contract_names(project)
    lines = [
        f"# The architecture of {project.package}: `lint-imports` checks it in CI.",
        "[importlinter]",
        f"root_package = {project.package}",
        "",
        "[importlinter:contract:layers]",
        f"name = {names['layers']}",
        "type = layers",
        *ini_list("layers", c["layers"]),
        "",
        "# Direct imports only: a chain through other modules is allowed.",
        "[importlinter:contract:direct]",
        f"name = {names['direct']}",
        "type = forbidden",
        *ini_list("source_modules", f["source"]),
        *ini_list("forbidden_modules", f["forbidden"]),
        "allow_indirect_imports = true",
        "",
        "[importlinter:contract:independent]",
        f"name = {names['independent']}",
        "type = independence",
        *ini_list("modules", c["independent"]),
    ]
    return "\n".join(lines) + "\n"


# A contract's line in either tool's report: `NAME KEPT` (lint-imports), `NAME [ID] BROKEN`.
VERDICT_LINE = re.compile(r"^(.+?)(?: \[[\w.:-]+\])? (KEPT|BROKEN)$", re.MULTILINE)


def contract_verdicts(report: str, names: list[str]) -> dict[str, str]:
    """Each named contract's verdict in a text report (its first line that gives one)."""
    found: dict[str, str] = {}
    for name, verdict in VERDICT_LINE.findall(report):
        if name.strip() in names:
            found.setdefault(name.strip(), verdict.lower())
    return found


@dataclasses.dataclass
class ConfigFileResult:
    """Workload f on one corpus: each mode's series, the edited file, and each contract's
    verdict by tool (from the warm-up runs)."""

    series: Series
    target: EditTarget
    contracts: dict[str, dict[str, str]]
    warm_up: dict[str, ToolSeries]


def time_config_file(env: Env, corpus: str, cdir: Path, repeat: int) -> ConfigFileResult:
    project = copy_package(corpus_project(corpus, cdir), env.scratch / "config_file" / corpus)
    (project.root / CONFIG_FILE).write_text(importlinter_ini(project))
    caches = CacheDirs(project.root, env.scratch / "warm_caches" / f"{corpus}-f")
    tree = EditedTree(project, caches, choose_edit_target(project))
    cmds = {
        "layering": [env.exe("layering"), "check"],
        "import-linter": [env.exe("lint-imports"), "--no-logo"],
    }
    warm_up = {tool: tool_series(env, tool, "warm-up") for tool in F_TOOLS}
    reports = {}
    for tool in F_TOOLS:
        caches.clear(tool)
        if not warm_up[tool].error:
            reports[tool] = run_untimed(env, project, warm_up[tool], cmds[tool]).out
    caches.keep_copies()
    names = list(contract_names(project).values())
    found = {tool: contract_verdicts(report, names) for tool, report in reports.items()}
    contracts = {name: {tool: found[tool].get(name, "n/a") for tool in found} for name in names}

    series = new_series(env, [(mode, tool) for mode in F_MODES for tool in F_TOOLS])
    for by_tool in series.values():
        for tool, s in by_tool.items():
            s.error = s.error or warm_up[tool].error

    def cold() -> None:
        tree.reset()
        caches.clear("layering")

    preparations = {"cold": cold, "warm": tree.reset, "edit": tree.body_edit}
    timed = [
        Timed(
            series[mode][tool],
            cmds[tool] + (["--no-cache"] if mode == "cold" else []),
            preparations[mode],
        )
        for mode in F_MODES
        for tool in F_TOOLS
    ]
    log(f"{corpus} f ({CONFIG_FILE}; edit in {tree.target.module}): {repeat} interleaved rounds")
    try:
        interleave(timed, project.root, repeat, env.env)
    finally:
        tree.reset()
    log_medians(series)
    return ConfigFileResult(series, tree.target, contracts, warm_up)
