"""KEPT means kept, whatever happens around the run: a file saved while a run reads it, a
cache file damaged or edited by hand. Each test runs the real CLI and compares what a cached
run prints with what a `--no-cache` run of the same tree prints."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cache_support import check_with_edit_during, read_cache_file, results_file, write_cache_file

from layering.adapters import cache_files

try:
    import resource
except ImportError:  # not POSIX
    resource = None  # type: ignore[assignment]

SEAL_SIZE = 44
"""Magic, format, length and checksum before a cache file's payload (`cache_files.sealed`)."""

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
    during = check_with_edit_during(
        project.root, phase, {mid: "from app.lo import b\nX = 1\n"}, read_first="app.mid"
    )
    assert during.returncode in (0, 1), during.stderr
    assert "BROKEN" in same_as_uncached(project)
    assert "BROKEN" in same_as_uncached(project)  # and the run after, from what that run kept


@pytest.mark.parametrize("phase", ["read_again", "decided"])
def test_an_import_saved_while_a_warm_run_reads_an_edit_is_not_cached_as_absent(project, phase):
    project.write(PACKAGE)
    assert "KEPT" in same_as_uncached(project)
    (project.root / "src/app/mid.py").write_text(
        "import json\nX = 1\n"
    )  # read again by the next run
    during = check_with_edit_during(
        project.root,
        phase,
        {str(project.root / "src/app/mid.py"): "import json\nfrom app.lo import b\nX = 1\n"},
    )
    assert during.returncode in (0, 1), during.stderr
    assert "BROKEN" in same_as_uncached(project)
    assert "BROKEN" in same_as_uncached(project)


def test_lines_moved_while_a_run_reads_them_are_read_again(project):
    project.write({**PACKAGE, "src/app/mid.py": "from app.lo import b\nX = 1\n"})
    mid = str(project.root / "src/app/mid.py")
    during = check_with_edit_during(
        project.root, "decided", {mid: "\n\n\nfrom app.lo import b\nX = 1\n"}
    )
    assert during.returncode == 1, during.stderr
    assert "src/app/mid.py:4:" in same_as_uncached(project)


# --------------------------------------------------------------------------- damaged and forged
# files


BROKEN_PACKAGE = {**PACKAGE, "src/app/mid.py": "from app.lo import b\nX = 1\n"}


def cache_file(project, name: str) -> Path:
    [path] = (project.root / ".layering_cache").rglob(name)
    return path


