"""The result cache is used when nothing changed, and missed when anything it depends on did.

Each test tampers with the stored verdict: a run that returns the tampered verdict proves the
cache was read; a run that returns the true one after a change proves it was invalidated.
"""

from __future__ import annotations

import os

import pytest

from cache_support import mark_first_verdict, results_file

import layering
from layering.adapters import result_cache
from layering.commands.check import check_settings
from layering.engine.config import locate_settings

CONTRACTS = """\
root_packages = ["app"]
source_roots = ["src"]

[[contracts]]
id = "chain"
name = "a does not import c"
type = "forbidden"
source_modules = ["app.a"]
forbidden_modules = ["app.c"]
"""


@pytest.fixture
def tree(project):
    project.write(
        {
            "src/app/__init__.py": "",
            "src/app/a.py": "from app import b\n",
            "src/app/b.py": "import json\n",
            "src/app/c.py": "",
            "contracts.toml": CONTRACTS,
        }
    )
    return project


def verdict(tree) -> str:
    report = check_settings(locate_settings(str(tree.root / "contracts.toml")))
    return report.results[0].verdict.value


def tamper(tree) -> None:
    mark_first_verdict(tree.root, "broken")


def test_unchanged_run_reads_the_cache(tree):
    assert verdict(tree) == "kept"
    tamper(tree)
    assert verdict(tree) == "broken"


def test_content_change_with_the_same_mtime_is_seen(tree):
    assert verdict(tree) == "kept"
    b = tree.root / "src/app/b.py"
    status = b.stat()
    b.write_text("import app.c\n")  # same length matters not: the content digest changes
    os.utime(b, ns=(status.st_atime_ns, status.st_mtime_ns))
    assert verdict(tree) == "broken"


def test_contract_change_misses_the_cache(tree):
    assert verdict(tree) == "kept"
    tamper(tree)
    (tree.root / "contracts.toml").write_text(CONTRACTS.replace('name = "a does not import c"', 'name = "a must not import c"'))
    assert verdict(tree) == "kept"


def test_tool_version_change_misses_the_cache(tree, monkeypatch):
    assert verdict(tree) == "kept"
    tamper(tree)
    monkeypatch.setattr(layering, "__version__", layering.__version__ + ".post1")
    assert verdict(tree) == "kept"


def test_grimp_version_change_misses_the_cache(tree, monkeypatch):
    assert verdict(tree) == "kept"
    tamper(tree)
    real = result_cache.library_fingerprint
    monkeypatch.setattr(result_cache, "library_fingerprint", lambda name: real(name) + ("-upgraded" if name == "grimp" else ""))
    assert verdict(tree) == "kept"


def test_garbage_cache_is_ignored_with_a_warning(tree):
    assert verdict(tree) == "kept"
    with open(results_file(tree.root), "w") as handle:
        handle.write("{not marshal")
    report = check_settings(locate_settings(str(tree.root / "contracts.toml")))
    assert report.results[0].verdict.value == "kept"
    assert any("was damaged" in w and "rebuilt it" in w for w in report.warnings)


def test_no_cache_run_writes_nothing(tree):
    report = check_settings(locate_settings(str(tree.root / "contracts.toml")), use_cache=False)
    assert report.results[0].verdict.value == "kept"
    assert not (tree.root / ".layering_cache").exists()
