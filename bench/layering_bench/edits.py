"""Issue 14: workload c after an edit (d1, d2, e), on a copy of a corpus, and the scaling table
(d1 on synthetic packages of growing size)."""

from __future__ import annotations

import dataclasses
import os
import time
from pathlib import Path

from . import source_edits, synthetic
from .env import Env
from .processes import log
from .profiles import profile_phases
from .projects import (
    CACHE_DIRS,
    Project,
    copy_package,
    corpus_project,
    layering_cmd,
    lint_imports_cmd,
    write_configs,
)
from .timing import (
    CacheDirs,
    Series,
    Timed,
    ToolSeries,
    cache_dirs,
    interleave,
    log_medians,
    new_series,
    tool_series,
    warm_up,
)


@dataclasses.dataclass(frozen=True)
class EditTarget:
    """The file the edit workloads change, and the import d2 adds to it."""

    path: Path
    module: str
    added_import: str


def choose_edit_target(project: Project) -> EditTarget:
    """The middle module with a function; d2 imports into it the first module of c's lowest
    layer it does not import yet (importing the lowest layer is what the layers contract
    allows)."""
    path = source_edits.middle_module_with_function(project.package_dir)
    lowest_layer = project.workloads["c"]["layers"][-1]
    added = source_edits.first_module_not_imported(project.package_dir, lowest_layer, path)
    return EditTarget(path, source_edits.module_name(project.package_dir, path), added)


class EditedTree:
    """A project put back before every timed run to the state both tools were warmed on (the
    edited file's bytes and modification time, both cache directories), then edited."""

    def __init__(self, project: Project, caches: CacheDirs, target: EditTarget):
        self.project = project
        self.caches = caches
        self.target = target
        self.original = target.path.read_bytes()
        status = target.path.stat()
        self.times_ns = (status.st_atime_ns, status.st_mtime_ns)

    def reset(self) -> None:
        self.target.path.write_bytes(self.original)
        os.utime(self.target.path, ns=self.times_ns)
        for tool in CACHE_DIRS:
            self.caches.restore(tool)

    def body_edit(self) -> None:
        """d1: one function body changed, the file's imports as they were."""
        self.reset()
        source_edits.edit_function_body(self.target.path)

    def import_edit(self) -> None:
        """d2: the file gained one internal import."""
        self.reset()
        source_edits.append_import(self.target.path, self.target.added_import)

    def fresh_checkout(self) -> None:
        """e: the cache directories restored and every other file of the project given a new
        modification time, its bytes unchanged: a CI job's checkout of the same tree and its
        cache step, as both tools see them (setting the times, not rewriting the bytes, keeps
        each run's preparation to a fraction of a second)."""
        self.reset()
        now = time.time_ns()
        for path in self.project.root.rglob("*"):
            if (
                path.is_file()
                and path.relative_to(self.project.root).parts[0] not in CACHE_DIRS.values()
            ):
                os.utime(path, ns=(now, now))


EDIT_MODES = ("cache", "no-cache")  # each tool with its warm cache; each tool without a cache


@dataclasses.dataclass
class EditResults:
    """What the edit workloads changed, the untimed warm-up runs, and each workload's series."""

    target: EditTarget
    warm_up: dict[str, ToolSeries]
    series: dict[str, Series] = dataclasses.field(default_factory=dict)
    phases: dict[str, dict[str, float] | None] = dataclasses.field(default_factory=dict)


def time_edit_workloads(
    env: Env, project: Project, workloads: list[str], repeat: int
) -> EditResults:
    """Workload c after each edit of `workloads`: both tools with their caches (warm before the
    edit) and both without a cache, in one set of interleaved rounds per edit. The project is
    put back as it was at the end."""
    configs = write_configs(project, "c")
    caches = cache_dirs(env, project)
    tree = EditedTree(project, caches, choose_edit_target(project))
    lay, il = layering_cmd(env, configs), lint_imports_cmd(env, configs)
    results = EditResults(
        tree.target,
        {tool: tool_series(env, tool, "warm-up") for tool in ("layering", "import-linter")},
    )
    warm_up(
        env,
        project,
        caches,
        [Timed(results.warm_up["layering"], lay), Timed(results.warm_up["import-linter"], il)],
    )
    edits = {"d1": tree.body_edit, "d2": tree.import_edit, "e": tree.fresh_checkout}
    try:
        for workload in workloads:
            series = new_series(
                env,
                [(mode, tool) for mode in EDIT_MODES for tool in ("layering", "import-linter")],
            )
            for mode in EDIT_MODES:
                for tool, s in series[mode].items():
                    s.error = s.error or results.warm_up[tool].error
            timed = [
                Timed(series["cache"]["layering"], lay, edits[workload]),
                Timed(series["cache"]["import-linter"], il, edits[workload]),
                Timed(series["no-cache"]["layering"], lay + ["--no-cache"], edits[workload]),
                Timed(series["no-cache"]["import-linter"], il + ["--no-cache"], edits[workload]),
            ]
            log(
                f"{project.name} {workload} (edited {tree.target.module}): {repeat} interleaved "
                "rounds"
            )
            interleave(timed, project.root, repeat, env.env)
            log_medians(series)
            results.series[workload] = series
            results.phases[workload] = profile_phases(
                env, project, lay, edits[workload], f"{workload}"
            )
    finally:
        tree.reset()
    return results


def time_corpus_edits(
    env: Env, corpus: str, cdir: Path, workloads: list[str], repeat: int
) -> EditResults:
    """The edit workloads on a fresh copy of the corpus (the unzipped corpus stays as it is)."""
    copy = copy_package(corpus_project(corpus, cdir), env.scratch / "edits" / corpus)
    return time_edit_workloads(env, copy, workloads, repeat)


SCALE_SIZES = (1_000, 10_000, 50_000, 100_000)
SCALE_FULL_ROUNDS_UP_TO = 10_000  # larger packages get a third of the rounds (at least one)
SCALE_ONE_ROUND_OVER = 50_000  # and the largest one round


def scale_project(env: Env, modules: int) -> Project:
    root = env.scratch / "synthetic" / str(modules)
    log(f"synthetic package of {modules} modules (generated once, then reused)")
    synthetic.generate(root, modules)
    contracts = {
        "c": {"layers": synthetic.layer_names(), "independent": synthetic.independent_siblings()}
    }
    return Project(f"synthetic-{modules}", root, synthetic.PACKAGE, contracts)


def scale_rounds(modules: int, repeat: int) -> int:
    if modules > SCALE_ONE_ROUND_OVER:
        return 1
    return repeat if modules <= SCALE_FULL_ROUNDS_UP_TO else max(1, repeat // 3)


def time_scaling(env: Env, repeat: int) -> dict[int, EditResults]:
    """Workload c's kind of contracts (layers + independence, both kept) on synthetic packages of
    growing size: cold (no cache) and d1, from the d1 rounds."""
    return {
        modules: time_edit_workloads(
            env, scale_project(env, modules), ["d1"], scale_rounds(modules, repeat)
        )
        for modules in SCALE_SIZES
    }
