"""The edits the benchmark makes to copies of the corpora, located with `ast` so the code stays
valid.

* `remove_imports`: replace import statements by `pass` (to check that a reported cut really
  keeps a contract);
* `edit_function_body`: add a statement to a function body, leaving the imports as they were
  (workload d1);
* `append_import`: add an internal import at the end of a module (workload d2);
* `middle_module_with_function`: the module those two edits change, chosen deterministically.

Offsets from `ast` count bytes, so every edit works on the file's bytes.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

EDIT_MARK = b"pass  # edited by bench/run.py"


@dataclass(frozen=True)
class ImportToRemove:
    """One import of a module pair, as the JSON report's `cut` names it."""

    path: Path
    importer: str
    imported: str
    lines: tuple[int, ...]


def module_name(package_dir: Path, path: Path) -> str:
    """`a.b.c` for `<parent of package_dir>/a/b/c.py`, `a.b` for `a/b/__init__.py`."""
    parts = list(path.relative_to(package_dir.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(
    node: ast.Import | ast.ImportFrom, importer: str, importer_is_package: bool
) -> set[str]:
    """Every module the statement can import: `from a import b` imports `a` or `a.b`."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    base = node.module or ""
    if node.level:
        package = importer if importer_is_package else importer.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{base}" if base else package
    return {base} | {f"{base}.{alias.name}" for alias in node.names}


def import_statements(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    return [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]


def remove_imports(removals: list[ImportToRemove]) -> tuple[int, list[str]]:
    """Replace each statement of `removals` by `pass` at its place; how many statements were
    replaced, and the problems found (none when every statement was found and every edited
    file still parses).

    A statement is the import statement spanning one of the given lines that imports
    `imported`; several names or several listed lines of one statement replace it once.
    """
    replaced, problems = 0, []
    by_path: dict[Path, list[ImportToRemove]] = {}
    for removal in removals:
        by_path.setdefault(removal.path, []).append(removal)
    for path, in_file in sorted(by_path.items()):
        count, found_problems = _remove_imports_from_file(path, in_file)
        replaced += count
        problems += found_problems
    return replaced, problems


def _remove_imports_from_file(path: Path, removals: list[ImportToRemove]) -> tuple[int, list[str]]:
    source = path.read_bytes()
    statements = import_statements(ast.parse(source))
    is_package = path.name == "__init__.py"
    chosen: dict[tuple[int, int], ast.stmt] = {}
    problems = []
    for removal in removals:
        for line in removal.lines:
            found = [
                node
                for node in statements
                if node.lineno <= line <= node.end_lineno
                and removal.imported in imported_modules(node, removal.importer, is_package)
            ]
            if not found:
                problems.append(f"{path}:{line}: no import of {removal.imported} found")
            chosen.update(((node.lineno, node.col_offset), node) for node in found)
    edited = _replaced_by_pass(source, [chosen[key] for key in sorted(chosen, reverse=True)])
    path.write_bytes(edited)
    try:
        ast.parse(edited)
    except SyntaxError as error:
        problems.append(f"{path}:{error.lineno}: no longer parses after the removal ({error.msg})")
    return len(chosen), problems


def _replaced_by_pass(source: bytes, statements_last_first: list[ast.stmt]) -> bytes:
    """`source` with each statement's extent replaced by `pass`; statements come last first so
    that the offsets of the ones before stay valid."""
    lines = source.splitlines(keepends=True)
    for node in statements_last_first:
        first, last = node.lineno - 1, node.end_lineno - 1
        joined = lines[first][: node.col_offset] + b"pass" + lines[last][node.end_col_offset :]
        lines[first : last + 1] = [joined]
    return b"".join(lines)


def editable_function(tree: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The first function (in `ast.walk` order) whose body starts on a line of its own."""
    for node in ast.walk(tree):
        if (
            isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body[0].lineno > node.lineno
        ):
            return node
    return None


def edit_function_body(path: Path) -> None:
    """Add `pass` at the end of the body of the file's editable function: a body edit that
    leaves every import as it was."""
    source = path.read_bytes()
    function = editable_function(ast.parse(source))
    if function is None:
        raise ValueError(f"{path}: no function whose body starts on its own line")
    lines = source.splitlines(keepends=True)
    first_body_line = lines[function.body[0].lineno - 1]
    indent = first_body_line[: function.body[0].col_offset]
    end = function.body[-1].end_lineno
    if not lines[end - 1].endswith(b"\n"):
        lines[end - 1] += b"\n"
    lines.insert(end, indent + EDIT_MARK + b"\n")
    path.write_bytes(b"".join(lines))


def append_import(path: Path, module: str) -> None:
    """Add `import <module>` at the end of the file, at module level."""
    source = path.read_bytes()
    if source and not source.endswith(b"\n"):
        source += b"\n"
    path.write_bytes(source + f"import {module}  # added by bench/run.py\n".encode())


def module_files(top: Path) -> list[Path]:
    """The `.py` files below `top` that are modules: every directory on the way has an
    `__init__.py` (namespace directories aside, as the tools see them); sorted."""
    return sorted(
        path
        for path in top.rglob("*.py")
        if all(
            (directory / "__init__.py").is_file()
            for directory in [path.parent, *path.parent.parents]
            if directory.is_relative_to(top)
        )
    )


def middle_module_with_function(package_dir: Path) -> Path:
    """The module the edit workloads change: starting from the middle of the package's modules
    in sorted order (packages' `__init__.py` aside), the nearest one after it with an editable
    function; the search wraps around. Files that do not parse are passed over."""
    files = [path for path in module_files(package_dir) if path.name != "__init__.py"]
    middle = len(files) // 2
    for path in files[middle:] + files[:middle]:
        try:
            tree = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError):
            continue
        if editable_function(tree) is not None:
            return path
    raise ValueError(f"{package_dir}: no module with a function")


def first_module_not_imported(package_dir: Path, layer: str, edited: Path) -> str:
    """The first module (sorted by name) of `layer` that `edited` does not import yet and is not
    `edited` itself: the import workload d2 adds."""
    importer = module_name(package_dir, edited)
    tree = ast.parse(edited.read_bytes())
    already = set().union(
        *(
            imported_modules(n, importer, edited.name == "__init__.py")
            for n in import_statements(tree)
        )
    )
    layer_dir = package_dir.parent.joinpath(*layer.split("."))
    candidates = sorted(module_name(package_dir, path) for path in module_files(layer_dir))
    for candidate in candidates:
        if candidate != importer and candidate not in already:
            return candidate
    raise ValueError(f"{edited}: imports every module of {layer} already")
