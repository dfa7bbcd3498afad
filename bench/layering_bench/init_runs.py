"""`layering init` on each corpus: how long it takes to infer the contracts, check them and write
`contracts.toml`, and how many it wrote. It runs in a copy of the corpus's Python files
(`<scratch>/init/<corpus>/`), the written file removed before each run, so the corpus is never
changed; then `layering check` checks the file it wrote (untimed)."""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
from pathlib import Path

from .env import Env
from .processes import log, run
from .projects import CACHE_DIRS, copy_package, corpus_project
from .timing import ToolSeries, run_untimed, tool_series, verdict_of

INIT_FILE = "contracts.toml"
CONTRACT_TABLE = re.compile(r"^\[\[contracts\]\]", re.MULTILINE)  # one per contract written
# A corpus whose first run takes longer than this is run once (Home Assistant takes minutes).
INIT_ONE_RUN_OVER = 30.0


@dataclasses.dataclass
class InitResult:
    series: ToolSeries
    contracts: int | None = None
    first_line: str = ""
    check_verdict: str = "n/a"  # `layering check` of the written file


def time_init(env: Env, corpus: str, cdir: Path, repeat: int) -> InitResult:
    project = copy_package(corpus_project(corpus, cdir), env.scratch / "init" / corpus)
    written = project.root / INIT_FILE
    cmd = [env.exe("layering"), "init", project.package]
    result = InitResult(tool_series(env, "layering", "init"))
    log(
        f"{corpus}: layering init, up to {repeat} runs (one if the first takes over "
        f"{INIT_ONE_RUN_OVER:.0f} s)"
    )
    for _ in range(repeat):
        if result.series.error:
            break
        written.unlink(missing_ok=True)
        shutil.rmtree(project.root / CACHE_DIRS["layering"], ignore_errors=True)
        os.sync()
        res = run(cmd, project.root, env.env)
        result.series.record(res)
        result.first_line = res.out.strip().splitlines()[0] if res.out.strip() else ""
        if res.wall > INIT_ONE_RUN_OVER:
            break
    if written.is_file():
        result.contracts = len(CONTRACT_TABLE.findall(written.read_text()))
        checked = tool_series(env, "layering", "init check")
        res = run_untimed(env, project, checked, [env.exe("layering"), "check", "--no-cache"])
        result.check_verdict = verdict_of(res.rc) if not checked.error else "error"
    log(f"  {result.series.cell}, {result.contracts} contracts, check: {result.check_verdict}")
    return result
