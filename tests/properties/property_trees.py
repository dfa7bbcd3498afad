"""Hypothesis strategies for small packages with import statements of every form, the
configurations checked against them, and an independent reading of what an import line imports."""

from __future__ import annotations

import ast
import os
import random
from dataclasses import dataclass, field

from hypothesis import strategies as st
from report_support import absolute_base

ROOT = "pkg"
NAMES = ("X", "Y")  # every module defines these, so `from <module> import X` is always valid
WRAPPERS = ("module", "function", "type_checking", "try", "class")
CONTINUED_IMPORT = " \\\n    import "  # `from m import x` over two lines, with a backslash
UNUSUAL_WRAPPERS = (
    "async",
    "with",
    "while",
    "match",
    "try_else",
    "type_checking_else",
    "function_type_checking",
    "decorated",
    "after_strings",
    "commented",
    "continued",
    "semicolon",
)


@dataclass(frozen=True)
class Statement:
    """One import statement in one module, as text (perhaps several lines) in a wrapper."""

    text: str
    wrapper: str

    def render(self) -> str:
        body = self.text
        indented = "\n".join("    " + line for line in body.splitlines())
        if self.wrapper == "function":
            return f"def f_{abs(hash(body)) % 10_000}():\n{indented}\n"
        if self.wrapper == "type_checking":
            return f"if TYPE_CHECKING:\n{indented}\n"
        if self.wrapper == "try":
            return f"try:\n{indented}\nexcept ImportError:\n    pass\n"
        if self.wrapper == "class":
            return f"class C_{abs(hash(body)) % 10_000}:\n{indented}\n"
        return self._render_unusual(body, indented) or body + "\n"

    def _render_unusual(self, body: str, indented: str) -> str | None:
        """The UNUSUAL_WRAPPERS: blocks, strings, comments and continuations that a reader of
        single statements can trip on (the else of a try, brackets in strings and comments)."""
        deeper = "\n".join("    " + line for line in indented.splitlines())
        number = len(body)
        return {
            "async": f"async def a_{number}():\n{indented}\n",
            "with": f"with open(__file__):\n{indented}\n",
            "while": f"while False:\n{indented}\n",
            "match": f"match X:\n    case _:\n{deeper}\n",
            "try_else": f"try:\n    pass\nexcept ImportError:\n    pass\nelse:\n{indented}\n",
            "type_checking_else": f"if TYPE_CHECKING:\n    pass\nelse:\n{indented}\n",
            "function_type_checking": f"def g_{number}():\n    if TYPE_CHECKING:\n{deeper}\n",
            "decorated": f"@staticmethod\ndef d_{number}():\n{indented}\n",
            "after_strings": f'S_{number} = "([{{" + \'"\'\nDOC_{number} = """\nfrom x import '
            f'(\n"""\n{body}\n',
            "commented": f"{body}  # ) ] }} (\n",
            "continued": body.replace(" import ", CONTINUED_IMPORT, 1) + "\n"
            if "\n" not in body and body.startswith("from ")
            else None,
            "semicolon": f"Z_{number} = 0; {body}\n" if "\n" not in body else None,
        }.get(self.wrapper)


