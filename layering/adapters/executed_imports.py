"""Read the import statements a module can run when it is executed, parsing only what holds them.

Import-time imports sit in a file's top-level statements, never in function bodies. The file
is cut into top-level statements (a line at column 0, outside a triple-quoted string, that is
not an `else`/`elif`/`except`/`finally` clause; decorators go with what they decorate). Only
the statements that hold the word `import` and are not a `def` are parsed, each on its own
with `ast`; in a class, the methods are blanked out first (their lines kept, so line numbers
hold). Where a piece does not parse alone (a line at column 0 inside brackets, say), the whole
file is parsed as `parse_imports` parses it, so a syntax error in an import statement is
reported where it is. A syntax error inside a function body is not looked for: importing the
module would fail there, after the imports before it ran.
"""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass

from layering.adapters.source_facts import RawImport, _ImportCollector, parse_imports, read_source

_STRINGS = re.compile(
    r"#[^\n]*"
    r"|'''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''"
    r'|"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*"""'
    r"|'[^'\\\n]*(?:\\.[^'\\\n]*)*'"
    r'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"',
    re.S,
)
"""Comments and string literals (so that quotes inside one never open another)."""

@functools.lru_cache(maxsize=None)
def _statement_start(indent: str) -> re.Pattern[str]:
    """Lines that begin a statement at exactly `indent` (clauses such as `else:` continue one)."""
    return re.compile("^" + re.escape(indent) + r"(?![ \t\f\r\n#)\]}]|(?:else|elif|except|finally)\b)", re.M)


_IMPORT_WORD = re.compile(r"\bimport\b")
_FUNCTION = re.compile(r"(?:async[ \t]+)?def\b")
_CLASS = re.compile(r"class\b")


def executed_imports(path: str) -> list[RawImport]:
    """The import statements of the file outside function definitions, in source order of
    the statements that hold them."""
    text = read_source(path)
    source = _Source(text)
    found: list[RawImport] = []
    for statement in source.statements(0, len(text), ""):
        if _FUNCTION.match(statement.undecorated) or not _IMPORT_WORD.search(text, statement.begin, statement.end):
            continue
        piece = source.without_methods(statement) if _CLASS.match(statement.undecorated) else text[statement.begin : statement.end]
        if not _IMPORT_WORD.search(piece):
            continue
        try:
            tree = ast.parse(piece, filename=path)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return [raw for raw in parse_imports(path, text) if not raw.in_function]
        collector = _ImportCollector(line_offset=source.line_of(statement.begin) - 1)
        collector.visit(tree)
        found.extend(raw for raw in collector.imports if not raw.in_function)
    return found


@dataclass(frozen=True)
class _Statement:
    """Characters `begin` to `end` of the text; `undecorated` is its first line after decorators."""

    begin: int
    end: int
    undecorated: str


class _Source:
    def __init__(self, text: str) -> None:
        self.text = text
        self.triple_quoted = [m.span() for m in _STRINGS.finditer(text) if m.group().startswith(("'''", '"""'))]

    def line_of(self, offset: int) -> int:
        return self.text.count("\n", 0, offset) + 1

    def statements(self, begin: int, end: int, indent: str) -> list[_Statement]:
        """The statements at `indent` between `begin` and `end` (the first one from `begin`)."""
        starts = [
            match.start()
            for match in _statement_start(indent).finditer(self.text, begin, end)
            if match.end() < end and not self._in_string(match.start())
        ]
        statements = []
        index = 0
        while index < len(starts):
            first = starts[index] if statements else begin
            while self.text.startswith("@", starts[index] + len(indent)) and index + 1 < len(starts):
                index += 1
            head = starts[index] + len(indent)
            last = starts[index + 1] if index + 1 < len(starts) else end
            newline = self.text.find("\n", head, last)
            statements.append(_Statement(first, last, self.text[head : newline if newline >= 0 else last]))
            index += 1
        return statements

    def without_methods(self, statement: _Statement) -> str:
        """The class's text with each method (decorators included) blanked out but for a
        `pass` on its first line, so the class still parses and keeps its line numbers."""
        text = self.text
        body = text.find("\n", statement.begin, statement.end) + 1
        indent = re.match(r"[ \t]*", text[body : statement.end]).group() if body else ""
        while body and body < statement.end and (not indent or text[body : body + 1] in "#\n" or self._in_string(body)):
            body = text.find("\n", body, statement.end) + 1
            indent = re.match(r"[ \t]*", text[body : statement.end]).group() if body else ""
        if not body or not indent:
            return text[statement.begin : statement.end]
        pieces = [text[statement.begin : body]]
        for member in self.statements(body, statement.end, indent):
            chunk = text[member.begin : member.end]
            if _FUNCTION.match(member.undecorated):
                blank = "\n" * chunk.count("\n")
                chunk = f"{indent}pass" + blank if blank else f"{indent}pass"
            pieces.append(chunk)
        return "".join(pieces)

    def _in_string(self, offset: int) -> bool:
        """Whether `offset` lies inside a triple-quoted string (after its opening quotes)."""
        low, high = 0, len(self.triple_quoted)
        while low < high:
            middle = (low + high) // 2
            if self.triple_quoted[middle][1] <= offset:
                low = middle + 1
            else:
                high = middle
        return low < len(self.triple_quoted) and self.triple_quoted[low][0] < offset
