"""Read import statements, with their names, lines and scope, from one source file with `ast`.

grimp keeps neither imported names nor the lines of a multi-line import after the first, so
name-level rules and reports read the files they need here, and only those.
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
from dataclasses import dataclass

from layering.domain.facts import Scope


@dataclass(frozen=True)
class RawName:
    """One alias of an import statement: `name` (dotted for `import a.b`) at its own line."""

    name: str
    line: int


@dataclass(frozen=True)
class RawImport:
    """One import statement as written, before its module is resolved against the package."""

    is_from: bool
    module: str | None
    level: int
    names: tuple[RawName, ...]
    first_line: int
    last_line: int
    scope: Scope
    in_function: bool
    type_checking: bool
    lazy: bool


class SourceUnreadable(Exception):
    """The file cannot be read as Python source; `line` is 0 where no line applies."""

    def __init__(self, path: str, line: int, reason: str) -> None:
        super().__init__(f"{path}:{line}: {reason}" if line else f"{path}: {reason}")
        self.path = path
        self.line = line
        self.reason = reason


def read_source(path: str) -> str:
    """The file's text, decoded the way Python decodes source (BOM and coding cookie honoured)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise SourceUnreadable(path, 0, f"cannot be read ({error.strerror})") from None
    if b"\0" in data:
        line = data[: data.index(b"\0")].count(b"\n") + 1
        raise SourceUnreadable(path, line, "contains a NUL byte; Python cannot import it")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        raise _undecodable(path, data, error) from None
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        bad = data[error.start : error.start + 1].hex()
        raise SourceUnreadable(path, line, f"is not valid {encoding} text (byte 0x{bad}); save it as {encoding}") from None


_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")


def _undecodable(path: str, data: bytes, error: SyntaxError) -> SourceUnreadable:
    """Why `tokenize.detect_encoding` refused the file, on the line that is at fault."""
    lines = data.splitlines()[:2]
    for number, text in enumerate(lines, start=1):
        cookie = _COOKIE.match(text)
        if cookie:
            name = cookie.group(1).decode("ascii", "replace")
            if "unknown encoding" in str(error):
                return SourceUnreadable(path, number, f"declares an unknown encoding '{name}'; name a known one or save it as UTF-8")
            return SourceUnreadable(path, number, f"is not valid {name} text; save it as {name}")
        if number == 1 and text.strip() and not text.lstrip().startswith(b"#"):
            break  # a cookie counts on line 2 only below a comment line
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as bad:
        line = data[: bad.start].count(b"\n") + 1
        byte = data[bad.start : bad.start + 1].hex()
        return SourceUnreadable(
            path, line,
            f"is not UTF-8 (byte 0x{byte}) and declares no encoding; save it as UTF-8 or add a '# -*- coding: ... -*-' line",
        )
    return SourceUnreadable(path, 1, f"is not valid source text ({_reason(error)})")


def _reason(error: BaseException) -> str:
    return getattr(error, "reason", None) or getattr(error, "msg", None) or str(error)


def parse_imports(path: str, text: str | None = None) -> list[RawImport]:
    """Every import statement of the file at `path`, in source order."""
    if text is None:
        text = read_source(path)
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as error:
        version = f"{sys.version_info[0]}.{sys.version_info[1]}"
        raise SourceUnreadable(path, error.lineno or 1, f"syntax error: {error.msg} (read as Python {version})") from None
    except (ValueError, RecursionError, MemoryError) as error:
        raise SourceUnreadable(path, 1, f"cannot be parsed ({_reason(error) or type(error).__name__})") from None
    collector = _ImportCollector()
    collector.visit(tree)
    return collector.imports


# Statements (and clauses) that hold other statements; every other statement cannot hold an import.
_COMPOUND = tuple(
    getattr(ast, name)
    for name in (
        "FunctionDef", "AsyncFunctionDef", "ClassDef", "If", "For", "AsyncFor", "While", "With",
        "AsyncWith", "Try", "TryStar", "Match", "ExceptHandler", "match_case",
    )
    if hasattr(ast, name)
)


_CLAUSE = re.compile(r"(else|elif|except|finally|case)\b")


