"""Runs disturbed from outside: a module deleted while the run reads the package ends with a
located error and exit 2 (the run could not be made), never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from reliability_support import BASE_ENV, HEADER, Outcome, forbidden

from layering.adapters.grimp_graph import build_graph, imports_of_module
from layering.adapters.package_files import find_package_files
from layering.domain.errors import SourceUnreadable

PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/a.py": "import json\n",
    "src/app/b.py": "from app import a\n",
    "contracts.toml": HEADER + forbidden("app.b", "app.a"),
}

# `layering check`, with app/b.py deleted once the run has walked the package.
WALK_THEN_DELETE = """\
import os, sys
from layering.engine import evidence
walk = evidence.find_package_files
def walk_then_delete(*args, **kwargs):
    found = walk(*args, **kwargs)
    os.remove(os.path.join("src", "app", "b.py"))
    return found
evidence.find_package_files = walk_then_delete
from layering.cli import run
run()
"""


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("read", ["graph", "one module"])
def test_a_module_deleted_after_the_walk_is_located_where_grimp_is_called(tmp_path, read):
    write(tmp_path, PACKAGE)
    source_roots = (str(tmp_path / "src"),)
    files = find_package_files(("app",), source_roots)
    (tmp_path / "src/app/b.py").unlink()
    with pytest.raises(SourceUnreadable) as raised:
        if read == "graph":
            build_graph(("app",), source_roots, False, None, files=files)
        else:
            imports_of_module(files, "app.b", False)
    assert raised.value.path == files.files["app.b"]
    assert raised.value.reason == "was deleted while layering read the package (after its walk, before grimp read it)"


@pytest.mark.parametrize("cache", [(), ("--no-cache",)], ids=["cache", "no-cache"])
def test_a_module_deleted_after_the_walk_stops_the_run_with_a_located_error(tmp_path, cache):
    # grimp's Rust code panics on the missing file, and its panic hook writes to stderr before
    # layering can say anything: only the report and the exit code are layering's.
    write(tmp_path, PACKAGE)
    result = Outcome(
        subprocess.run(
            [sys.executable, "-c", WALK_THEN_DELETE, "check", *cache],
            cwd=tmp_path, env=BASE_ENV, capture_output=True, text=True, timeout=120,
        )
    )
    assert result.code == 2, result
    assert result.out.splitlines()[1:3] == [
        "forbidden #1 [f] ERROR",
        "  src/app/b.py: LY040 was deleted while layering read the package (after its walk, before grimp read it); "
        "run layering again to decide this contract on the tree as it is now",
    ], result

