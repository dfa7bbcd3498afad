"""Read import statements, with their names, lines and scope, from one source file with `ast`.

grimp keeps neither imported names nor the lines of a multi-line import after the first, so
name-level rules and reports read the files they need here, and only those.
"""

from __future__ import annotations

import ast
import bisect
import io
import itertools
import re
import sys
import tokenize
from array import array
from collections.abc import Callable, Iterator
from typing import NamedTuple

from layering.domain.errors import SourceUnreadable
from layering.domain.facts import NameUse, Scope


class RawName(NamedTuple):
    """One alias of an import statement: `name` (dotted for `import a.b`) at its own line."""

    name: str
    line: int


class RawImport(NamedTuple):
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
    conditional: bool = False
    """Inside a branch that may not run: an `if` (not `if TYPE_CHECKING:`), a loop, a `match`,
    or a `try` body, handler or `else` (never its `finally`)."""


def read_source(path: str) -> str:
    """The file's text, decoded the way Python decodes source (BOM and coding cookie honoured)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise SourceUnreadable(path, 0, f"cannot be read ({error.strerror})") from None
    return decoded_source(path, data)


def decoded_source(path: str, data: bytes) -> str:
    """The bytes of the file at `path` decoded as Python decodes source; SourceUnreadable,
    located, where Python could not."""
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
        raise SourceUnreadable(
            path, line, f"is not valid {encoding} text (byte 0x{bad}); save it as {encoding}"
        ) from None


_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")


def _undecodable(path: str, data: bytes, error: SyntaxError) -> SourceUnreadable:
    """Why `tokenize.detect_encoding` refused the file, on the line that is at fault."""
    lines = data.splitlines()[:2]
    for number, text in enumerate(lines, start=1):
        cookie = _COOKIE.match(text)
        if cookie:
            name = cookie.group(1).decode("ascii", "replace")
            if "unknown encoding" in str(error):
                return SourceUnreadable(
                    path,
                    number,
                    f"declares an unknown encoding '{name}'; name a known one or save it as UTF-8",
                )
            return SourceUnreadable(path, number, f"is not valid {name} text; save it as {name}")
        if number == 1 and text.strip() and not text.lstrip().startswith(b"#"):
            break  # a cookie counts on line 2 only below a comment line
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as bad:
        line = data[: bad.start].count(b"\n") + 1
        byte = data[bad.start : bad.start + 1].hex()
        return SourceUnreadable(
            path,
            line,
            f"is not UTF-8 (byte 0x{byte}) and declares no encoding; save it as UTF-8 or add a '# "
            "-*- coding: ... -*-' line",
        )
    return SourceUnreadable(path, 1, f"is not valid source text ({_reason(error)})")


def _reason(error: BaseException) -> str:
    return getattr(error, "reason", None) or getattr(error, "msg", None) or str(error)


def parse_imports(path: str, text: str | None = None) -> list[RawImport]:
    """Every import statement of the file at `path`, in source order."""
    collector = _ImportCollector()
    collector.visit(parse_tree(path, text))
    return collector.imports


def parse_tree(path: str, text: str | None) -> ast.Module:
    """The file's syntax tree; SourceUnreadable, located, when it is not Python this one reads."""
    if text is None:
        text = read_source(path)
    try:
        return ast.parse(text, filename=path)
    except SyntaxError as error:
        version = f"{sys.version_info[0]}.{sys.version_info[1]}"
        raise SourceUnreadable(
            path, error.lineno or 1, f"syntax error: {error.msg} (read as Python {version})"
        ) from None
    except (ValueError, RecursionError, MemoryError) as error:
        raise SourceUnreadable(
            path, 1, f"cannot be parsed ({_reason(error) or type(error).__name__})"
        ) from None


# Statements (and clauses) that hold other statements; every other statement cannot hold an import.
_COMPOUND = tuple(
    getattr(ast, name)
    for name in (
        "FunctionDef",
        "AsyncFunctionDef",
        "ClassDef",
        "If",
        "For",
        "AsyncFor",
        "While",
        "With",
        "AsyncWith",
        "Try",
        "TryStar",
        "Match",
        "ExceptHandler",
        "match_case",
    )
    if hasattr(ast, name)
)


# Strings and comments, so that a lexical pass can blank them out: brackets, quotes and line
# ends inside them never count.
_STRING_OR_COMMENT = re.compile(
    r"#[^\n]*"
    r"|[rRbBuUfFtT]{0,2}(?:\"\"\"(?:\\.|[^\\])*?\"\"\"|'\'\'(?:\\.|[^\\])*?'\'\'"
    r"|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*')",
    re.DOTALL,
)
_IMPORT_START = re.compile(r"(?:import|from)\b")
_LONGEST_STATEMENT = 200  # lines a module-level import statement read alone may span
_HEADER = re.compile(
    r"(?:async\s+)?(def|class|if|elif|else|try|except|finally|for|while|with|match|case)\b"
)
_TYPE_CHECKING_TEST = re.compile(r"(?:if|elif)\s+(?:[A-Za-z_][A-Za-z0-9_]*\.)*TYPE_CHECKING\s*:")


