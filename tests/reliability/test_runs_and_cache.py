"""Runs that share a tree: concurrent runs, a damaged cache, a cache that cannot be written.
The cache may only ever make a run faster: never a different result, never a crash."""

from __future__ import annotations

import marshal
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from reliability_support import HEADER, Outcome, forbidden, unprivileged_project

from layering.adapters import result_cache
from layering.adapters.grimp_graph import build_graph
from layering.adapters.import_cache import FILE_NAME, ImportCache

MODULES = 120


def many_modules() -> dict[str, str]:
    """A package of MODULES modules with random imports, seeded so every run is the same tree."""
    rng = random.Random(7)
    files = {"src/app/__init__.py": ""}
    for i in range(MODULES):
        targets = rng.sample(range(MODULES), 3)
        files[f"src/app/m{i}.py"] = "".join(f"from app import m{t}\n" for t in targets if t != i)
    files["contracts.toml"] = (
        HEADER
        + forbidden("app.m1", "app.m2", id="chain")
        + forbidden("app.m3", "app.m4", id="chain2")
        + forbidden("app.m5", "app.m6", indirect=True, id="direct")
    )
    return files


HEADLINE = re.compile(
    r"LY00\d (\S+) imports (\S+?)(?: \(.*?\))?(?: through (\d+) imports)?$", re.M
)


def summary(outcome: Outcome) -> tuple:
    """What must not depend on the cache or on a concurrent run: exit code, verdicts, and which
    module reaches which in how many steps (grimp may pick another chain of the same length)."""
    verdicts = re.findall(r"^\S.* \[(\w+)\] (KEPT|BROKEN|ERROR)$", outcome.out, re.M)
    return outcome.code, tuple(verdicts), tuple(sorted(set(HEADLINE.findall(outcome.out))))


