"""Read the import statements a module can run when it is executed, parsing only what holds them.

Import-time imports sit in a file's top-level statements, never in function bodies. The file
is cut into top-level statements (a line at column 0, outside a triple-quoted string, that is
not an `else`/`elif`/`except`/`finally` clause; decorators go with what they decorate). Only
the statements that hold the word `import` and are not a `def` are parsed, each on its own
with `ast`; in a class, the methods are blanked out first (their lines kept, so line numbers
hold). Where a piece does not parse alone (a line at column 0 inside brackets, say), the whole
file is parsed as `parse_imports` parses it, so a syntax error in a statement that can import
is reported where it is. One in a part that cannot (a function body) is not looked for: it
stops the module from importing at all, so nothing it would load is missed, and the other
checks (grimp's graph, the probe, the test suite) report it.
"""

from __future__ import annotations

import ast
import bisect
import functools
import re
from dataclasses import dataclass

from layering.adapters.source_facts import (
    RawImport,
    _ImportCollector,
    parse_imports,
    read_source,
)

_STRINGS = re.compile(
    r"#[^\n]*"
    r"|'''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''"
    r'|"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*"""'
    r"|'[^'\\\n]*(?:\\.[^'\\\n]*)*'"
    r'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"',
    re.S,
)
"""Comments and string literals (so that quotes inside one never open another)."""


@functools.cache
def _statement_start(indent: str) -> re.Pattern[str]:
    """A newline, then a line that begins a statement at exactly `indent` (clauses such as
    `else:` continue one). It starts with a literal newline, which `re` searches for fast."""
    return re.compile(
        "\n" + re.escape(indent) + r"(?![ \t\f\r\n#)\]}]|(?:else|elif|except|finally)\b)"
    )


_IMPORT_WORD = re.compile(r"import\b")
"""The keyword (a name ending in `import` is told apart by the character before it): without a
leading `\\b` the pattern starts with a literal, which `re` searches for fast."""
_FUNCTION = re.compile(r"(?:async[ \t]+)?def\b")
_CLASS = re.compile(r"class\b")
_INDENT = re.compile(r"[ \t]*")


def executed_imports(path: str, text: str | None = None) -> list[RawImport]:
    """The import statements of the file at `path` (whose text is `text` when the caller has
    it) outside function definitions, in source order of the statements that hold them."""
    if text is None:
        text = read_source(path)
    source = _Source(text)
    found: list[RawImport] = []
    for statement in source.statements_holding(_import_words(text)):
        if _FUNCTION.match(statement.undecorated):
            continue
        if _CLASS.match(statement.undecorated):
            piece = source.without_methods(statement)
            if not _import_words(piece):
                continue  # only its methods import
        else:
            piece = text[statement.begin : statement.end]
        try:
            tree = ast.parse(piece, filename=path)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return [raw for raw in parse_imports(path, text) if not raw.in_function]
        collector = _ImportCollector(line_offset=source.line_of(statement.begin) - 1)
        collector.visit(tree)
        found.extend(raw for raw in collector.imports if not raw.in_function)
    return found


def _import_words(text: str) -> list[int]:
    return [
        m.start()
        for m in _IMPORT_WORD.finditer(text)
        if not (m.start() and (text[m.start() - 1].isalnum() or text[m.start() - 1] == "_"))
    ]


@dataclass(frozen=True)
class _Statement:
    """Characters `begin` to `end` of the text; `undecorated` is its first line after
    decorators."""

    begin: int
    end: int
    undecorated: str