class SourceLines:
    """A source text's lines as Python numbers them. A line ends at LF, CRLF or a lone CR, as
    Python's tokenizer ends one; `str.splitlines` also ends one at a form feed, `\\x1c` to
    `\\x1e`, `\\x85` and `\\u2028`/`\\u2029`, which would number every later line too high.

    Holds the text and each line's length (4 bytes a line), not a string per line: a report
    reads a few lines of each file it shows, and sympy's reads hundreds of files (24 MiB as
    lists of line strings, most of the run's memory over the graph's)."""

    def __init__(self, text: str) -> None:
        self.text = text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text
        # _ends[k] is the length of lines 1..k (their line breaks left out): line k + 1 starts
        # at _ends[k] + k
        self._ends = array("I", itertools.accumulate(map(len, self.text.split("\n")), initial=0))
        self._count = 0 if not self.text else len(self._ends) - 1 - self.text.endswith("\n")

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index: int) -> str:
        """Line `index + 1` (as a list of the lines would give it), without its line break."""
        if not 0 <= index < self._count:
            raise IndexError(index)
        return self.text[self._ends[index] + index : self._ends[index + 1] + index]

    def between(self, first: int, last: int) -> str:
        """Lines `first` to `last` (1-based, both included), joined by LF."""
        return self.text[self._ends[first - 1] + first - 1 : self._ends[last] + last - 1]


