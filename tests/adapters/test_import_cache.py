"""The import cache: what grimp read of each file, kept by the file's content digest."""

from __future__ import annotations

import marshal
import sys
from pathlib import Path

import pytest

from layering.adapters import grimp_scan
from layering.adapters.import_cache import FILE_NAME, FORMAT, ImportCache
from layering.adapters.package_files import find_package_files
from layering.adapters.result_cache import hashed_file


def write_package(root: Path) -> None:
    files = {
        "app/__init__.py": "",
        "app/a.py": "from app import b\nimport json\n",
        "app/b.py": "from app import c\n",
        "app/c.py": "X = 1\n",
        "app/d.py": "from app.a import *\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


@pytest.fixture
def scans(monkeypatch):
    """The modules each scan of the run asked grimp's scanner for."""
    asked: list[set[str]] = []
    internals = grimp_scan._internals()
    real = internals.scan

    def recording(module_files, packages, **options):
        asked.append({mf.module.name for mf in module_files})
        return real(module_files, packages, **options)

    monkeypatch.setattr(internals, "scan", recording)
    return asked


def edges(graph) -> set[tuple[str, str]]:
    return {(m, t) for m in graph.modules for t in graph.find_modules_directly_imported_by(m)}


def build(root: Path, cache: Path):
    files = find_package_files(("app",), (str(root),))
    digests = {module: hashed_file(path)[0] for module, path in files.files.items()}
    return grimp_scan.scan_graph(files, False, False, str(cache), digests)


def test_an_unchanged_file_is_not_scanned_again_whatever_its_time(tmp_path, scans):
    write_package(tmp_path)
    cache = tmp_path / "cache"
    cache.mkdir()
    first = build(tmp_path, cache)
    assert scans == [{"app", "app.a", "app.b", "app.c", "app.d"}]
    for path in (tmp_path / "app").glob("*.py"):  # a fresh checkout: every file rewritten
        path.write_bytes(path.read_bytes())
    (tmp_path / "app/c.py").write_text("from app import d\n")
    second = build(tmp_path, cache)
    assert scans[1:] == [{"app.c"}]
    assert edges(second) == edges(first) | {("app.c", "app.d")}
    assert edges(second) == edges(
        grimp_scan.scan_graph(find_package_files(("app",), (str(tmp_path),)), False, False, None)
    )


def test_a_file_written_by_another_grimp_is_empty_not_damaged(tmp_path):
    ImportCache(str(tmp_path), "grimp 1.0").write(
        {"app.a": ("d", "s", (("app.b", 1, "from app import b", False),))}
    )
    assert ImportCache(str(tmp_path), "grimp 1.0").load() == {
        "app.a": ("d", "s", (("app.b", 1, "from app import b", False),))
    }
    other = ImportCache(str(tmp_path), "grimp 2.0")
    assert other.load() == {}
    assert not other.damaged
    assert [p.name for p in tmp_path.iterdir()] == [FILE_NAME]  # no temporary file left behind


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"garbage",
        b"\xe3\x00\x00\x00",
        marshal.dumps([1, 2]),
        marshal.dumps(((FORMAT, sys.version, "grimp 1.0"), {"app.a": 3})),
        None,
    ],
)
def test_a_damaged_file_is_empty_and_said(tmp_path, content):
    path = tmp_path / FILE_NAME
    if content is None:
        path.mkdir()  # a directory where the file should be
    else:
        path.write_bytes(content)
    cache = ImportCache(str(tmp_path), "grimp 1.0")
    assert cache.load() == {}
    assert cache.damaged
    cache.write({})
    assert ImportCache(str(tmp_path), "grimp 1.0").load() == {}
    assert path.is_file()
