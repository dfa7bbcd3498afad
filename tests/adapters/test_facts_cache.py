"""`FactsCache`: a reading kept and read back is the reading, on real files; a file's kept
readings follow its bytes; a damaged store is a warning and a miss."""

from __future__ import annotations

import os
import sysconfig
import time
from pathlib import Path

import pytest

from layering.adapters import facts_cache
from layering.adapters.executed_imports import executed_imports
from layering.adapters.facts_cache import FactsCache
from layering.adapters.source_facts import (
    module_bindings,
    module_exports,
    parse_imports,
    parse_name_uses,
    read_source,
    top_level_names,
)
from layering.adapters.typing_only import typing_only_imports
from layering.domain.errors import SourceUnreadable

READERS = (
    parse_imports,
    executed_imports,
    parse_name_uses,
    module_bindings,
    module_exports,
    top_level_names,
    typing_only_imports,
)


def _real_files() -> list[str]:
    """layering's own modules and some of the standard library's: every form a reader meets."""
    own = Path(facts_cache.__file__).parent.parent
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    files = sorted(str(p) for p in own.rglob("*.py"))
    # The largest (_pydecimal.py, _pyio.py: 100-230 KB each) add time, not forms.
    files += [str(p) for p in sorted(stdlib.glob("*.py")) if p.stat().st_size < 40_000][:40]
    return files


def _read(read, path: str):
    try:
        return ("read", read(path, read_source(path)))
    except SourceUnreadable as unreadable:
        return ("unreadable", unreadable.line, unreadable.reason)


def _kept(cache: FactsCache, read, path: str):
    try:
        return ("read", cache.facts(path, read))
    except SourceUnreadable as unreadable:
        return ("unreadable", unreadable.line, unreadable.reason)


def test_every_reading_read_back_from_the_store_is_the_reading(tmp_path: Path) -> None:
    files = _real_files()
    assert len(files) > 100
    expected = {(read, path): _read(read, path) for path in files for read in READERS}
    first = FactsCache(str(tmp_path))
    for (read, path), reading in expected.items():
        assert _kept(first, read, path) == reading, (read.__name__, path)
    assert first.save(lambda: files) == []
    again = FactsCache(str(tmp_path))
    for (read, path), reading in expected.items():
        assert _shape(_kept(again, read, path)) == _shape(reading), (read.__name__, path)


def _shape(value: object) -> object:
    """`value` with the type of every part in it (equal tuples of other named types differ),
    its sets sorted."""
    if isinstance(value, (frozenset, set)):
        return (type(value).__name__, sorted((_shape(v) for v in value), key=repr))
    if isinstance(value, dict):
        return ("dict", sorted(((k, _shape(v)) for k, v in value.items()), key=repr))
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, [_shape(v) for v in value])
    return (type(value).__name__, value)


def _modules(imports) -> list[str]:
    return [r.module or r.names[0].name for r in imports]


def _package(tmp_path: Path) -> Path:
    source = tmp_path / "m.py"
    source.write_text("import os\nfrom json import dumps\n", encoding="utf-8")
    old = time.time() - 3600
    os.utime(source, (old, old))
    return source


def test_an_edit_the_stamp_cannot_show_is_read_by_its_bytes(tmp_path: Path) -> None:
    source = _package(tmp_path)
    cache_dir = tmp_path / "cache"
    first = FactsCache(str(cache_dir))
    assert _modules(first.facts(str(source), parse_imports)) == ["os", "json"]
    first.save(lambda: [str(source)])
    stamp = os.stat(source)
    source.write_text("import re\nfrom json import dumps\n", encoding="utf-8")  # same size
    os.utime(source, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # the time set back
    again = FactsCache(str(cache_dir))
    assert _modules(again.facts(str(source), parse_imports)) == ["re", "json"]


def test_a_refusal_is_kept_for_its_test_only(tmp_path: Path) -> None:
    source = _package(tmp_path)

    class Spells:
        def __init__(self, word: str) -> None:
            self.word = word

        @property
        def key(self) -> tuple[object, ...]:
            return (self.word,)

        def __call__(self, text: str) -> bool:
            return self.word in text

    cache = FactsCache(str(tmp_path / "cache"))
    assert cache.facts_if(str(source), parse_name_uses, Spells("nowhere")) is None
    assert cache.facts_if(str(source), parse_name_uses, Spells("dumps")) == []


def test_a_damaged_store_is_said_once_and_written_anew(tmp_path: Path) -> None:
    source = _package(tmp_path)
    cache_dir = tmp_path / "cache"
    first = FactsCache(str(cache_dir))
    first.facts(str(source), parse_imports)
    assert first.save(lambda: [str(source)]) == []
    store = cache_dir / facts_cache.FILE
    data = bytearray(store.read_bytes())
    data[-1] ^= 0xFF
    store.write_bytes(bytes(data))
    damaged = FactsCache(str(cache_dir))
    assert _modules(damaged.facts(str(source), parse_imports)) == ["os", "json"]
    [warning] = damaged.save(lambda: [str(source)])
    assert "facts.marshal could not be read" in warning
    assert FactsCache(str(cache_dir)).save(lambda: [str(source)]) == []


@pytest.mark.parametrize("text", ["def (:\n", "x = '\0'\n"])
def test_a_file_this_python_cannot_read_is_kept_as_unreadable(tmp_path: Path, text: str) -> None:
    source = tmp_path / "bad.py"
    source.write_text(text, encoding="utf-8")
    cache = FactsCache(str(tmp_path / "cache"))
    expected = _read(parse_imports, str(source))
    assert expected[0] == "unreadable"
    assert _kept(cache, parse_imports, str(source)) == expected
    cache.save(lambda: [str(source)])
    assert _kept(FactsCache(str(tmp_path / "cache")), parse_imports, str(source)) == expected