class ImportStatements:
    """One file's import statements, read one at a time at the lines grimp names.

    A report shows a handful of statements of a file; parsing the whole file for them costs
    more than the rest of the report. A lexical pass over the file (strings, comments,
    brackets) tells where logical lines start; the statement at a line is parsed alone, and its
    scope is read from the block headers above it, as `parse_imports` sets it. Where the line
    is not a plain import statement (`if x: import y`, `lazy import`), or its text does not
    read as one, the whole file is parsed instead.
    """

    def __init__(self, path: str, text: str | None = None) -> None:
        """The statements of the file at `path`, whose text is `text` when the caller has it."""
        self.path = path
        self.lines = SourceLines(read_source(path) if text is None else text)
        self.text = self.lines.text
        self._starts: array[int] | None = None
        self._whole: dict[int, list[RawImport]] | None = None
        self._found: dict[int, list[RawImport]] = {}
        self._indents: dict[int, int] = {}

    def imports_at(self, lines: set[int] | frozenset[int]) -> list[RawImport]:
        """The import statements that start on `lines`, as `parse_imports` reads them."""
        found = []
        for line in sorted(lines):
            if line not in self._found:
                self._found[line] = (
                    self._statements(line) if self._whole is None else self._whole.get(line, [])
                )
            found.extend(self._found[line])
        return found

    def _statements(self, line: int) -> list[RawImport]:
        """The statements of the logical line at `line` (`import a; import b` has two)."""
        if not 1 <= line <= len(self.lines) or not _IMPORT_START.match(
            self.lines[line - 1].lstrip()
        ):
            return self._from_whole_file(line)
        if _IMPORT_START.match(self.lines[line - 1]):
            return self._module_level(line)
        starts = self._logical_starts()
        index = bisect.bisect_left(starts, line)
        if index == len(starts) or starts[index] != line:
            return self._from_whole_file(line)
        end = starts[index + 1] - 1 if index + 1 < len(starts) else len(self.lines)
        text = self.lines.between(line, end).lstrip()
        return self._read_alone(
            text,
            line,
            lambda: _ImportCollector(
                line - 1, self._scopes(index, starts), self._conditional(index, starts)
            ),
        )

    def _module_level(self, line: int) -> list[RawImport]:
        """A statement at column 0 (where grimp found one) is at module level, in no block, so
        no lexical pass is needed: an import statement holds no string, so its end is where
        its brackets close (comments aside) on a line that does not end with a backslash."""
        depth = 0
        for end in range(line, min(len(self.lines), line + _LONGEST_STATEMENT) + 1):
            code = self.lines[end - 1].partition("#")[0]
            depth += code.count("(") - code.count(")")
            if depth <= 0 and not code.rstrip().endswith("\\"):
                break
        text = self.lines.between(line, end)
        return self._read_alone(text, line, lambda: _ImportCollector(line - 1))

    def _read_alone(
        self, text: str, line: int, collector: Callable[[], _ImportCollector]
    ) -> list[RawImport]:
        """The statements of `text`, the logical line at `line` read alone; the whole file is
        parsed instead when it does not read as import statements only."""
        try:
            tree = ast.parse(text, filename=self.path)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return self._from_whole_file(line)
        if not tree.body or not all(
            isinstance(node, (ast.Import, ast.ImportFrom)) for node in tree.body
        ):
            return self._from_whole_file(line)
        reader = collector()
        reader.visit(tree)
        return reader.imports

    def _from_whole_file(self, line: int) -> list[RawImport]:
        if self._whole is None:
            self._whole = {}
            for raw in parse_imports(self.path, self.text):
                self._whole.setdefault(raw.first_line, []).append(raw)
        return self._whole.get(line, [])

    def _logical_starts(self) -> array[int]:
        """The lines (1-based) on which a logical line begins, blank and comment lines aside.

        Strings and comments are blanked out first (a line inside a string is marked with a NUL,
        so it never starts anything); then a line starts a logical line when no bracket is open
        and the line before does not end with a backslash."""
        if self._starts is None:
            cleaned = _STRING_OR_COMMENT.sub(_blank, self.text)
            starts = array("I")
            depth = 0
            continued = False
            for number, line in enumerate(cleaned.split("\n"), start=1):
                if depth == 0 and not continued and not line.startswith("\0") and line.strip():
                    starts.append(number)
                depth = max(
                    0,
                    depth
                    + line.count("(")
                    + line.count("[")
                    + line.count("{")
                    - line.count(")")
                    - line.count("]")
                    - line.count("}"),
                )
                continued = line.rstrip().endswith("\\")
            self._starts = starts
        return self._starts

    def _indent(self, line: int) -> int:
        """The indentation of a line; remembered, since walking out of a deep block reads the
        lines above it again for every statement in it."""
        indent = self._indents.get(line)
        if indent is None:
            text = self.lines[line - 1].expandtabs(8)
            indent = self._indents[line] = len(text) - len(text.lstrip())
        return indent

    def _keyword(self, line: int) -> str:
        found = _HEADER.match(self.lines[line - 1].lstrip())
        return found.group(1) if found else ""

    def _headers(self, index: int, starts: array[int]) -> Iterator[tuple[int, int, str]]:
        """The headers of the blocks that hold `starts[index]`, innermost first: for each, the
        index in `starts` just before it, its indentation and its keyword."""
        need = self._indent(starts[index])
        position = index - 1
        while need > 0 and position >= 0:
            header = starts[position]
            indent = self._indent(header)
            position -= 1
            if indent < need:
                yield position, indent, self._keyword(header)
                need = indent

    def _scopes(self, index: int, starts: array[int]) -> list[Scope]:
        """The scopes `_ImportCollector` has entered at `starts[index]`, outermost first, read
        from the headers of the blocks that hold it."""
        scopes: list[Scope] = []
        for position, indent, word in self._headers(index, starts):
            if word in ("except", "finally") or (
                word == "else" and self._owner(position, indent, starts) in ("try", "except")
            ):
                scopes.append(Scope.TRY)
            elif word == "try":
                scopes.append(Scope.TRY)
            elif word == "def":
                scopes.append(Scope.FUNCTION)
            elif word == "class":
                scopes.append(Scope.CLASS)
            elif word in ("if", "elif") and _TYPE_CHECKING_TEST.match(
                self.lines[starts[position + 1] - 1].lstrip()
            ):
                scopes.append(Scope.TYPE_CHECKING)
        return scopes[::-1]

    def _conditional(self, index: int, starts: array[int]) -> bool:
        """Whether a block that holds `starts[index]` may not run, as `_ImportCollector` marks
        it: a loop, `match`, `try` (not `finally`), or an `if` chain with a test other than
        `TYPE_CHECKING` up to the clause that holds it."""
        return any(
            word in ("for", "while", "match", "case", "try", "except")
            or (
                word in ("if", "elif", "else") and self._branching_clause(position, indent, starts)
            )
            for position, indent, word in self._headers(index, starts)
        )

    def _branching_clause(self, position: int, indent: int, starts: array[int]) -> bool:
        """Whether the `if`/`elif`/`else` clause at `starts[position + 1]` makes its body
        conditional: the `else` of a loop or a `try`, or a clause of an `if` chain one of whose
        tests up to it is not `TYPE_CHECKING`."""
        if self._keyword(starts[position + 1]) == "else" and self._owner(
            position, indent, starts
        ) not in ("if", "elif"):
            return True
        while position + 1 >= 0:
            header = starts[position + 1]
            if self._indent(header) == indent:
                word = self._keyword(header)
                if word in ("if", "elif") and not _TYPE_CHECKING_TEST.match(
                    self.lines[header - 1].lstrip()
                ):
                    return True
                if word not in ("elif", "else"):
                    return False
            position -= 1
        return False

    def _owner(self, position: int, indent: int, starts: array[int]) -> str:
        """The statement an `else` clause at `indent` (above `starts[position + 1]`) belongs to."""
        while position >= 0:
            header = starts[position]
            here = self._indent(header)
            if here < indent:
                break
            if here == indent:
                word = self._keyword(header)
                if word in ("try", "except", "if", "elif", "for", "while"):
                    return word
                if word not in ("else", "finally"):
                    break
            position -= 1
        return ""