class _Source:
    """One file's text, with its triple-quoted strings found as far as a question needs."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._strings = _STRINGS.finditer(text)
        self._triple_quoted: list[tuple[int, int]] = []
        self._scanned = 0
        self._line = (0, 1)

    def line_of(self, offset: int) -> int:
        """The line of `offset`, counted on from the last one asked where possible."""
        known, line = self._line if self._line[0] <= offset else (0, 1)
        self._line = (offset, line + self.text.count("\n", known, offset))
        return self._line[1]

    def statements_holding(self, positions: list[int]) -> list[_Statement]:
        """The top-level statements that hold the given offsets (in order), each once."""
        starts = self._starts(0, len(self.text), "")
        found: list[_Statement] = []
        for position in positions:
            index = bisect.bisect_right(starts, position) - 1
            if (found and position < found[-1].end) or index < 0:
                continue  # before the first statement there are only comments and blank lines
            found.append(self._statement(starts, index, len(self.text), ""))
        return found

    def without_methods(self, statement: _Statement) -> str:
        """The class's text with each method (decorators included) blanked out but for a
        `pass` on its first line, so the class still parses and keeps its line numbers."""
        text = self.text
        body = self._first_indented_line(statement)
        if body < 0:
            return text[statement.begin : statement.end]
        found = _INDENT.match(text, body)
        assert found is not None  # `[ \t]*` matches at every position
        indent = found.group()
        starts = self._starts(body, statement.end, indent)
        pieces = []
        cursor = statement.begin
        index = 0
        while index < len(starts):
            member = self._statement(starts, index, statement.end, indent)
            if _FUNCTION.match(member.undecorated):
                pieces.append(text[cursor : member.begin])
                pieces.append(indent + "pass" + "\n" * text.count("\n", member.begin, member.end))
                cursor = member.end
            index = bisect.bisect_left(starts, member.end)
        pieces.append(text[cursor : statement.end])
        return "".join(pieces)

    def _first_indented_line(self, statement: _Statement) -> int:
        """Where the class's body begins: its first indented line of code; -1 if none."""
        text = self.text
        line = text.find("\n", statement.begin, statement.end) + 1
        while 0 < line < statement.end:
            following = text.find("\n", line, statement.end) + 1 or statement.end
            code = text[line:following].strip()
            if (
                text[line] in " \t"
                and code
                and not code.startswith("#")
                and not self._in_string(line)
            ):
                return line
            line = following
        return -1

    def _starts(self, begin: int, end: int, indent: str) -> list[int]:
        """Offsets of the lines between `begin` and `end` that may begin a statement at `indent`
        (those inside a triple-quoted string are set aside when a statement is asked for)."""
        pattern = _statement_start(indent)
        first = (
            [begin]
            if begin < end - len(indent)
            and pattern.match("\n" + self.text[begin : begin + len(indent) + 16])
            else []
        )
        return first + [
            m.start() + 1 for m in pattern.finditer(self.text, begin, end) if m.end() < end
        ]

    def _statement(self, starts: list[int], index: int, end: int, indent: str) -> _Statement:
        """The statement whose lines hold `starts[index]`: from its first decorator to the next
        statement (or `end`); `undecorated` is the line after the decorators."""
        while index > 0 and self._in_string(starts[index]):
            index -= 1
        while (
            index > 0
            and self._is_decorator(starts[index - 1], indent)
            and not self._in_string(starts[index - 1])
        ):
            index -= 1
        first = starts[index]
        following = self._next(starts, index)
        while following < len(starts) and self._is_decorator(starts[index], indent):
            index, following = following, self._next(starts, following)
        head = starts[index] + len(indent)
        last = starts[following] if following < len(starts) else end
        newline = self.text.find("\n", head, last)
        return _Statement(first, last, self.text[head : newline if newline >= 0 else last])

    def _next(self, starts: list[int], index: int) -> int:
        """The index of the next start after `index` that is not inside a string."""
        index += 1
        while index < len(starts) and self._in_string(starts[index]):
            index += 1
        return index

    def _is_decorator(self, start: int, indent: str) -> bool:
        return self.text.startswith("@", start + len(indent))

    def _in_string(self, offset: int) -> bool:
        """Whether `offset` lies inside a triple-quoted string (after its opening quotes)."""
        while self._scanned <= offset:
            match = next(self._strings, None)
            if match is None:
                self._scanned = len(self.text) + 1
                break
            self._scanned = match.end()
            if match.group().startswith(("'''", '"""')):
                self._triple_quoted.append(match.span())
        index = bisect.bisect_right(self._triple_quoted, (offset, len(self.text) + 1)) - 1
        return (
            index >= 0 and self._triple_quoted[index][0] < offset < self._triple_quoted[index][1]
        )
