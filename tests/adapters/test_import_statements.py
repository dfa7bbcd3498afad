"""`ImportStatements` reads one import statement at a time exactly as a whole-file parse does.

Reports locate a few statements per file without parsing it whole; these tests hold the fast
reading to the whole-file reading (`parse_imports`): on hand-written traps and on random
nestings of every kind of block, with strings, brackets and continuations that could mislead
a lexical pass.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from layering.adapters.source_facts import ImportStatements, parse_imports

TRAPS = '''
"""A module docstring that says
import not_an_import
"""
import os, sys; import json
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    from a import b
elif x:
    import c
else:
    import d
if typing.TYPE_CHECKING:
    import e
if not TYPE_CHECKING:
    import f
try:
    import g
except ImportError:
    import h
else:
    import i
finally:
    import j
for k in range(3):
    import l
else:
    import m
class N:
    import o
    def p(self):
        text = """
import q
def fake():
"""
        call(1,
2)
        import r
        value = 1 + \\
2
        from s import (
            t,
            u as v,
        )
    async def w(self):
        with x:
            from . import y
        while z:
            import aa
            break
        else:
            import ab
def ac():
    pass
import ad  # a comment with "quotes and (brackets
x = '(' ; import ae
'''


def _same(source: str, tmp_path: Path) -> None:
    path = tmp_path / "module.py"
    path.write_text(source, encoding="utf-8")
    whole = parse_imports(str(path))
    by_line: dict[int, list] = {}
    for raw in whole:
        by_line.setdefault(raw.first_line, []).append(raw)
    fast = ImportStatements(str(path))
    for line, raws in sorted(by_line.items()):
        assert fast.imports_at({line}) == raws, (line, raws)
    assert fast.imports_at({len(source.splitlines()) + 5}) == []


def test_traps(tmp_path: Path) -> None:
    _same(textwrap.dedent(TRAPS).lstrip(), tmp_path)


LINE_TRAPS = (
    "\x0c\n"  # a form feed: whitespace to Python, a line break to str.splitlines
    "import os\n"
    "import json\n"
    "# a comment with \x1c, \x1d, \x1e, \x85 and \u2028 in it\n"
    "import sys\n"
    "import re\n"
    "def f():\n"
    "\x0c    import ast\n"
    "    import abc\n"
    "from collections import (\n"
    "    OrderedDict,  # \u2029\n"
    "    deque,\n"
    ")\n"
    "import io\n"
)


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
def test_lines_are_numbered_as_python_numbers_them(tmp_path: Path, newline: str) -> None:
    """A line ends where Python's tokenizer ends one (LF, CRLF or a lone CR), not at every
    character `str.splitlines` splits at: else each statement after a form feed is read
    from the line above it, with that line's names."""
    path = tmp_path / "module.py"
    path.write_bytes(LINE_TRAPS.replace("\n", newline).encode("utf-8"))
    whole = parse_imports(str(path))
    assert [(raw.first_line, raw.module or raw.names[0].name) for raw in whole] == [
        (2, "os"),
        (3, "json"),
        (5, "sys"),
        (6, "re"),
        (8, "ast"),
        (9, "abc"),
        (10, "collections"),
        (14, "io"),
    ]
    for raw in whole:  # each asked first: a whole-file parse, once made, answers the rest
        assert ImportStatements(str(path)).imports_at({raw.first_line}) == [raw], raw


def test_statements_that_start_their_line_are_read_without_parsing_the_whole_file(
    tmp_path: Path,
) -> None:
    path = tmp_path / "module.py"
    path.write_text(textwrap.dedent(TRAPS).lstrip(), encoding="utf-8")
    lines = path.read_text(encoding="utf-8").splitlines()
    plain = {
        raw.first_line
        for raw in parse_imports(str(path))
        if lines[raw.first_line - 1].lstrip().startswith(("import", "from"))
    }
    fast = ImportStatements(str(path))
    assert len(fast.imports_at(plain)) >= len(plain)
    assert fast._whole is None  # `x = '(' ; import ae` would need it


HEADERS = [
    "def f{n}():",
    "async def f{n}():",
    "class C{n}:",
    "if TYPE_CHECKING:",
    "if typing.TYPE_CHECKING:",
    "if x{n}:",
    "for i{n} in y:",
    "while w{n}:",
    "with m{n}:",
    "try:",
]
# The clauses a block may have, in the order Python wants them; `try` always has its except.
CLAUSES = {
    "if": ["elif TYPE_CHECKING:", "elif z:", "else:"],
    "try": ["else:", "finally:"],
    "for": ["else:"],
    "while": ["else:"],
}
# "\x01" marks a line that stays at column 0 however deep its block is: a string's or a
# bracket's continuation, which a lexical pass must not read as the end of a block.
NOISE = [
    's = """\n\x01import fake{n}\n\x01  def nope():\n\x01"""',
    "call(a,\n\x010)",
    "v = 1 + \\\n\x012",
    "t = '#(' + \"[\"",
    "# import commented{n}",
    "d = {{\n\x01'k': (1,\n\x012)}}",
]


@st.composite
def blocks(draw, depth: int = 0) -> list[str]:
    """Random statements: imports, noise that misleads a lexical pass, nested blocks."""
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        n = draw(st.integers(0, 99))
        kind = draw(
            st.sampled_from(
                ["import", "from", "noise", "block"] if depth < 3 else ["import", "from", "noise"]
            )
        )
        if kind == "import":
            lines.append(
                f"import m{n}" + draw(st.sampled_from(["", ", m2", "; import m3", " as alias"]))
            )
        elif kind == "from":
            lines.append(
                draw(
                    st.sampled_from(
                        [
                            f"from p{n} import q",
                            f"from . import (\n    a{n},\n    b,\n)",
                            f"from .. import \\\n    c{n}",
                        ]
                    )
                )
            )
        elif kind == "noise":
            lines.append(draw(st.sampled_from(NOISE)).format(n=n))
        else:
            header = draw(st.sampled_from(HEADERS)).format(n=n)
            lines.append(header)
            lines.extend(_indented(["pass", *draw(blocks(depth + 1))]))
            keyword = header.split()[0].rstrip(":")
            clauses = CLAUSES.get(keyword, [])
            chosen = (
                draw(st.lists(st.sampled_from(clauses), max_size=2, unique=True))
                if clauses
                else []
            )
            for clause in (["except E:"] if keyword == "try" else []) + sorted(
                chosen, key=clauses.index
            ):
                lines.append(clause)
                lines.extend(_indented(["pass", *draw(blocks(depth + 1))]))
    return lines


def _indented(lines: list[str]) -> list[str]:
    return [
        part if part.startswith("\x01") else "    " + part
        for text in lines
        for part in text.split("\n")
    ]


@settings(max_examples=200, deadline=None)
@given(body=blocks())
def test_random_nestings_read_as_the_whole_file_reads_them(tmp_path_factory, body):
    source = "\n".join(body).replace("\x01", "") + "\n"
    note(source)
    compile(source, "<random>", "exec")  # the generator writes only valid Python
    _same(source, tmp_path_factory.mktemp("random"))