def _blank(match: re.Match[str]) -> str:
    """A string or comment as the lexical pass sees it: one character (none for a comment),
    and each line it goes on to marked with a NUL."""
    text = match.group()
    return ("" if text.startswith("#") else "_") + "\n\0" * text.count("\n")


def is_type_checking_test(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    if isinstance(test, ast.Attribute):
        return test.attr == "TYPE_CHECKING"
    return False


class _ImportCollector(ast.NodeVisitor):
    """Walks a module keeping a stack of enclosing scopes (`scopes`: those it is already in,
    for a statement read alone)."""

    def __init__(
        self, line_offset: int = 0, scopes: list[Scope] | None = None, conditional: bool = False
    ) -> None:
        self.imports: list[RawImport] = []
        self._scopes: list[Scope] = list(scopes or ())
        self._offset = line_offset
        self._branches = int(conditional)

    def generic_visit(self, node: ast.AST) -> None:
        """Import statements sit only in statement bodies: expressions are never walked, which
        keeps a file with a huge expression from exhausting the recursion limit."""
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            children = getattr(node, field, None)
            if isinstance(children, list):
                for child in children:
                    if isinstance(child, (ast.Import, ast.ImportFrom)):
                        self._record(child)
                    elif isinstance(child, _COMPOUND):
                        self.visit(child)

    def _enter(self, scope: Scope, nodes: list[ast.stmt]) -> None:
        self._scopes.append(scope)
        for node in nodes:
            self.visit(node)
        self._scopes.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._enter(Scope.FUNCTION, node.body)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._enter(Scope.CLASS, node.body)

    def visit_If(self, node: ast.If) -> None:
        if is_type_checking_test(node.test):
            self._enter(Scope.TYPE_CHECKING, node.body)
            for child in node.orelse:
                self.visit(child)
        else:
            self._visit_branches(node)

    def _visit_branches(self, node: ast.AST) -> None:
        self._branches += 1
        self.generic_visit(node)
        self._branches -= 1

    visit_For = visit_AsyncFor = visit_While = visit_Match = _visit_branches

    def visit_Try(self, node: ast.Try) -> None:
        blocks: list[ast.stmt] = [*node.body, *node.orelse]
        for handler in node.handlers:
            blocks.extend(handler.body)
        self._branches += 1
        self._enter(Scope.TRY, blocks)
        self._branches -= 1
        self._enter(Scope.TRY, node.finalbody)

    # typeshed's NodeVisitor.visit_TryStar (Python 3.11+) takes an ast.TryStar, which has
    # ast.Try's fields; checked as 3.10, there is no such method to disagree with
    visit_TryStar = visit_Try  # type: ignore[assignment, unused-ignore]

    def _record(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.ImportFrom):
            is_from, module, level = True, node.module, node.level
        else:
            is_from, module, level = False, None, 0
        scopes = self._scopes
        offset = self._offset
        names = tuple(
            RawName(alias.name, getattr(alias, "lineno", node.lineno) + offset)
            for alias in node.names
        )
        self.imports.append(
            RawImport(
                is_from=is_from,
                module=module,
                level=level,
                names=names,
                first_line=node.lineno + offset,
                last_line=(node.end_lineno or node.lineno) + offset,
                scope=scopes[-1] if scopes else Scope.MODULE,
                in_function=Scope.FUNCTION in scopes,
                type_checking=Scope.TYPE_CHECKING in scopes,
                lazy=bool(getattr(node, "is_lazy", False)),
                conditional=self._branches > 0,
            )
        )

    def visit_Import(self, node: ast.Import) -> None:
        self._record(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        self._record(node)


class RawBinding(NamedTuple):
    """What an import statement bound a local name to.

    `import a.b` binds `a` to module `a`; `import a.b as m` binds `m` to module `a.b`;
    `from .x import y as m` binds `m` to `y` of `.x` (`module="x"`, `level=1`, `name="y"`),
    which may be a module or not: only resolving it against the package tells.
    """

    module: str | None
    level: int = 0
    name: str | None = None


class RawNameUse(NamedTuple):
    """A name read on a module imported whole, before the module is resolved.

    `binding` is the import behind the expression's first name, or None for a dotted string
    (`mock.patch("pkg.mod.name")`); `attributes` are the names read after it, each at its own
    line: `m.sub.NAME` gives `(sub, NAME)`, `getattr(m, "NAME")` gives `(NAME,)`.
    """

    binding: RawBinding | None
    attributes: tuple[RawName, ...]
    use: NameUse
    scope: Scope
    in_function: bool
    type_checking: bool


class ModuleBindings(NamedTuple):
    """The names a module binds at module level, read statically.

    `complete` is False where the source cannot tell: a star import, a module-level
    `__getattr__`, a call of `globals()`.
    """

    names: frozenset[str]
    complete: bool


def parse_name_uses(path: str, text: str | None = None) -> list[RawNameUse]:
    """Every name the file reads on a module it imported whole: attributes, getattr, patches.

    Scoping is Python's, simplified: an alias bound by an import in a function holds in that
    function (and the functions nested in it); a parameter, an assignment or a loop variable
    of the same name in a function hides an outer alias; where a scope both imports a name and
    assigns it, the import wins (a fallback such as `except ImportError: mod = None`).
    """
    return _NameUseFinder().find(parse_tree(path, text))


def module_bindings(path: str, text: str | None = None) -> ModuleBindings:
    """The names the file binds at module level: assignments, defs, classes, imports, `global`s."""
    tree = parse_tree(path, text)
    names = set(_scope_bindings(tree.body))
    complete = "__getattr__" not in names
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            names.update(node.names)
        elif isinstance(node, ast.ImportFrom) and any(alias.name == "*" for alias in node.names):
            complete = False
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "globals"
        ):
            complete = False
    return ModuleBindings(frozenset(names), complete)


class TopLevelNames(NamedTuple):
    """How a file binds each of its top-level names, read statically, for following re-exports.

    `defined`: bound there by a def, a class or an assignment (and not only by imports);
    `whole`: bound only by `import a.b [as m]` to a module; `taken`: bound only by `from D
    import N [as name]`, all of one name of one module. A name bound by imports of different
    things is in none of them. `complete` is False where another name may be bound unseen (a
    star import, a module-level `__getattr__`, `globals()`).
    """

    defined: frozenset[str]
    whole: frozenset[str]
    taken: dict[str, RawBinding]
    complete: bool


def top_level_names(path: str, text: str | None = None) -> TopLevelNames:
    """The top-level names of the file (module-level statements, `if`, `try` and `with` blocks
    included; function and class bodies not) and how each is bound."""
    tree = parse_tree(path, text)
    defined: set[str] = set()
    bound_by: dict[str, set[RawBinding]] = {}
    complete = True
    pending: list[ast.AST] = list(reversed(tree.body))
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.partition(".")[0]
                module = alias.name if alias.asname else bound
                bound_by.setdefault(bound, set()).add(RawBinding(module))
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name == "*":
                    complete = False
                else:
                    binding = RawBinding(node.module, node.level, alias.name)
                    bound_by.setdefault(alias.asname or alias.name, set()).add(binding)
        elif isinstance(node, ast.Global):
            defined.update(node.names)
        else:
            defined.update(_bound_names(node))
        pending.extend(
            reversed(
                [
                    child
                    for field in ("body", "handlers", "orelse", "finalbody", "cases")
                    for child in getattr(node, field, None) or ()
                ]
            )
        )
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            defined.update(node.names)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "globals"
        ):
            complete = False
    if "__getattr__" in defined:
        complete = False
    whole, taken = set(), {}
    for name, bindings in bound_by.items():
        if name in defined or len(bindings) > 1:
            continue
        (binding,) = bindings
        if binding.name is None:
            whole.add(name)
        else:
            taken[name] = binding
    return TopLevelNames(frozenset(defined), frozenset(whole), taken, complete)


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_LEAVES = (
    ast.Name,
    ast.Constant,
    ast.expr_context,
    ast.operator,
    ast.cmpop,
    ast.unaryop,
    ast.boolop,
    ast.Import,
    ast.ImportFrom,
    ast.Pass,
)


