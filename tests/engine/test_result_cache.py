"""The result cache is used when nothing changed, and missed when anything it depends on did.

Each test tampers with the stored verdict: a run that returns the tampered verdict proves the
cache was read; a run that returns the true one after a change proves it was invalidated.
"""

from __future__ import annotations

import marshal
import os
import time

import pytest
from cache_support import mark_first_verdict, read_cache_file, results_file, write_cache_file

import layering.domain.version
from layering.adapters import result_cache
from layering.adapters.package_files import PackageFiles
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
    (tree.root / "contracts.toml").write_text(
        CONTRACTS.replace('name = "a does not import c"', 'name = "a must not import c"')
    )
    assert verdict(tree) == "kept"


def test_tool_version_change_misses_the_cache(tree, monkeypatch):
    assert verdict(tree) == "kept"
    tamper(tree)
    monkeypatch.setattr(
        layering.domain.version, "VERSION", layering.domain.version.VERSION + ".post1"
    )
    assert verdict(tree) == "kept"


def test_grimp_version_change_misses_the_cache(tree, monkeypatch):
    assert verdict(tree) == "kept"
    tamper(tree)
    real = result_cache.library_fingerprint
    monkeypatch.setattr(
        result_cache,
        "library_fingerprint",
        lambda name: real(name) + ("-upgraded" if name == "grimp" else ""),
    )
    assert verdict(tree) == "kept"


def test_garbage_cache_is_ignored_with_a_warning(tree):
    assert verdict(tree) == "kept"
    with open(results_file(tree.root), "w") as handle:
        handle.write("{not marshal")
    report = check_settings(locate_settings(str(tree.root / "contracts.toml")))
    assert report.results[0].verdict.value == "kept"
    assert any("was damaged" in w and "rebuilt it" in w for w in report.warnings)


def test_an_entry_whose_encoded_part_is_damaged_is_rebuilt_with_a_warning(tree):
    assert verdict(tree) == "kept"
    entry = read_cache_file(results_file(tree.root))
    assert isinstance(entry["graph"], bytes) and isinstance(entry["signed"], bytes)
    assert marshal.loads(entry["signed"]).keys() == {
        "app",
        "app.a",
        "app.b",
        "app.c",
    }  # app.c scanned as a target
    entry["graph"] = entry["graph"][: len(entry["graph"]) // 2]  # cut short
    write_cache_file(results_file(tree.root), entry)
    tamper(tree)  # a verdict read from the damaged entry would say broken
    report = check_settings(locate_settings(str(tree.root / "contracts.toml")))
    assert report.results[0].verdict.value == "kept"
    assert any("was damaged" in w and "rebuilt it" in w for w in report.warnings)


def test_no_cache_run_writes_nothing(tree):
    report = check_settings(locate_settings(str(tree.root / "contracts.toml")), use_cache=False)
    assert report.results[0].verdict.value == "kept"
    assert not (tree.root / ".layering_cache").exists()


def manifest_files(tree) -> dict:
    return read_cache_file(tree.root / ".layering_cache" / "manifest.marshal")["files"]


def test_a_contract_about_a_few_modules_looks_at_their_files_only(tree):
    tree.write({f"src/app/other{n}.py": "from app import c\n" for n in range(5)})
    assert verdict(tree) == "kept"
    # app.a reaches app.b: their files and app.c's (a forbidden module is scanned too, as
    # `also`); none of the five others that import app.c.
    assert set(manifest_files(tree)) <= {"app", "app.a", "app.b", "app.c"}
    assert {"app.a", "app.b"} <= set(manifest_files(tree))
    tamper(tree)
    (tree.root / "src/app/other0.py").write_text("from app import a\n")  # a file nothing reads
    assert verdict(tree) == "broken"  # reused: no module the verdict depends on changed
    assert "app.other0" not in manifest_files(tree)
    mark_first_verdict(tree.root, "unexpectedly_kept")
    (tree.root / "src/app/b.py").write_text("from app import c\n")
    assert verdict(tree) == "broken"  # decided again: app.b's imports changed


def test_the_files_a_run_did_not_look_at_keep_their_trusted_entries(tmp_path):
    old, racy, looked = (tmp_path / name for name in ("old.py", "racy.py", "looked.py"))
    for path in (old, racy, looked):
        path.write_text("import os\n")
    files = {
        "old": str(old),
        "racy": str(racy),
        "looked": str(looked),
        "gone_from_disk": str(tmp_path / "gone.py"),
    }
    written_ns = 3_000_000_000_000_000_000
    manifest = {
        "written_ns": written_ns,
        "files": {
            "old": [[str(old), written_ns - 10**10, 10, 1, written_ns - 10**10], "d-old", "s-old"],
            "racy": [
                [str(racy), written_ns - 10**9, 10, 2, written_ns - 10**9],
                "d-racy",
                "s-racy",
            ],  # written 1 s before: untrusted
            "looked": [[str(looked), 1, 10, 3, 1], "d-looked", "s-looked"],
            "left_the_package": [[str(tmp_path / "x.py"), 1, 1, 4, 1], "d-x", "s-x"],
        },
    }
    walked = PackageFiles(files, {}, frozenset(), stamped=True, walked_ns=time.time_ns())
    walked.stamp_each(files)  # before anything reads them
    states = result_cache.FileStates(walked, manifest, {})
    assert (
        states["looked"].digest == result_cache.hashed_file(str(looked))[0]
    )  # its stamp is not the one held: hashed
    entries = states.entries({"looked": "s-new"})
    assert entries == {
        "old": manifest["files"]["old"],
        "looked": [states["looked"].stamp, states["looked"].digest, "s-new"],
    }
