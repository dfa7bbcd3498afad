"""KEPT means kept, whatever happens around the run: a file saved while a run reads it, a
cache file damaged or edited by hand. Each test runs the real CLI and compares what a cached
run prints with what a `--no-cache` run of the same tree prints."""

from __future__ import annotations

import pytest

from cache_support import check_with_edit_during

FORBIDDEN = """
root_packages = ["app"]
source_roots = ["src"]

[[contracts]]
id = "hi-not-lo"
name = "app.hi does not import app.lo"
type = "forbidden"
source_modules = ["app.hi"]
forbidden_modules = ["app.lo"]
"""

PACKAGE = {
    "contracts.toml": FORBIDDEN,
    "src/app/__init__.py": "",
    "src/app/hi/__init__.py": "",
    "src/app/hi/a.py": "from app import mid\n",
    "src/app/mid.py": "X = 1\n",
    "src/app/lo/__init__.py": "",
    "src/app/lo/b.py": "Y = 2\n",
}


def same_as_uncached(project) -> str:
    """A cached run's report, asserted equal to an uncached run's (exit code and stdout)."""
    cached = project.check()
    uncached = project.check("--no-cache")
    assert "Traceback" not in cached.stderr + uncached.stderr, cached.stderr + uncached.stderr
    assert (cached.returncode, cached.stdout) == (uncached.returncode, uncached.stdout)
    return cached.stdout


@pytest.mark.parametrize("phase", ["walked", "scanned", "decided"])
def test_an_import_saved_during_a_first_run_is_not_cached_as_absent(project, phase):
    project.write(PACKAGE)
    mid = str(project.root / "src/app/mid.py")
    during = check_with_edit_during(project.root, phase, {mid: "from app.lo import b\nX = 1\n"}, read_first="app.mid")
    assert during.returncode in (0, 1), during.stderr
    assert "BROKEN" in same_as_uncached(project)
    assert "BROKEN" in same_as_uncached(project)  # and the run after, from what that run kept


@pytest.mark.parametrize("phase", ["read_again", "decided"])
def test_an_import_saved_while_a_warm_run_reads_an_edit_is_not_cached_as_absent(project, phase):
    project.write(PACKAGE)
    assert "KEPT" in same_as_uncached(project)
    (project.root / "src/app/mid.py").write_text("import json\nX = 1\n")  # read again by the next run
    during = check_with_edit_during(project.root, phase, {str(project.root / "src/app/mid.py"): "import json\nfrom app.lo import b\nX = 1\n"})
    assert during.returncode in (0, 1), during.stderr
    assert "BROKEN" in same_as_uncached(project)
    assert "BROKEN" in same_as_uncached(project)


def test_lines_moved_while_a_run_reads_them_are_read_again(project):
    project.write({**PACKAGE, "src/app/mid.py": "from app.lo import b\nX = 1\n"})
    mid = str(project.root / "src/app/mid.py")
    during = check_with_edit_during(project.root, "decided", {mid: "\n\n\nfrom app.lo import b\nX = 1\n"})
    assert during.returncode == 1, during.stderr
    assert "src/app/mid.py:4:" in same_as_uncached(project)
