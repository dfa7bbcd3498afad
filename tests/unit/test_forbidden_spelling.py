"""A direct `forbidden` contract parses only the files whose import statements spell one of its
forbidden modules' last names (`forbidden._Spells`): that must never pass over a file that
imports one. Checked on real files against every module each import statement names."""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest

import layering
from layering.adapters.source_facts import parse_imports, read_source
from layering.contracts.forbidden import _Spells
from layering.domain.errors import SourceUnreadable


def _files() -> list[Path]:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    own = Path(layering.__file__).parent
    return (
        sorted(own.rglob("*.py"))
        + sorted(stdlib.glob("*.py"))
        + sorted((stdlib / "email").rglob("*.py"))
    )


def _spelled_names(raw) -> set[str]:
    """The last name of each module a statement may import, as far as the statement itself
    spells it (a relative import's packages above the file are not written)."""
    written = [*(raw.module or "").split(".")] if raw.module else []
    names = set()
    for alias in raw.names:
        if alias.name == "*":
            continue
        parts = written + alias.name.split(".")
        names.update(parts)
    names.update(p for p in written if p)
    return names


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_every_module_a_statement_names_is_spelled_where_the_filter_looks(path: Path) -> None:
    try:
        text = read_source(str(path))
        imports = parse_imports(str(path), text)
    except SourceUnreadable:
        pytest.skip("not Python this interpreter reads")
    for raw in imports:
        for name in sorted(_spelled_names(raw)):
            assert _Spells((name,))(text), (raw, name)


@pytest.mark.parametrize(
    ("text", "spelled"),
    [
        ("import pkg.http\n", True),
        ("from pkg import (\n    a,\n    http,\n)\n", True),
        ("from a import b, \\\n    http\n", True),
        ("import os; import http\n", True),
        ("from ..http import x\n", True),
        ('x = "http"\n# http\nimport os\n', False),
        ("from pkg.httpx import y\n", False),
        ("def http():\n    import os\n", False),
    ],
)
def test_the_filter_reads_import_statements_only(text: str, spelled: bool) -> None:
    assert _Spells(("http",))(text) is spelled