def _scope_bindings(
    body: list[ast.stmt], arguments: ast.arguments | None = None
) -> dict[str, RawBinding | None]:
    """The names one scope binds, each to the first import that binds it there (None where no
    import does: a parameter, an assignment, a def); names declared `global` or `nonlocal`
    are left to the enclosing scopes. Only statements are walked (an assignment expression
    inside an expression does not count), which keeps this fast on large files."""
    local: dict[str, RawBinding | None] = {}
    imported: dict[str, RawBinding] = {}
    outer: set[str] = set()
    if arguments is not None:
        every = (
            *arguments.posonlyargs,
            *arguments.args,
            arguments.vararg,
            *arguments.kwonlyargs,
            arguments.kwarg,
        )
        local.update((arg.arg, None) for arg in every if arg is not None)
    pending: list[ast.AST] = list(reversed(body))
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            local[node.name] = None
            continue  # a body of its own scope
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.partition(".")[0]
                imported.setdefault(bound, RawBinding(alias.name if alias.asname else bound))
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name != "*":
                    imported.setdefault(
                        alias.asname or alias.name, RawBinding(node.module, node.level, alias.name)
                    )
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            outer.update(node.names)
        else:
            local.update((name, None) for name in _bound_names(node))
        inside = [
            child
            for field in ("body", "handlers", "orelse", "finalbody", "cases")
            for child in getattr(node, field, None) or ()
        ]
        pending.extend(reversed(inside))
    local.update(imported)
    for name in outer:
        local.pop(name, None)
    return local