def limited_check(project, *args: str) -> subprocess.CompletedProcess:
    """`layering check` with its address space limited to 2 GiB: a cache file that asks for more
    must be refused before it is decoded, not end the run in MemoryError."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "PYTHONPATH")}
    return subprocess.run(
        [sys.executable, "-m", "layering", "check", *args],
        cwd=project.root,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        preexec_fn=limit,
    )


@pytest.mark.skipif(resource is None, reason="needs POSIX resource limits")
@pytest.mark.parametrize("name", ["manifest.marshal", "results-*.marshal", "imports.marshal"])
def test_five_bytes_of_garbage_in_a_cache_file_are_a_warning_not_a_crash(project, name):
    project.write(BROKEN_PACKAGE)
    expected = project.check("--no-cache")
    assert expected.returncode == 1
    assert project.check().stdout == expected.stdout
    cache_file(project, name).write_bytes(
        b"[\xff\xff\xff\x7f"
    )  # a list of 2**31 items, to marshal
    if name == "imports.marshal":  # else the verdicts come from the results, and it is not read
        Path(results_file(project.root)).unlink()
    damaged = limited_check(project)
    assert (damaged.returncode, damaged.stdout) == (1, expected.stdout), damaged.stderr
    assert "Traceback" not in damaged.stderr and "MemoryError" not in damaged.stderr
    [warning] = damaged.stderr.splitlines()
    assert (
        warning.startswith("layering: warning: the ")
        and "cache in .layering_cache" in warning
        and "rebuilt it" in warning
    )
    again = project.check()
    assert (again.returncode, again.stdout, again.stderr) == (1, expected.stdout, "")


def test_a_cache_file_beyond_any_cache_size_is_not_read(project):
    project.write(BROKEN_PACKAGE)
    project.check()
    with open(cache_file(project, "manifest.marshal"), "r+b") as handle:
        handle.truncate(cache_files.MAX_FILE_BYTES + 1)  # sparse: no disk is used
    damaged = limited_check(project)
    assert damaged.returncode == 1 and "BROKEN" in damaged.stdout, damaged.stderr
    assert "manifest.marshal" in damaged.stderr and "damaged" in damaged.stderr


def test_a_hand_edited_results_file_does_not_turn_broken_into_kept(project):
    project.write(BROKEN_PACKAGE)
    assert project.check().returncode == 1
    path = results_file(project.root)
    data = path_bytes = open(path, "rb").read()
    header, payload = path_bytes[:SEAL_SIZE], data[SEAL_SIZE:]
    entry = marshal.loads(payload)
    results = marshal.loads(entry["results"])
    results[0]["verdict"] = "kept"
    results[0]["violations"] = []
    entry["results"] = marshal.dumps(results, 4)
    open(path, "wb").write(header + marshal.dumps(entry, 4))  # edited, its checksum left as it was
    edited = project.check()
    assert edited.returncode == 1 and "BROKEN" in edited.stdout
    assert "layering: warning: the cache in .layering_cache was damaged (results-" in edited.stderr


def forge_kept_verdict(project) -> None:
    """Change the cached verdict to KEPT as layering itself would write it (its checksum holds):
    only someone who can write the cache directory can do this."""
    path = results_file(project.root)
    entry = read_cache_file(path)
    results = marshal.loads(entry["results"])
    results[0]["verdict"] = "kept"
    results[0]["violations"] = []
    entry["results"] = marshal.dumps(results, 4)
    write_cache_file(path, entry)


def test_verify_cache_passes_a_cache_true_to_the_files(project):
    project.write(BROKEN_PACKAGE)
    first = project.check()
    verified = project.check("--verify-cache")
    assert (verified.returncode, verified.stdout, verified.stderr) == (1, first.stdout, "")
    project.write(PACKAGE)
    assert project.check().returncode == 0
    assert project.check("--verify-cache").returncode == 0


def test_verify_cache_names_a_forged_verdict(project):
    project.write(BROKEN_PACKAGE)
    expected = project.check()
    forge_kept_verdict(project)
    assert (
        project.check().returncode == 0
    )  # the cache is trusted input: SECURITY.md says who may write it
    verified = project.check("--verify-cache")
    assert verified.returncode == 2
    assert verified.stdout == expected.stdout  # the report of a run without the cache
    assert (
        "layering: error: cache entry disagrees: .layering_cache: the cached result of contract "
        "'hi-not-lo' is KEPT; "
        "decided without the cache it is BROKEN\n"
    ) in verified.stderr
    assert (
        "layering: error: 1 cache entry disagrees with the files; remove the cache directory, and "
        "find who wrote it\n" in verified.stderr
    )


def test_verify_cache_names_a_forged_reading_and_file_state(project):
    project.write(BROKEN_PACKAGE)
    project.check()
    imports = cache_file(project, "imports.marshal")
    header, modules = read_cache_file(imports)
    digest, signature, statements = modules["app.mid"]
    modules["app.mid"] = (digest, signature, ())  # app.mid imports nothing, it says
    write_cache_file(imports, (header, modules))
    manifest_path = cache_file(project, "manifest.marshal")
    manifest = read_cache_file(manifest_path)
    manifest["files"]["app.hi.a"][1] = "0" * 32  # another content, its stamp unchanged
    write_cache_file(manifest_path, manifest)
    verified = project.check("--verify-cache")
    assert verified.returncode == 2, verified.stderr
    assert (
        "layering: error: cache entry disagrees: .layering_cache/grimp/imports.marshal: "
        "src/app/mid.py is held with imports grimp does not read from it (0 held, 1 read)\n"
        in verified.stderr
    )
    assert (
        "layering: error: cache entry disagrees: .layering_cache/manifest.marshal: "
        "src/app/hi/a.py is held unchanged with digest 00000000000000000000000000000000, but its "
        "content's is " in verified.stderr
    )


def test_verify_cache_needs_a_cache(project):
    project.write(
        {
            **PACKAGE,
            "contracts.toml": FORBIDDEN.replace(
                'source_roots = ["src"]', 'source_roots = ["src"]\ncache_dir = false'
            ),
        }
    )
    refused = project.check("--verify-cache")
    assert refused.returncode == 2
    assert "--verify-cache has no cache to verify: cache_dir is false" in refused.stderr
    both = project.check("--verify-cache", "--no-cache")
    assert both.returncode == 2 and "not allowed with argument" in both.stderr


# --------------------------------------------------------------------------- where the cache may
# write


@pytest.mark.parametrize(
    "value, why",
    [
        ('""', "'cache_dir' is empty: the cache would be this file's own directory"),
        (
            '"."',
            "'cache_dir' = '.' is this file's directory: the cache would mark it ignored by git",
        ),
        (
            '".."',
            "'cache_dir' = '..' is this file's directory or holds it: the cache would mark it "
            "ignored by git",
        ),
        (
            '"src"',
            "'cache_dir' = 'src' is the source root 'src': the cache would mark it ignored by git",
        ),
    ],
)
def test_a_cache_dir_that_would_cover_the_project_is_a_located_error(project, value, why):
    project.write(
        {
            **PACKAGE,
            "contracts.toml": FORBIDDEN.replace(
                'source_roots = ["src"]\n', f'source_roots = ["src"]\ncache_dir = {value}\n'
            ),
        }
    )
    before = sorted(p.name for p in project.root.iterdir())
    refused = project.check()
    assert refused.returncode == 2
    assert refused.stderr.startswith(
        f"contracts.toml:3: error: {why}\n  hint: give the cache a directory of its own"
    ), refused.stderr
    assert sorted(p.name for p in project.root.iterdir()) == before
    assert (
        not (project.root / ".gitignore").exists()
        and not (project.root / "src" / ".gitignore").exists()
    )


def test_links_in_the_cache_directory_are_replaced_never_followed(project, tmp_path_factory):
    project.write(BROKEN_PACKAGE)
    expected = project.check("--no-cache")
    project.check()
    outside = tmp_path_factory.mktemp("outside")
    (outside / "precious.txt").write_text("keep me\n")
    cache = project.root / ".layering_cache"
    manifest = cache / "manifest.marshal"
    manifest.unlink()
    manifest.symlink_to(outside / "precious.txt")
    (cache / ".gitignore").unlink()
    (cache / ".gitignore").symlink_to(outside / "dangling-gitignore")
    imports = cache / "grimp"
    for path in imports.iterdir():
        path.unlink()
    imports.rmdir()
    imports.symlink_to(outside, target_is_directory=True)
    for results in cache.glob("results-*.marshal"):
        results.unlink()
    again = project.check()
    assert (again.returncode, again.stdout) == (1, expected.stdout), again.stderr
    assert sorted(p.name for p in outside.iterdir()) == ["precious.txt"]
    assert (outside / "precious.txt").read_text() == "keep me\n"
    assert not manifest.is_symlink() and manifest.is_file()
    assert not imports.is_symlink() and (imports / "imports.marshal").is_file()
    assert (cache / ".gitignore").read_text() == "# created by layering\n*\n"


@pytest.mark.parametrize("torn", ["", "# created by layering\n", "# created by"])
def test_a_torn_cache_gitignore_is_written_again(project, torn):
    project.write(PACKAGE)
    project.check()
    gitignore = project.root / ".layering_cache" / ".gitignore"
    gitignore.write_text(torn)
    tag = project.root / ".layering_cache" / "CACHEDIR.TAG"
    tag.write_text(torn)
    assert project.check().returncode == 0
    assert gitignore.read_text() == "# created by layering\n*\n"
    assert tag.read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55\n")


def test_a_run_that_read_two_contents_of_a_file_keeps_no_verdict(project):
    # grimp reads mid.py before the save and the lines of its two statements are read after
    # it: the run's report mixes two contents, and a later run must not reuse it (the save
    # changed mid.py's imports elsewhere, which leaves the chains through it as they were).
    mid = "from app.lo import b\nfrom app import hi\n\n\ndef f():\n    from app.lo import b\n"
    project.write({**PACKAGE, "src/app/hi/a.py": "from app import mid\n", "src/app/mid.py": mid})
    saved = (
        "from app.lo import b\nfrom app.hi import (\n    a,\n)\n\n\ndef f():\n    from app.lo "
        "import b\n"
    )
    during = check_with_edit_during(
        project.root,
        "scanned",
        {str(project.root / "src/app/mid.py"): saved},
        read_first="app.mid",
    )
    assert during.returncode == 1, during.stderr
    report = same_as_uncached(project)
    assert "src/app/mid.py:8:" in report and "src/app/mid.py:1:" in report
