"""import-linter's contract types read their options through import-linter's classes: a run
whose verdicts all come from the cache does not import import-linter when the same
configuration read well before, and any change of the file reads them again."""

from __future__ import annotations

import re
import subprocess
import sys
import time

from layering.adapters.package_files import RACY_NS

PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/hi/__init__.py": "",
    "src/app/hi/a.py": "from app.lo import b\n",
    "src/app/lo/__init__.py": "",
    "src/app/lo/b.py": "X = 1\n",
}

CONTRACTS = """\
root_packages = ["app"]
source_roots = ["src"]

[[contracts]]
id = "layers"
type = "layers"
layers = ["app.hi", "app.lo"]
{extra}
[[contracts]]
id = "independence"
type = "independence"
modules = ["app.hi", "app.lo"]
"""


def imported_modules(stderr: str) -> set[str]:
    """The modules `python -X importtime` says the run imported."""
    return {
        m.group(1) for m in re.finditer(r"^import time:\s+\d+ \|\s+\d+ \|\s+(\S+)$", stderr, re.M)
    }


def check_importtime(project, *args: str) -> subprocess.CompletedProcess:
    """`layering check ARGS` in a subprocess that says what it imports."""
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "layering", "check", *args],
        cwd=project.root,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_run_answered_from_the_cache_does_not_import_import_linter(project):
    project.write({**PACKAGE, "contracts.toml": CONTRACTS.format(extra="")})
    first = check_importtime(project)
    assert first.returncode == 1, first.stdout + first.stderr
    assert "importlinter" in imported_modules(first.stderr)
    second = check_importtime(project)
    assert second.returncode == 1
    assert second.stdout == first.stdout
    assert not {
        m for m in imported_modules(second.stderr) if m.split(".")[0] in ("importlinter", "rich")
    }
    # a changed import decides the contracts again: import-linter is imported to do it
    (project.root / "src/app/lo/b.py").write_text("from app.hi import a\n")
    third = check_importtime(project)
    assert "importlinter" in imported_modules(third.stderr)
    assert third.stdout == project.check("--no-cache").stdout


def test_an_option_added_after_a_clean_run_is_still_rejected(project):
    project.write({**PACKAGE, "contracts.toml": CONTRACTS.format(extra="")})
    assert project.check().returncode == 1
    project.write({"contracts.toml": CONTRACTS.format(extra="exhaustiv = true\n")})
    rejected = project.check()
    assert rejected.returncode == 2, rejected.stdout + rejected.stderr
    assert "contracts.toml:8" in rejected.stdout + rejected.stderr
    assert "option 'exhaustiv': Unrecognized option" in rejected.stdout + rejected.stderr
    # and put back as it was, the configuration read well before is trusted again
    project.write({"contracts.toml": CONTRACTS.format(extra="")})
    assert project.check().returncode == 1


def test_without_the_cache_the_options_are_read_every_run(project):
    project.write({**PACKAGE, "contracts.toml": CONTRACTS.format(extra="")})
    assert project.check().returncode == 1
    imported = imported_modules(check_importtime(project, "--no-cache").stderr)
    assert "importlinter" in imported


def test_a_run_answered_from_the_cache_imports_neither_the_probes_nor_the_source_readers(project):
    """Their dataclasses cost about 30 ms of start-up: a run that reads no source and runs no
    probe does not import them; one that reads a source file does."""
    project.write({**PACKAGE, "contracts.toml": CONTRACTS.format(extra="")})
    first = check_importtime(project)
    assert "layering.adapters.source_facts" in imported_modules(
        first.stderr
    )  # the report's lines are read from source
    second = check_importtime(project)
    assert second.stdout == first.stdout
    assert not imported_modules(second.stderr) & {
        "layering.domain.probes",
        "layering.adapters.source_facts",
        "layering.adapters.executed_imports",
    }


def test_a_run_without_the_cache_does_not_import_the_caches(project):
    """A `--no-cache` run (CI without a cache step) does not pay for the caches' modules."""
    project.write({**PACKAGE, "contracts.toml": CONTRACTS.format(extra="")})
    without = check_importtime(project, "--no-cache")
    assert without.returncode == 1, without.stdout + without.stderr
    assert not imported_modules(without.stderr) & {
        "layering.adapters.result_cache",
        "layering.adapters.import_cache",
        "xxhash",
    }
    assert not (project.root / ".layering_cache").exists()
    with_cache = check_importtime(project)
    assert with_cache.stdout == without.stdout
    assert {
        "layering.adapters.result_cache",
        "layering.adapters.import_cache",
    } <= imported_modules(with_cache.stderr)
    assert (project.root / ".layering_cache").is_dir()


def test_a_run_with_the_cache_loads_no_hashing_and_no_tempfile_it_does_not_need(project):
    """From an empty cache the builder hashes the files (in its own process, on Linux): the run
    does not load `xxhash` (2 ms); no cache write loads `tempfile` (3 ms). Files written just
    before a run are hashed by the run as it finds them (their times could not tell a write
    during the run apart), so these are left to age first."""
    project.write({**PACKAGE, "contracts.toml": CONTRACTS.format(extra="")})
    time.sleep(RACY_NS / 1e9 + 0.1)
    first = check_importtime(project)
    assert first.returncode == 1, first.stdout + first.stderr
    assert not imported_modules(first.stderr) & {"tempfile"}
    if sys.platform.startswith("linux"):  # elsewhere a thread of the run hashes them
        assert "xxhash" not in imported_modules(first.stderr)
    second = check_importtime(project)  # the manifest was written just now: it hashes them again
    assert second.stdout == first.stdout
    assert "tempfile" not in imported_modules(second.stderr)