def _bound_names(node: ast.AST) -> list[str]:
    """The names one statement (or clause) binds: its targets, `as` names and match captures."""
    if isinstance(node, (ast.Assign, ast.Delete)):
        targets = node.targets
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)):
        targets = [node.target]
    elif isinstance(node, (ast.With, ast.AsyncWith)):
        targets = [item.optional_vars for item in node.items if item.optional_vars is not None]
    elif isinstance(node, ast.ExceptHandler):
        return [node.name] if node.name else []
    elif isinstance(node, ast.match_case):
        return [
            capture
            for pattern in ast.walk(node.pattern)
            for capture in (getattr(pattern, "name", None), getattr(pattern, "rest", None))
            if capture
        ]
    else:
        return []
    return [
        name.id
        for target in targets
        for name in ast.walk(target)
        if isinstance(name, ast.Name)
        and not isinstance(name.ctx, ast.Load)  # `mod.X = 1` binds no name
    ]


class _Context(NamedTuple):
    """The scopes around a node: each frame's bindings (class frames are seen only from their
    own body, as in Python), and the constructs the node sits in."""

    frames: tuple[tuple[bool, dict[str, RawBinding | None]], ...]
    scopes: tuple[Scope, ...] = ()

    def lookup(self, name: str) -> RawBinding | None:
        last = len(self.frames) - 1
        for position in range(last, -1, -1):
            is_class, bindings = self.frames[position]
            if (not is_class or position == last) and name in bindings:
                return bindings[name]
        return None

    def inner(
        self,
        bindings: dict[str, RawBinding | None],
        scope: Scope | None = None,
        is_class: bool = False,
    ) -> _Context:
        scopes = self.scopes if scope is None else (*self.scopes, scope)
        return _Context((*self.frames, (is_class, bindings)), scopes)


def _attribute_chain(node: ast.expr) -> tuple[ast.expr, tuple[RawName, ...]]:
    """`a.b.c` as its base expression `a` and the names read on it, each at its own line."""
    names = []
    while isinstance(node, ast.Attribute):
        names.append(RawName(node.attr, node.end_lineno or node.lineno))
        node = node.value
    return node, tuple(reversed(names))


def _dotted_string(node: ast.expr) -> tuple[str, ...] | None:
    """The parts of a constant such as `"pkg.mod.name"`, as patch targets are written."""
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return None
    parts = tuple(node.value.split("."))
    return parts if len(parts) > 1 and all(part.isidentifier() for part in parts) else None


