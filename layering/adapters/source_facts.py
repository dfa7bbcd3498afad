"""Read import statements, with their names, lines and scope, from one source file with `ast`.

grimp keeps neither imported names nor the lines of a multi-line import after the first, so
name-level rules and reports read the files they need here, and only those.
"""

from __future__ import annotations

import ast
import io
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
        return data.decode(encoding)
    except (SyntaxError, UnicodeDecodeError, LookupError) as error:
        line = getattr(error, "lineno", None) or _line_of_bad_byte(data, error)
        raise SourceUnreadable(path, line, f"is not valid source text ({_reason(error)})") from None


def _line_of_bad_byte(data: bytes, error: Exception) -> int:
    start = getattr(error, "start", None)
    return data[:start].count(b"\n") + 1 if isinstance(start, int) else 0


def _reason(error: Exception) -> str:
    return getattr(error, "reason", None) or getattr(error, "msg", None) or str(error)


def parse_imports(path: str, text: str | None = None) -> list[RawImport]:
    """Every import statement of the file at `path`, in source order."""
    if text is None:
        text = read_source(path)
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as error:
        raise SourceUnreadable(path, error.lineno or 0, f"syntax error: {error.msg}") from None
    except ValueError as error:
        raise SourceUnreadable(path, 0, str(error)) from None
    collector = _ImportCollector()
    collector.visit(tree)
    return collector.imports


def _is_type_checking_test(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    if isinstance(test, ast.Attribute):
        return test.attr == "TYPE_CHECKING"
    return False


class _ImportCollector(ast.NodeVisitor):
    """Walks a module keeping a stack of enclosing scopes."""

    def __init__(self) -> None:
        self.imports: list[RawImport] = []
        self._scopes: list[Scope] = []

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
        names = tuple(
            RawName(alias.name, getattr(alias, "lineno", node.lineno)) for alias in node.names
        )
        self.imports.append(
            RawImport(
                is_from=is_from,
                module=node.module if is_from else None,  # type: ignore[union-attr]
                level=node.level if is_from else 0,  # type: ignore[union-attr]
                names=names,
                first_line=node.lineno,
                last_line=node.end_lineno or node.lineno,
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