@dataclass
class Tree:
    """A package: module name -> its import statements; `packages` are the modules with
    __init__."""

    modules: list[str]
    packages: set[str]
    statements: dict[str, list[Statement]] = field(default_factory=dict)
    imports: list[tuple[str, str]] = field(default_factory=list)
    """(importer, module) for each statement written to import an internal module."""

    def path(self, module: str) -> str:
        parts = module.split(".")
        if module in self.packages:
            return os.path.join("src", *parts, "__init__.py")
        return os.path.join("src", *parts) + ".py"

    def source(self, module: str, skip: tuple[str, int] | None = None) -> str:
        lines = ["from typing import TYPE_CHECKING\n", "X = 1\n", "Y = 2\n"]
        for index, statement in enumerate(self.statements.get(module, [])):
            if skip == (module, index):
                continue
            lines.append(statement.render())
        return "".join(lines)

    def files(self, skip: tuple[str, int] | None = None) -> dict[str, str]:
        return {self.path(m): self.source(m, skip) for m in self.modules}

    def write(
        self, directory: str, config: str, skip: tuple[str, int] | None = None, order_seed: int = 0
    ) -> str:
        files = list(self.files(skip).items())
        random.Random(order_seed).shuffle(files)
        for name, text in files:
            path = os.path.join(directory, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
        config_path = os.path.join(directory, "contracts.toml")
        with open(config_path, "w", encoding="utf-8") as handle:
            handle.write(config)
        return config_path

    def statement_slots(self) -> list[tuple[str, int]]:
        return [(m, i) for m in self.modules for i in range(len(self.statements.get(m, [])))]


def _parent(module: str) -> str:
    return module.rpartition(".")[0]


def _import_forms(importer: str, target: str, tree: Tree) -> list[str]:
    """Every way `importer` can write an import of module `target` (or of names from it)."""
    parent, _, last = target.rpartition(".")
    forms = [
        f"import {target}",
        f"import {target} as alias_{last}",
        f"from {target} import X",
        f"from {target} import (X,\n    Y)",
        f"from {target} import (\n    X as x1,\n    Y,\n)",
    ]
    if parent:
        forms.append(f"from {parent} import {last}")
        forms.append(f"from {parent} import (\n    {last},\n    X)")
    # Relative forms, from the importer's own package.
    package = importer if importer in tree.packages else _parent(importer)
    if parent == package:
        forms.append(f"from . import {last}")
        forms.append(f"from .{last} import X")
    elif package and _parent(package) == parent and parent:
        forms.append(f"from .. import {last}")
        forms.append(f"from ..{last} import Y")
    return forms


EXTERNAL_FORMS = (
    "import json",
    "from os import path",
    "import os.path",
    "from collections import (\n    OrderedDict,\n    deque)",
)


@st.composite
def trees(draw) -> Tree:
    count = draw(st.integers(min_value=2, max_value=6))
    with_sub = draw(st.booleans())
    modules = [ROOT] + [f"{ROOT}.m{i}" for i in range(count)]
    packages = {ROOT}
    if with_sub:
        modules += [f"{ROOT}.sub", f"{ROOT}.sub.s0"]
        packages.add(f"{ROOT}.sub")
    tree = Tree(modules=modules, packages=packages)
    for importer in modules:
        amount = draw(st.integers(min_value=0, max_value=4))
        statements = []
        for _ in range(amount):
            if draw(st.integers(0, 9)) == 0:
                text = draw(st.sampled_from(EXTERNAL_FORMS))
            else:
                target = draw(st.sampled_from([m for m in modules if m != ROOT]))
                text = draw(st.sampled_from(_import_forms(importer, target, tree)))
            statements.append(Statement(text, draw(st.sampled_from(WRAPPERS))))
        tree.statements[importer] = statements
    return tree


@st.composite
def configs(
    draw, tree: Tree, kinds=("forbidden_direct", "forbidden_indirect", "leaf", "contained")
) -> tuple[str, list[str]]:
    """A contracts.toml for `tree` with one to three contracts; also returns their kinds."""
    inner = [m for m in tree.modules if m != ROOT]
    header = f'root_packages = ["{ROOT}"]\nsource_roots = ["src"]\ncache_dir = ".cache"\n'
    chosen = draw(st.lists(st.sampled_from(kinds), min_size=1, max_size=3))
    parts = []
    for index, kind in enumerate(chosen):
        if kind.startswith("forbidden"):
            source = draw(st.sampled_from(inner))
            target = draw(st.sampled_from([m for m in inner if m != source] + ["json"]))
            indirect = "true" if kind == "forbidden_direct" else "false"
            parts.append(
                f'\n[[contracts]]\nid = "c{index}"\ntype = "forbidden"\nsource_modules = '
                f'["{source}"]\n'
                f'forbidden_modules = ["{target}"]\nallow_indirect_imports = {indirect}\n'
            )
        elif kind == "leaf":
            leaf = draw(st.sampled_from(inner))
            allow = draw(st.lists(st.sampled_from(inner), max_size=2, unique=True))
            named = draw(
                st.lists(
                    st.tuples(st.sampled_from(inner), st.sampled_from(NAMES)),
                    max_size=2,
                    unique=True,
                )
            )
            entries = [f'"{a}"' for a in allow] + [
                f'{{ module = "{m}", names = ["{n}"] }}' for m, n in named
            ]
            parts.append(
                f'\n[[contracts]]\nid = "c{index}"\ntype = "leaf"\nmodules = ["{leaf}"]\nwithin = '
                f'["{ROOT}"]\n'
                f"allow = [{', '.join(entries)}]\n"
            )
        else:
            if f"{ROOT}.sub" not in tree.modules:
                continue
            parts.append(
                f'\n[[contracts]]\nid = "c{index}"\ntype = "contained"\npackages = '
                f'"{ROOT}.sub"\nwithin = "{ROOT}"\n'
            )
    if not parts:
        parts.append(
            f'\n[[contracts]]\nid = "c9"\ntype = "forbidden"\nsource_modules = ["{inner[0]}"]\n'
            f'forbidden_modules = ["{inner[-1]}"]\nallow_indirect_imports = true\n'
        )
    return header + "".join(parts), chosen


# --------------------------------------------------------------------------- an independent
# reading


def imported_by_line(path: str, module: str, line: int, is_package: bool) -> set[str] | None:
    """What the import statement that spans `line` of `path` can be said to import: for
    `import a.b` the module a.b (and its parents); for `from m import n` both m and m.n.
    None when no import statement spans the line."""
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if not node.lineno <= line <= (node.end_lineno or node.lineno):
            continue
        found: set[str] = set()
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                found.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
            return found
        base = absolute_base(node, package)
        found.add(base)
        found.update(f"{base}.{alias.name}" for alias in node.names)
        return found
    return None


# --------------------------------------------------------------------------- packages of packages

LAYERS = ("a", "b", "c")


@st.composite
def package_trees(draw) -> tuple[Tree, tuple[str, ...]]:
    """A package whose children are packages too, for the contract types about packages
    (layers, independence, protected, acyclic_siblings): `pkg.a`, `pkg.b`, `pkg.c`, each with
    up to two modules, and `pkg.util`; or, with containers, the same three layers inside each of
    `pkg.p` and `pkg.q`. Returns the tree and its containers (none, or the two)."""
    containers = (f"{ROOT}.p", f"{ROOT}.q") if draw(st.booleans()) else ()
    modules = [ROOT, f"{ROOT}.util", *containers]
    packages = {ROOT, *containers}
    most = 1 if containers else 2
    for top in containers or (ROOT,):
        for layer in LAYERS:
            package = f"{top}.{layer}"
            modules.append(package)
            packages.add(package)
            modules.extend(f"{package}.m{i}" for i in range(draw(st.integers(0, most))))
    tree = Tree(modules=modules, packages=packages)
    importable = [m for m in modules if m != ROOT]
    for importer in modules:
        statements = []
        for _ in range(draw(st.integers(0, 3))):
            if draw(st.integers(0, 9)) == 0:
                text = draw(st.sampled_from(EXTERNAL_FORMS))
            else:
                target = draw(st.sampled_from([m for m in importable if m != importer]))
                text = draw(st.sampled_from(_import_forms(importer, target, tree)))
                tree.imports.append((importer, target))
            statements.append(Statement(text, draw(st.sampled_from(WRAPPERS + UNUSUAL_WRAPPERS))))
        tree.statements[importer] = statements
    return tree, containers


GRAPH_KINDS = ("forbidden", "layers", "independence", "protected", "acyclic_siblings")
ALL_KINDS = GRAPH_KINDS + ("forbidden_direct", "leaf", "contained")


def _toml_list(items) -> str:
    return "[" + ", ".join(f'"{item}"' for item in items) + "]"


def package_cases(kinds=ALL_KINDS):
    """A package of packages and a configuration with one contract of each of `kinds` over it."""
    return package_trees().flatmap(
        lambda case: package_configs(*case, kinds=kinds).map(lambda config: (case[0], config))
    )


@st.composite
def package_configs(draw, tree: Tree, containers: tuple[str, ...], kinds=ALL_KINDS) -> str:
    """One contract of each of `kinds` over `tree` (so one run checks them all), with ignored
    imports, some of them written in the tree, some that match nothing (alerting "none": they
    never break a contract alone)."""
    tops = containers or (ROOT,)
    layer_packages = [f"{top}.{layer}" for top in tops for layer in LAYERS]
    inner = [m for m in tree.modules if m != ROOT]
    parts = [f'root_packages = ["{ROOT}"]\nsource_roots = ["src"]\ncache_dir = false\n']

    def ignores() -> str:
        written = st.sampled_from(tree.imports) if tree.imports else st.nothing()
        pairs = draw(
            st.lists(
                written | st.tuples(st.sampled_from(inner), st.sampled_from(inner)),
                max_size=2,
                unique=True,
            )
        )
        if not pairs:
            return ""
        return (
            "ignore_imports = "
            f"{_toml_list(f'{a} -> {b}' for a, b in pairs)}\nunmatched_ignore_imports_alerting = "
            '"none"\n'
        )

    def distinct(options: list[str], count: int) -> list[str]:
        return draw(
            st.lists(st.sampled_from(options), min_size=count, max_size=count, unique=True)
        )

    for kind in kinds:
        body = ""
        if kind == "forbidden":
            source, *forbidden = distinct(
                layer_packages + [f"{ROOT}.util"], draw(st.integers(2, 3))
            )
            if draw(st.integers(0, 4)) == 0:
                forbidden.append("json")
            body = (
                f'type = "forbidden"\nsource_modules = ["{source}"]\nforbidden_modules = '
                f"{_toml_list(forbidden)}\n" + ignores()
            )
        elif kind == "forbidden_direct":
            source, target = distinct(inner, 2)
            body = (
                f'type = "forbidden"\nsource_modules = ["{source}"]\nforbidden_modules = '
                f'["{target}"]\nallow_indirect_imports = true\n'
            )
        elif kind == "leaf":
            body = (
                f'type = "leaf"\nmodules = ["{draw(st.sampled_from(inner))}"]\nwithin = '
                f'["{ROOT}"]\n'
            )
        elif kind == "contained":
            body = (
                'type = "contained"\npackages = '
                f'"{draw(st.sampled_from(layer_packages))}"\nwithin = "{ROOT}"\n'
            )
        elif kind == "layers":
            order = draw(st.permutations(LAYERS))
            if containers:
                body = (
                    f'type = "layers"\nlayers = {_toml_list(order)}\ncontainers = '
                    f"{_toml_list(containers)}\n"
                )
            else:
                body = (
                    'type = "layers"\nlayers = '
                    f"{_toml_list(f'{ROOT}.{layer}' for layer in order)}\n"
                )
            body += ignores()
        elif kind == "independence":
            chosen = distinct(layer_packages + [f"{ROOT}.util"], draw(st.integers(2, 4)))
            body = f'type = "independence"\nmodules = {_toml_list(chosen)}\n' + ignores()
        elif kind == "protected":
            protected, allowed = distinct(layer_packages, 2)
            body = (
                f'type = "protected"\nprotected_modules = ["{protected}"]\nallowed_importers = '
                f'["{allowed}"]\n'
            )
        elif kind == "acyclic_siblings":
            body = f'type = "acyclic_siblings"\nancestors = ["{draw(st.sampled_from(tops))}"]\n'
        parts.append(f'\n[[contracts]]\nid = "{kind}"\n{body}')
    return "".join(parts)