def _called_name(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def _is_patch(node: ast.expr) -> bool:
    """`patch` or `<anything>.patch`: `mock.patch`, `unittest.mock.patch`, `mocker.patch`."""
    return (isinstance(node, ast.Name) and node.id == "patch") or (
        isinstance(node, ast.Attribute) and node.attr == "patch"
    )


class _NameUseFinder:
    """Walks a module without recursion (a huge expression cannot exhaust the stack), keeping
    the scopes each node sits in, and records each name read on an imported module."""

    def __init__(self) -> None:
        self.uses: list[RawNameUse] = []

    def find(self, tree: ast.Module) -> list[RawNameUse]:
        module = _Context(((False, _scope_bindings(tree.body)),))
        pending: list[tuple[ast.AST, _Context]] = [(node, module) for node in tree.body]
        while pending:
            node, context = pending.pop()
            pending.extend(self._visit(node, context))
        return self.uses

    def _visit(self, node: ast.AST, context: _Context) -> list[tuple[ast.AST, _Context]]:
        """Record what `node` itself uses; return its children, each with its own context."""
        if isinstance(node, _LEAVES):
            return []
        if isinstance(node, ast.Attribute):
            base, names = _attribute_chain(node)
            if isinstance(base, ast.Name):
                self._record(context.lookup(base.id), names, NameUse.ATTRIBUTE, context)
                return []
            return [(base, context)]
        if isinstance(node, ast.Call):
            self._call(node, context)
            return [(child, context) for child in ast.iter_child_nodes(node)]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            body = context.inner(_scope_bindings(node.body, node.args), Scope.FUNCTION)
            around = [*node.decorator_list, node.args, *([node.returns] if node.returns else [])]
            return [(n, context) for n in around] + [(n, body) for n in node.body]
        if isinstance(node, ast.ClassDef):
            body = context.inner(_scope_bindings(node.body), Scope.CLASS, is_class=True)
            around = [*node.decorator_list, *node.bases, *node.keywords]
            return [(n, context) for n in around] + [(n, body) for n in node.body]
        if isinstance(node, ast.Lambda):
            return [
                (node.args, context),
                (node.body, context.inner(_scope_bindings([], node.args))),
            ]
        if isinstance(node, _COMPREHENSIONS):
            targets = {
                n.id: None
                for g in node.generators
                for n in ast.walk(g.target)
                if isinstance(n, ast.Name)
            }
            inner = context.inner(dict(targets))
            return [(child, inner) for child in ast.iter_child_nodes(node)]
        if isinstance(node, ast.If) and is_type_checking_test(node.test):
            guarded = _Context(context.frames, (*context.scopes, Scope.TYPE_CHECKING))
            return [
                (node.test, context),
                *((n, guarded) for n in node.body),
                *((n, context) for n in node.orelse),
            ]
        return [(child, context) for child in ast.iter_child_nodes(node)]

    def _call(self, node: ast.Call, context: _Context) -> None:
        called, args = _called_name(node), node.args
        if called == "getattr" and isinstance(node.func, ast.Name) and len(args) >= 2:
            self._on_module(args[0], args[1], NameUse.GETATTR, context)
        elif called in ("setattr", "delattr") and args:
            parts = _dotted_string(args[0]) if isinstance(node.func, ast.Attribute) else None
            if parts:
                self._record_string(parts, args[0].lineno, context)
            elif len(args) >= 2:
                self._on_module(args[0], args[1], NameUse.PATCH, context)
        elif called == "patch" and args:
            parts = _dotted_string(args[0])
            if parts:
                self._record_string(parts, args[0].lineno, context)
        elif (
            called == "object"
            and isinstance(node.func, ast.Attribute)
            and _is_patch(node.func.value)
            and len(args) >= 2
        ):
            self._on_module(args[0], args[1], NameUse.PATCH, context)

    def _on_module(
        self, target: ast.expr, name: ast.expr, use: NameUse, context: _Context
    ) -> None:
        """`getattr(target, "name")` and the like, where `target` may be an imported module."""
        if not (
            isinstance(name, ast.Constant)
            and isinstance(name.value, str)
            and name.value.isidentifier()
        ):
            return
        base, names = _attribute_chain(target)
        if isinstance(base, ast.Name):
            self._record(
                context.lookup(base.id), (*names, RawName(name.value, name.lineno)), use, context
            )

    def _record_string(self, parts: tuple[str, ...], line: int, context: _Context) -> None:
        self._append(None, tuple(RawName(part, line) for part in parts), NameUse.PATCH, context)

    def _record(
        self,
        binding: RawBinding | None,
        names: tuple[RawName, ...],
        use: NameUse,
        context: _Context,
    ) -> None:
        if binding is not None and names:
            self._append(binding, names, use, context)

    def _append(
        self,
        binding: RawBinding | None,
        names: tuple[RawName, ...],
        use: NameUse,
        context: _Context,
    ) -> None:
        scopes = context.scopes
        self.uses.append(
            RawNameUse(
                binding=binding,
                attributes=names,
                use=use,
                scope=scopes[-1] if scopes else Scope.MODULE,
                in_function=Scope.FUNCTION in scopes,
                type_checking=Scope.TYPE_CHECKING in scopes,
            )
        )


class RawExports(NamedTuple):
    """What a module's own source says of its `__all__` (`module_exports`): the literal names,
    the other modules' `__all__` it adds (each the line, the binding of the name it starts
    from and the attributes read on it before `.__all__`), the line of its first binding (0:
    none), and the line and what could not be read statically."""

    names: tuple[str, ...] = ()
    others: tuple[tuple[int, RawBinding, tuple[str, ...]], ...] = ()
    line: int = 0
    unreadable: tuple[int, str] | None = None


class _NotStatic(Exception):
    def __init__(self, line: int, reason: str) -> None:
        super().__init__(reason)
        self.line = line
        self.reason = reason


def module_exports(path: str, text: str | None = None) -> RawExports:
    """`__all__` as the module's top-level statements build it: `__all__ = ...`, `+=`,
    `.extend(...)` and `.append("...")` of literal lists or tuples of strings and of other
    modules' `__all__` (`from .fields import __all__ as fields_all`, `aggregates.__all__`).
    Any other binding of `__all__`, anywhere in the file, is unreadable at its line."""
    tree = parse_tree(path, text)
    bindings: dict[str, RawBinding] = {}
    names: list[str] = []
    others: list[tuple[int, RawBinding, tuple[str, ...]]] = []
    first = 0
    read: set[int] = set()
    try:
        for node in tree.body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        bindings[alias.asname] = RawBinding(alias.name)
                    else:
                        top = alias.name.partition(".")[0]
                        bindings[top] = RawBinding(top)
                continue
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if alias.name != "*":
                        bindings[alias.asname or alias.name] = RawBinding(
                            node.module, node.level, alias.name
                        )
                continue
            value, replace = _all_statement(node)
            if value is None:
                continue
            read.add(id(node))
            if replace:
                names, others = [], []
            first = first or node.lineno
            _add_exports(value, bindings, names, others)
        for child in ast.walk(tree):
            if id(child) in read or not isinstance(child, ast.stmt):
                continue
            if _binds_all(child):
                raise _NotStatic(
                    child.lineno, "__all__ is bound here in a way not read statically"
                )
    except _NotStatic as error:
        return RawExports(line=first or error.line, unreadable=(error.line, error.reason))
    return RawExports(tuple(names), tuple(others), first)


def _all_statement(node: ast.stmt) -> tuple[ast.expr | None, bool]:
    """(the value added to `__all__`, whether it replaces it) of a top-level statement."""
    if (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id == "__all__"
    ):
        return node.value, True
    if (
        isinstance(node, ast.AnnAssign)
        and isinstance(node.target, ast.Name)
        and node.target.id == "__all__"
        and node.value is not None
    ):
        return node.value, True
    if (
        isinstance(node, ast.AugAssign)
        and isinstance(node.op, ast.Add)
        and isinstance(node.target, ast.Name)
        and node.target.id == "__all__"
    ):
        return node.value, False
    if (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Attribute)
        and isinstance(node.value.func.value, ast.Name)
        and node.value.func.value.id == "__all__"
        and node.value.func.attr in ("extend", "append")
        and len(node.value.args) == 1
        and not node.value.keywords
    ):
        argument = node.value.args[0]
        if node.value.func.attr == "append":
            return ast.List(elts=[argument], ctx=ast.Load(), lineno=node.lineno), False
        return argument, False
    return None, False


