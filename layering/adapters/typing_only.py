"""Which imports only annotations need, and annotations Python does not evaluate at run time.

An annotation is not evaluated when the module says `from __future__ import annotations`,
when it is a string (`def f(a: "Model")`), or when it annotates a local variable in a
function; a name used under `if TYPE_CHECKING:` or in a `type X = ...` alias is not evaluated
either. Every other use of a name runs: a default, a decorator, a base class, a `cast(A, x)`,
an annotation of a module, a class or a signature in a module without the `__future__`
import, and a name listed in `__all__`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from layering.adapters.source_facts import is_type_checking_test, parse_tree


def typing_only_imports(path: str, text: str) -> frozenset[tuple[int, str]]:
    """(line, name as written) of each name an import statement of the file binds that is
    used, and used only, where it is not evaluated (`from m import A`: `A`; `import a.b`:
    `a.b`). SourceUnreadable when the file is not Python this interpreter reads."""
    tree = parse_tree(path, text)
    reader = _NameUses(deferred=_defers_annotations(tree))
    reader.visit(tree)
    return frozenset(
        key
        for bound, keys in reader.bindings.items()
        if bound in reader.unevaluated and bound not in reader.evaluated
        for key in keys
    )


def _defers_annotations(tree: ast.Module) -> bool:
    return any(
        isinstance(node, ast.ImportFrom)
        and node.module == "__future__"
        and any(alias.name == "annotations" for alias in node.names)
        for node in tree.body
    )


class _NameUses(ast.NodeVisitor):
    """The names each import binds, and where each name is used: evaluated or not."""

    def __init__(self, deferred: bool) -> None:
        self.deferred = deferred
        self.bindings: dict[str, list[tuple[int, str]]] = {}
        self.evaluated: set[str] = set()
        self.unevaluated: set[str] = set()
        self._not_run = 0
        """Depth of constructs whose names are not evaluated (annotations, TYPE_CHECKING)."""
        self._in_function = 0

    def _bind(self, bound: str, line: int, written: str) -> None:
        self.bindings.setdefault(bound, []).append((line, written))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            bound = alias.asname or alias.name.partition(".")[0]
            self._bind(bound, getattr(alias, "lineno", node.lineno), alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            if alias.name != "*":
                bound = alias.asname or alias.name
                self._bind(bound, getattr(alias, "lineno", node.lineno), alias.name)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            (self.unevaluated if self._not_run else self.evaluated).add(node.id)

    def visit_Constant(self, node: ast.Constant) -> None:
        if self._not_run and isinstance(node.value, str):
            self._string_annotation(node.value)

    def _string_annotation(self, text: str) -> None:
        try:
            expression = ast.parse(text.strip(), mode="eval")
        except (SyntaxError, ValueError):
            return
        self._not_run += 1
        self.visit(expression)
        self._not_run -= 1

    def _annotation(self, node: ast.expr | None, evaluated: bool) -> None:
        if node is None:
            return
        if evaluated:
            # Strings inside an evaluated annotation (`list["Model"]`) are still not evaluated.
            for constant in _strings_in(node):
                self._string_annotation(constant)
            self._visit_outside_strings(node)
            return
        self._not_run += 1
        self.visit(node)
        self._not_run -= 1

    def _visit_outside_strings(self, node: ast.expr) -> None:
        for child in ast.walk(node):
            if isinstance(child, ast.Name):
                self.visit_Name(child)

    def _signature(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        evaluated = not self.deferred and not self._not_run
        arguments = node.args
        for argument in (
            *arguments.posonlyargs,
            *arguments.args,
            *arguments.kwonlyargs,
            *(a for a in (arguments.vararg, arguments.kwarg) if a is not None),
        ):
            self._annotation(argument.annotation, evaluated)
        self._annotation(node.returns, evaluated)
        for default in (*arguments.defaults, *(d for d in arguments.kw_defaults if d)):
            self.visit(default)
        for decorator in node.decorator_list:
            self.visit(decorator)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._function(node)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._signature(node)
        self._in_function += 1
        for statement in node.body:
            self.visit(statement)
        self._in_function -= 1

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        # A class body runs where it stands; a function's local annotations never do.
        saved, self._in_function = self._in_function, 0
        self.generic_visit(node)
        self._in_function = saved

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        evaluated = not (self.deferred or self._in_function or self._not_run)
        self._annotation(node.annotation, evaluated)
        self.visit(node.target)
        if node.value is not None:
            self.visit(node.value)

    def visit_If(self, node: ast.If) -> None:
        if not is_type_checking_test(node.test):
            self.generic_visit(node)
            return
        self._not_run += 1
        for statement in node.body:
            self.visit(statement)
        self._not_run -= 1
        for statement in node.orelse:
            self.visit(statement)

    def visit_TypeAlias(self, node: ast.AST) -> None:  # Python 3.12: `type X = ...`, lazy
        self._not_run += 1
        self.generic_visit(node)
        self._not_run -= 1

    def visit_Assign(self, node: ast.Assign) -> None:
        self.generic_visit(node)
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            self.evaluated.update(_strings_in(node.value))

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.generic_visit(node)
        if isinstance(node.target, ast.Name) and node.target.id == "__all__":
            self.evaluated.update(_strings_in(node.value))


def _strings_in(node: ast.AST) -> Iterator[str]:
    for child in ast.walk(node):
        if isinstance(child, ast.Constant) and isinstance(child.value, str):
            yield child.value