def spawn(root: Path, *args: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    return subprocess.Popen(
        [sys.executable, "-m", "layering", "check", *args],
        cwd=root,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def finish(process: subprocess.Popen) -> Outcome:
    out, err = process.communicate(timeout=120)
    return Outcome(subprocess.CompletedProcess(process.args, process.returncode, out, err))


def edges(graph) -> set:
    return {(m, t) for m in graph.modules for t in graph.find_modules_directly_imported_by(m)}


def test_concurrent_runs_share_the_cache_safely(run, project):
    reference = run(many_modules(), "--no-cache")
    assert reference.code == 1
    expected = summary(reference)
    cache = project.root / ".layering_cache"
    for _ in range(5):
        first, second = spawn(project.root), spawn(project.root)
        for outcome in (finish(first), finish(second)):
            assert summary(outcome) == expected
            assert "Traceback" not in outcome.err
    import_files = list(cache.rglob(FILE_NAME))
    assert import_files, "the runs wrote no import cache"
    from layering.adapters.grimp_scan import (
        _internals,  # grimp's parts as this process has them now
    )

    cached = ImportCache(str(import_files[0].parent), _internals().version).load()
    fresh = build_graph(("app",), (str(project.root / "src"),), False, None)
    assert cached, "the import cache holds no module"
    # the contracts' sources reach only some modules: those are scanned and kept
    assert {(m, s[0]) for m, (_, _, statements) in cached.items() for s in statements} == {
        (m, t) for m, t in edges(fresh) if m in cached
    }
    assert summary(run({})) == expected  # a run that reads the cache the concurrent runs wrote


def corrupt_garbage(path: Path) -> None:
    path.write_text("{{{ not json")


def corrupt_truncated(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def corrupt_empty(path: Path) -> None:
    path.write_bytes(b"")


def corrupt_not_utf8(path: Path) -> None:
    path.write_bytes(b"\xff\xfe\x00\x80garbage")


def corrupt_wrong_shape(path: Path) -> None:
    path.write_bytes(marshal.dumps([1, 2, 3]))


def corrupt_wrong_values(path: Path) -> None:
    path.write_bytes(
        marshal.dumps({"app.m1": "yesterday", "format": None, "files": 3, "results": {"a": 1}})
    )


CORRUPTIONS = [
    corrupt_garbage,
    corrupt_truncated,
    corrupt_empty,
    corrupt_not_utf8,
    corrupt_wrong_shape,
    corrupt_wrong_values,
]


def cache_files(cache: Path) -> dict[str, list[Path]]:
    """The files of what grimp read (wherever layering keeps them in its cache directory), the
    manifest and results, and both."""
    imports = [p for p in cache.rglob(FILE_NAME) if p.is_file()]
    own = [
        p
        for p in [
            *cache.rglob(result_cache.MANIFEST),
            *cache.rglob(f"results-*{result_cache.RESULTS_SUFFIX}"),
        ]
        if p.is_file()
    ]
    return {"imports": imports, "own": own, "both": imports + own}


def cache_warnings(outcome: Outcome) -> list[str]:
    lines = outcome.err.splitlines() + [
        line for line in outcome.out.splitlines() if line.startswith("warning:")
    ]
    return [line for line in lines if "cache" in line]


@pytest.mark.parametrize("which", ["imports", "own", "both"])
@pytest.mark.parametrize("corrupt", CORRUPTIONS, ids=lambda f: f.__name__[len("corrupt_") :])
def test_damaged_cache_is_ignored_and_rebuilt(run, project, corrupt, which):
    files = many_modules()
    clean = run(files)
    expected = summary(clean)
    cache = project.root / ".layering_cache"
    found = cache_files(cache)
    if which == "own" and not found["own"]:
        pytest.skip("no cache files of layering's own")
    assert found[which]
    for path in found[which]:
        corrupt(path)
    if which == "imports":
        for path in found["own"]:  # layering's result cache would answer without the graph
            if path.name.startswith("results"):
                path.unlink()
    damaged = run({})
    assert summary(damaged) == expected
    assert len(cache_warnings(damaged)) <= 1, damaged
    assert all(
        line.startswith("layering: warning: ") and "cache" in line
        for line in damaged.err.splitlines()
    )
    again = run({})
    assert summary(again) == expected
    assert cache_warnings(again) == [], again  # the cache was rebuilt: nothing left to warn about


def test_cache_file_replaced_by_a_directory(run, project):
    files = many_modules()
    expected = summary(run(files))
    found = cache_files(project.root / ".layering_cache")
    imports = found["imports"][0]
    imports.unlink()
    imports.mkdir()
    for path in found["own"]:
        if path.name.startswith("results"):
            path.unlink()
    damaged = run({})
    assert summary(damaged) == expected
    assert len(cache_warnings(damaged)) == 1, damaged


def test_cache_dir_that_cannot_be_created_is_skipped_and_said_once(run, project):
    # Simulates a read-only checkout even for root: the cache would go below a regular file.
    files = many_modules()
    files["contracts.toml"] = 'cache_dir = "afile/cache"\n' + files["contracts.toml"]
    files["afile"] = "not a directory\n"
    expected = summary(run(files, "--no-cache"))
    result = run({})
    assert summary(result) == expected
    assert result.err.count("\n") == 1, result.err
    assert (
        "layering: warning: cannot use the cache directory " in result.err
        and "afile/cache" in result.err
    )
    assert "running without a cache" in result.err
    assert (project.root / "afile").read_text() == "not a directory\n"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_read_only_checkout():
    with unprivileged_project() as project:
        project.write(many_modules())
        expected = summary(project.check("--no-cache"))
        for path in [project.root, *project.root.rglob("*")]:
            path.chmod(path.stat().st_mode & ~0o222)
        result = project.check()
    assert summary(result) == expected
    assert result.err.count("layering: warning: cannot use the cache directory") == 1


def test_no_cache_writes_nothing(run, project):
    result = run(many_modules(), "--no-cache")
    assert result.code == 1
    assert not (project.root / ".layering_cache").exists()


def test_cache_disabled_in_the_configuration(run, project):
    files = many_modules()
    files["contracts.toml"] = "cache_dir = false\n" + files["contracts.toml"]
    result = run(files)
    assert result.code == 1 and result.err == ""
    assert not (project.root / ".layering_cache").exists()