def _binds_all(node: ast.stmt) -> bool:
    """Whether a statement not read as one of `__all__`'s changes it all the same (its own
    expressions, not the statements nested in it, which are looked at alone)."""
    stack = list(ast.iter_child_nodes(node))
    while stack:
        child = stack.pop()
        if isinstance(child, ast.stmt):
            continue
        if isinstance(child, ast.Name) and child.id == "__all__":
            if isinstance(child.ctx, (ast.Store, ast.Del)):
                return True
        if (
            isinstance(child, ast.Attribute)
            and isinstance(child.value, ast.Name)
            and child.value.id == "__all__"
            and child.attr in _CHANGES_A_LIST
        ):
            return True
        stack.extend(ast.iter_child_nodes(child))
    return False


_CHANGES_A_LIST = frozenset(
    {"append", "extend", "insert", "remove", "pop", "clear", "__iadd__", "__setitem__"}
)


def _add_exports(
    value: ast.expr,
    bindings: dict[str, RawBinding],
    names: list[str],
    others: list[tuple[int, RawBinding, tuple[str, ...]]],
) -> None:
    line = getattr(value, "lineno", 0)
    if isinstance(value, (ast.List, ast.Tuple)):
        for element in value.elts:
            if not (isinstance(element, ast.Constant) and isinstance(element.value, str)):
                raise _NotStatic(
                    getattr(element, "lineno", line), "an entry of __all__ is not a string literal"
                )
            names.append(element.value)
        return
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
        _add_exports(value.left, bindings, names, others)
        _add_exports(value.right, bindings, names, others)
        return
    if isinstance(value, ast.Name):
        binding = bindings.get(value.id)
        if binding is None or binding.name != "__all__":
            raise _NotStatic(line, f"'{value.id}' is not another module's __all__ imported here")
        others.append((line, binding._replace(name=None), ()))
        return
    if isinstance(value, ast.Attribute) and value.attr == "__all__":
        attributes: list[str] = []
        owner = value.value
        while isinstance(owner, ast.Attribute):
            attributes.insert(0, owner.attr)
            owner = owner.value
        if isinstance(owner, ast.Name) and owner.id in bindings:
            others.append((line, bindings[owner.id], tuple(attributes)))
            return
    raise _NotStatic(line, "__all__ is not built of string literals and other modules' __all__")