class SourceRegions:
    """One file's import statements, parsed region by region as lines are asked for.

    Only the top-level statements that hold the asked lines are parsed (a report about a few
    imports of a large file does not pay for the whole file); where a region cannot be parsed
    on its own (a line at column 0 inside a string, say), the whole file is.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.text = read_source(path)
        self.source = self.text.splitlines(keepends=True)
        self.parsed: set[int] = set()
        self.imports: dict[int, RawImport] = {}

    def imports_at(self, lines: "set[int] | frozenset[int]") -> list[RawImport]:
        """The import statements that start on `lines`, as `parse_imports` reads them."""
        for line in sorted(lines):
            if line in self.parsed or not 1 <= line <= len(self.source):
                continue
            start, end = _top_level_region(self.source, line)
            try:
                tree = ast.parse("".join(self.source[start - 1 : end]), filename=self.path)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                self._parse_whole_file()
                break
            collector = _ImportCollector(line_offset=start - 1)
            collector.visit(tree)
            self.imports.update((raw.first_line, raw) for raw in collector.imports)
            self.parsed.update(range(start, end + 1))
        return [self.imports[line] for line in sorted(lines) if line in self.imports]

    def _parse_whole_file(self) -> None:
        self.imports = {raw.first_line: raw for raw in parse_imports(self.path, self.text)}
        self.parsed = set(range(1, len(self.source) + 1))


def _starts_statement(text: str) -> bool:
    """Whether a line begins a top-level statement (a guess the parse then confirms)."""
    return bool(text) and not text[0].isspace() and text[0] not in "#)]}" and not _CLAUSE.match(text)


def _top_level_region(source: list[str], line: int) -> tuple[int, int]:
    """First and last line of the top-level statement (decorators included) holding `line`."""
    start = line
    while start > 1 and not _starts_statement(source[start - 1]):
        start -= 1
    while start > 1 and source[start - 2].startswith("@"):
        start -= 1
    end = line
    while end < len(source) and not (_starts_statement(source[end]) and not source[end].startswith("@")):
        end += 1
    return start, end


def _is_type_checking_test(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    if isinstance(test, ast.Attribute):
        return test.attr == "TYPE_CHECKING"
    return False


class _ImportCollector(ast.NodeVisitor):
    """Walks a module keeping a stack of enclosing scopes."""

    def __init__(self, line_offset: int = 0) -> None:
        self.imports: list[RawImport] = []
        self._scopes: list[Scope] = []
        self._offset = line_offset

    def generic_visit(self, node: ast.AST) -> None:
        """Import statements sit only in statement bodies: expressions are never walked, which
        keeps a file with a huge expression from exhausting the recursion limit."""
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            children = getattr(node, field, None)
            if isinstance(children, list):
                for child in children:
                    if isinstance(child, ast.Import):
                        self._record(child, is_from=False)
                    elif isinstance(child, ast.ImportFrom):
                        self._record(child, is_from=True)
                    elif isinstance(child, _COMPOUND):
                        self.visit(child)

    def _enter(self, scope: Scope, nodes: list[ast.stmt]) -> None:
        self._scopes.append(scope)
        for node in nodes:
            self.visit(node)
        self._scopes.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._enter(Scope.FUNCTION, node.body)

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._enter(Scope.CLASS, node.body)

    def visit_If(self, node: ast.If) -> None:
        if _is_type_checking_test(node.test):
            self._enter(Scope.TYPE_CHECKING, node.body)
            for child in node.orelse:
                self.visit(child)
        else:
            self.generic_visit(node)

    def visit_Try(self, node: ast.Try) -> None:
        blocks: list[ast.stmt] = [*node.body, *node.orelse, *node.finalbody]
        for handler in node.handlers:
            blocks.extend(handler.body)
        self._enter(Scope.TRY, blocks)

    visit_TryStar = visit_Try  # type: ignore[assignment]

    def _record(self, node: ast.Import | ast.ImportFrom, is_from: bool) -> None:
        scopes = self._scopes
        offset = self._offset
        names = tuple(
            RawName(alias.name, getattr(alias, "lineno", node.lineno) + offset) for alias in node.names
        )
        self.imports.append(
            RawImport(
                is_from=is_from,
                module=node.module if is_from else None,  # type: ignore[union-attr]
                level=node.level if is_from else 0,  # type: ignore[union-attr]
                names=names,
                first_line=node.lineno + offset,
                last_line=(node.end_lineno or node.lineno) + offset,
                scope=scopes[-1] if scopes else Scope.MODULE,
                in_function=Scope.FUNCTION in scopes,
                type_checking=Scope.TYPE_CHECKING in scopes,
                lazy=bool(getattr(node, "is_lazy", False)),
            )
        )

    def visit_Import(self, node: ast.Import) -> None:
        self._record(node, is_from=False)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        self._record(node, is_from=True)
