"""What the report tests share: a hand-written package that breaks every contract type, the real
CLI in a subprocess, and an independent reading of the source files a report names.

The reading here is the tests' own (`ast` over the whole file, module names from the paths on
disk), never layering's, so a report that names a line that is not an import of what it says,
or leaves a statement out, is caught. A module of its own (tests/ is on the path through the
root conftest) so that tests in every folder can use it.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import layering_process

try:
    import tomllib
except (
    ModuleNotFoundError
):  # Python 3.10, as layering reads TOML there; the tests take it from here
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[1]

# A package that breaks every contract type, with chains through interior modules, several
# statements per import, multi-line and relative imports, every kind of scope, and layers in
# containers.
SHOP = {
    "src/shop/__init__.py": "",
    "src/shop/util.py": "helper = 1\n\n\ndef load():\n    from shop.infra import cache\n",
    "src/shop/api/__init__.py": "",
    "src/shop/api/views.py": "from shop.domain import orders\nfrom shop import infra\nfrom "
    "shop.util import (\n    helper,\n)\n",
    "src/shop/api/forms.py": "from shop.domain.pricing import Money\n",
    "src/shop/domain/__init__.py": "",
    "src/shop/domain/orders.py": (
        "from typing import TYPE_CHECKING\n\nfrom ..domain import pricing\n\nif TYPE_CHECKING:\n"
        "    from shop.api import views\n\n\ndef f():\n    from shop.infra import db\n"
    ),
    "src/shop/domain/pricing.py": "import decimal\nfrom shop.util import helper\n\nMoney = "
    "decimal.Decimal\n",
    "src/shop/domain/rules.py": "try:\n    from shop.infra.db import (\n        Money as Cash,\n  "
    "  )\nexcept ImportError:\n    pass\nfrom shop.infra import db\n",
    "src/shop/infra/__init__.py": "",
    "src/shop/infra/db.py": "from shop.domain.pricing import (\n    Money,\n)\nimport sqlite3\n",
    "src/shop/infra/cache.py": "import shop.api.forms\n\n\nclass Store:\n    from shop.domain "
    "import rules\n",
    "src/shop/plugins/__init__.py": "",
    "src/shop/plugins/alpha/__init__.py": "",
    "src/shop/plugins/alpha/ui.py": "X = 1\n",
    "src/shop/plugins/alpha/core.py": "from . import ui\n",
    "src/shop/plugins/beta/__init__.py": "",
    "src/shop/plugins/beta/ui.py": "from shop.plugins.alpha import core\nfrom . import core as "
    "own_core\n",
    "src/shop/plugins/beta/core.py": "from shop.util import load\n\n\ndef g():\n    from "
    "shop.plugins.beta.ui import own_core\n",
}

SHOP_CONTRACTS = {
    "forbidden-chains": 'type = "forbidden"\nsource_modules = ["shop.domain", '
    '"shop.plugins"]\nforbidden_modules = ["shop.infra", "shop.api.views"]',
    "forbidden-direct": 'type = "forbidden"\nsource_modules = ["shop.api", '
    '"shop.domain"]\nforbidden_modules = '
    '["shop.infra"]\nallow_indirect_imports = true',
    "forbidden-external": 'type = "forbidden"\nsource_modules = ["shop.infra"]\nforbidden_modules '
    '= ["sqlite3"]',
    "leaf": 'type = "leaf"\nmodules = ["shop.util", "shop.domain.rules"]\nwithin = ["shop"]',
    "contained": 'type = "contained"\npackages = "shop.plugins.*"\nwithin = "shop.plugins"',
    "layers": 'type = "layers"\nlayers = ["shop.api", "shop.domain", "shop.infra"]',
    "layers-containers": 'type = "layers"\ncontainers = ["shop.plugins.alpha", '
    '"shop.plugins.beta"]\nlayers = ["ui", "core"]',
    "independence": 'type = "independence"\nmodules = ["shop.api", "shop.domain", "shop.infra", '
    '"shop.util"]',
    "protected": 'type = "protected"\nprotected_modules = ["shop.infra"]\nallowed_importers = '
    '["shop.domain"]',
    "acyclic": 'type = "acyclic_siblings"\nancestors = ["shop"]',
}


# Contracts of every type that the bundled example (examples/serve) breaks as it is.
EXAMPLE_CONTRACTS = """
root_packages = ["tensorrt_llm"]
source_roots = ["examples/serve"]
cache_dir = false

[[contracts]]
id = "forbidden-chains"
type = "forbidden"
source_modules = ["tensorrt_llm.serve.tool_parser", "tensorrt_llm.serve.render"]
forbidden_modules = ["tensorrt_llm.executor", "tensorrt_llm.llmapi"]

[[contracts]]
id = "forbidden-direct"
type = "forbidden"
source_modules = ["tensorrt_llm.serve"]
forbidden_modules = ["tensorrt_llm.executor"]
allow_indirect_imports = true

[[contracts]]
id = "leaf"
type = "leaf"
modules = ["tensorrt_llm.serve.openai_server"]
within = ["tensorrt_llm.serve"]

[[contracts]]
id = "contained"
type = "contained"
packages = "tensorrt_llm.serve.*"
within = "tensorrt_llm.serve"

[[contracts]]
id = "layers"
type = "layers"
layers = ["tensorrt_llm.serve", "tensorrt_llm.llmapi", "tensorrt_llm.executor", "tensorrt_llm._utils"]

[[contracts]]
id = "layers-containers"
type = "layers"
containers = ["tensorrt_llm.serve"]
layers = ["render", "serving_extensions", "openai_protocol"]

[[contracts]]
id = "independence"
type = "independence"
modules = ["tensorrt_llm.serve.render", "tensorrt_llm.serve.tool_parser", "tensorrt_llm.serve.kv_cache_router", "tensorrt_llm.serve._base", "tensorrt_llm.serve.openai_protocol"]

[[contracts]]
id = "protected"
type = "protected"
protected_modules = ["tensorrt_llm.serve.openai_protocol"]
allowed_importers = ["tensorrt_llm.serve._base"]

[[contracts]]
id = "acyclic"
type = "acyclic_siblings"
ancestors = ["tensorrt_llm"]
"""


def copy_example(root: Path) -> Path:
    """A copy of the bundled example under `root` (reports and caches never touch the
    repository's)."""
    shutil.copytree(
        REPO / "examples", root / "examples", ignore=shutil.ignore_patterns("__pycache__")
    )
    return root


def shop_config(ids=None) -> str:
    """contracts.toml for SHOP with the contracts `ids` (default: every one)."""
    header = 'root_packages = ["shop"]\nsource_roots = ["src"]\ncache_dir = false\n'
    return header + "".join(
        f'\n[[contracts]]\nid = "{i}"\n{SHOP_CONTRACTS[i]}\n' for i in ids or SHOP_CONTRACTS
    )


def write_files(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def run_layering(
    root: Path, *args: str, hash_seed: str | None = None
) -> subprocess.CompletedProcess:
    """`python -m layering ARGS` in `root`, as a user runs it; `hash_seed` sets PYTHONHASHSEED."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "PYTHONHASHSEED")}
    if hash_seed is not None:
        env["PYTHONHASHSEED"] = hash_seed
    return layering_process.run(args, cwd=root, env=env, timeout=300)


def json_report(root: Path, *args: str) -> dict:
    """The JSON report of `layering check --chains all` in `root`; a run that could not be made
    (exit code 2) or printed a traceback fails the test."""
    run = run_layering(root, "check", "--format", "json", "--chains", "all", *args)
    assert "Traceback" not in run.stderr, run.stderr
    assert run.returncode in (0, 1), run.stdout + run.stderr
    return json.loads(run.stdout)


# --------------------------------------------------------------------------- independent reading


@dataclass(frozen=True)
class Statement:
    """One import statement as `ast` reads it: its lines, the modules it imports (internal ones
    resolved as grimp resolves them; external ones as written and as their top-level package)."""

    first: int
    last: int
    imports: frozenset[str]
    node: ast.stmt
    qualifiers: frozenset[str]
    """When it runs: function-level (in a def), TYPE_CHECKING (in an `if TYPE_CHECKING:` block),
    in try (its innermost def, class, TYPE_CHECKING block or try is a try)."""


def _imports_in(body: list[ast.stmt], scopes: tuple[str, ...]):
    """(import statement, the scopes around it, outermost first) for every import in `body`."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node, scopes
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield from _imports_in(node.body, scopes + ("def",))
        elif isinstance(node, ast.ClassDef):
            yield from _imports_in(node.body, scopes + ("class",))
        elif isinstance(node, ast.If) and ast.unparse(node.test).split(".")[-1] == "TYPE_CHECKING":
            yield from _imports_in(node.body, scopes + ("TYPE_CHECKING",))
            yield from _imports_in(node.orelse, scopes)
        elif isinstance(node, (ast.Try, getattr(ast, "TryStar", ast.Try))):
            for block in (
                node.body,
                node.orelse,
                node.finalbody,
                *(h.body for h in node.handlers),
            ):
                yield from _imports_in(block, scopes + ("try",))
        else:
            for field in ("body", "orelse", "finalbody"):
                yield from _imports_in(getattr(node, field, None) or [], scopes)
            for case in getattr(node, "cases", None) or []:
                yield from _imports_in(case.body, scopes)


def _qualifiers(scopes: tuple[str, ...]) -> frozenset[str]:
    found = set()
    if "def" in scopes:
        found.add("function-level")
    if "TYPE_CHECKING" in scopes:
        found.add("TYPE_CHECKING")
    if scopes and scopes[-1] == "try":
        found.add("in try")
    return frozenset(found)


def absolute_base(node: ast.ImportFrom, package: str) -> str:
    """The module a from-import takes its names from, relative forms resolved from `package`."""
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    parts = parts[: len(parts) - (node.level - 1)]
    return ".".join(parts + ([node.module] if node.module else []))


class Sources:
    """The modules of the root packages found under one source root, read from disk."""

    def __init__(self, base_dir: Path, source_root: str, roots: tuple[str, ...]) -> None:
        self.base_dir = base_dir
        self.source_root = base_dir / source_root
        self.roots = roots
        self.files: dict[str, Path] = {}
        for root in roots:
            for directory, _, names in os.walk(self.source_root / root):
                here = Path(directory)
                if not (here / "__init__.py").exists():
                    continue
                package = ".".join(here.relative_to(self.source_root).parts)
                for name in names:
                    if name == "__init__.py":
                        self.files[package] = here / name
                    elif name.endswith(".py"):
                        self.files[f"{package}.{name[:-3]}"] = here / name
        self._statements: dict[str, list[Statement]] = {}

    def module_at(self, path: str) -> str:
        """The module whose file `path` (as a report prints it: relative to base_dir) is."""
        relative = (self.base_dir / path).resolve().relative_to(self.source_root.resolve())
        parts = list(relative.parts)
        parts[-1] = parts[-1][: -len(".py")]
        if parts[-1] == "__init__":
            parts.pop()
        return ".".join(parts)

    def is_internal(self, module: str) -> bool:
        return module.split(".")[0] in self.roots

    def _nearest(self, name: str) -> str:
        parts = name.split(".")
        while parts and ".".join(parts) not in self.files:
            parts.pop()
        return ".".join(parts) or name

    def statements(self, module: str) -> list[Statement]:
        if module not in self._statements:
            path = self.files[module]
            tree = ast.parse(path.read_text(encoding="utf-8"))
            package = self._package(module)
            found = [
                Statement(
                    node.lineno,
                    node.end_lineno or node.lineno,
                    frozenset(self._imported(node, package)),
                    node,
                    _qualifiers(scopes),
                )
                for node, scopes in _imports_in(tree.body, ())
            ]
            self._statements[module] = sorted(found, key=lambda s: s.first)
        return self._statements[module]

    def _imported(self, node: ast.Import | ast.ImportFrom, package: str) -> set[str]:
        return {m for alias in node.names for m in self._alias_imports(node, alias, package)}

    def imported_by(
        self, node: ast.Import | ast.ImportFrom, alias: ast.alias, module: str
    ) -> set[str]:
        """What one name of an import statement of `module`'s file imports."""
        return self._alias_imports(node, alias, self._package(module))

    def _package(self, module: str) -> str:
        return module if self.files[module].name == "__init__.py" else module.rpartition(".")[0]

    def _alias_imports(
        self, node: ast.Import | ast.ImportFrom, alias: ast.alias, package: str
    ) -> set[str]:
        if isinstance(node, ast.Import):
            if self.is_internal(alias.name):
                return {self._nearest(alias.name)}
            return {alias.name, alias.name.split(".")[0]}
        base = absolute_base(node, package)
        if not self.is_internal(base):
            return {base, base.split(".")[0]}
        candidate = f"{base}.{alias.name}"
        return {candidate if candidate in self.files else self._nearest(base)}

    def names(self, statement: Statement, module: str, imported: str) -> list[str]:
        """The names a report shows for `statement` of `module`'s file importing `imported`: those
        of a from-import that come from it, not the submodules it imports by name."""
        node = statement.node
        if isinstance(node, ast.Import):
            return []
        base = absolute_base(node, self._package(module))
        return sorted(
            {
                a.name
                for a in node.names
                if imported in self.imported_by(node, a, module) and f"{base}.{a.name}" != imported
            }
        )

    def check_details(self, statement: Statement, shown: dict, what: str) -> None:
        """A hop or finding shows the names and qualifiers of its statement."""
        names = self.names(statement, shown["importer"], shown["imported"])
        assert list(shown["names"]) == names, (
            f"{what}: shows the names {shown['names']}, the statement imports {names} from "
            f"{shown['imported']}"
        )
        assert set(shown["qualifiers"]) == statement.qualifiers, (
            f"{what}: shows {shown['qualifiers']}, the statement is {sorted(statement.qualifiers)}"
        )

    def statements_importing(self, importer: str, imported: str) -> list[Statement]:
        return [s for s in self.statements(importer) if imported in s.imports]

    def statement_at(
        self, path: str, line: int, importer: str, imported: str, what: str
    ) -> Statement:
        """The import statement of `importer`'s file that spans `line` and imports `imported`;
        fails, saying what the report claimed, when there is none."""
        module = self.module_at(path)
        assert module == importer, (
            f"{what}: {path} is the file of {module}, not of the importer {importer}"
        )
        spanning = [s for s in self.statements(module) if s.first <= line <= s.last]
        assert spanning, f"{what}: {path}:{line} is inside no import statement"
        importing = [s for s in spanning if imported in s.imports]
        assert importing, (
            f"{what}: the statement at {path}:{line} imports {sorted(spanning[0].imports)}, not "
            f"{imported}"
        )
        return importing[0]


def within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def check_chain(sources: Sources, chain: list[dict], source: str, target: str, what: str) -> None:
    """A chain as a report lists it: every hop a real statement, hops linked, from the group's
    source to its target, through neither in between."""
    assert chain, f"{what}: an empty chain"
    starts = [s.strip() for s in source.split(",")]
    ends = [t.strip() for t in target.split(",")]
    for number, hop in enumerate(chain):
        statement = sources.statement_at(
            hop["path"], hop["line"], hop["importer"], hop["imported"], f"{what}, hop {number + 1}"
        )
        sources.check_details(statement, hop, f"{what}, hop {number + 1}")
    for before, after in zip(chain, chain[1:]):
        assert before["imported"] == after["importer"], (
            f"{what}: {before['imported']} then {after['importer']}: the hops do not link"
        )
    assert any(within(chain[0]["importer"], s) for s in starts), (
        f"{what}: starts at {chain[0]['importer']}, not in {source}"
    )
    assert any(within(chain[-1]["imported"], t) for t in ends), (
        f"{what}: ends at {chain[-1]['imported']}, not in {target}"
    )
    for hop in chain[1:]:
        assert not any(within(hop["importer"], m) for m in starts + ends), (
            f"{what}: passes through {hop['importer']}"
        )


IMPORT_CODES = {"LY001", "LY002", "LY003", "LY004", "LY011", "LY012", "LY013", "LY014"}
GRAPH_CODES = {
    "LY011",
    "LY012",
    "LY013",
    "LY014",
}  # one finding per statement of each import named


def check_report(document: dict, sources: Sources) -> int:
    """Every location and hop of a JSON report names a real import statement; every cut, and
    every import of import-linter's types, names each statement behind it once. Returns how many
    hops were checked (a test asserts that
    something was)."""
    checked = 0
    for contract in document["contracts"]:
        name = f"contract {contract['id']}"
        if contract["verdict"] == "error":
            raise AssertionError(f"{name} could not be decided: {contract['violations']}")
        for violation in contract["violations"]:
            if violation["code"] not in IMPORT_CODES:
                continue
            what = f"{name}, {violation['code']} at {violation['path']}:{violation['line']}"
            statement = sources.statement_at(
                violation["path"],
                violation["line"],
                violation["importer"],
                violation["imported"],
                what,
            )
            sources.check_details(statement, violation, what)
            checked += 1
            for number, hop in enumerate(violation["chain"]):
                statement = sources.statement_at(
                    hop["path"],
                    hop["line"],
                    hop["importer"],
                    hop["imported"],
                    f"{what}, hop {number + 1}",
                )
                sources.check_details(statement, hop, f"{what}, hop {number + 1}")
                checked += 1
        shown_by_import: dict[tuple[str, str], set[int]] = {}
        for violation in contract["violations"]:
            if violation["code"] in GRAPH_CODES:
                statement = sources.statement_at(
                    violation["path"],
                    violation["line"],
                    violation["importer"],
                    violation["imported"],
                    name,
                )
                shown_by_import.setdefault(
                    (violation["importer"], violation["imported"]), set()
                ).add(statement.first)
        for (importer, imported), shown in shown_by_import.items():
            every = {s.first for s in sources.statements_importing(importer, imported)}
            assert shown == every, (
                f"{name}: {importer} imports {imported} at {sorted(every)}, the findings show "
                f"{sorted(shown)}"
            )
        for cut in contract["cut"]:
            what = f"{name}, cut import {cut['importer']} -> {cut['imported']}"
            statements = [
                sources.statement_at(cut["path"], line, cut["importer"], cut["imported"], what)
                for line in cut["lines"]
            ]
            shown = {s.first for s in statements}
            names = sorted(
                {n for s in statements for n in sources.names(s, cut["importer"], cut["imported"])}
            )
            assert cut["names"] == names, (
                f"{what}: shows the names {cut['names']}, its statements import {names}"
            )
            assert set(cut["qualifiers"]) == {q for s in statements for q in s.qualifiers}, (
                f"{what}: shows {cut['qualifiers']}"
            )
            every = {
                s.first for s in sources.statements_importing(cut["importer"], cut["imported"])
            }
            assert shown == every, (
                f"{what}: lines {cut['lines']} show the statements at {sorted(shown)}, the file "
                f"has them at {sorted(every)}"
            )
            assert len(cut["lines"]) == len(shown), (
                f"{what}: lines {cut['lines']} name a statement twice"
            )
            check_chain(sources, cut["chain"], cut["source"], cut["target"], f"{what}, example")
            assert (cut["importer"], cut["imported"]) in {
                (h["importer"], h["imported"]) for h in cut["chain"]
            }, f"{what}: the example does not cross it"
            checked += len(cut["lines"]) + len(cut["chain"])
        for group in contract["chain_groups"]:
            assert len(group["listed"]) == group["chains"], (
                f"{name}: --chains all listed {len(group['listed'])} of {group['chains']} chains"
            )
            for number, chain in enumerate(group["listed"]):
                check_chain(
                    sources,
                    chain,
                    group["source"],
                    group["target"],
                    f"{name}, chain {number + 1} from {group['source']} to {group['target']}",
                )
                checked += len(chain)
            cut = {
                (c["importer"], c["imported"])
                for c in contract["cut"]
                if (c["source"], c["target"]) == (group["source"], group["target"])
            }
            assert len(cut) == group["cut"], (
                f"{name}: the group says {group['cut']} imports to cut, the cut lists {len(cut)}"
            )
            for chain in group["listed"]:
                assert cut & {(h["importer"], h["imported"]) for h in chain}, (
                    f"{name}: a listed chain crosses no import of the cut"
                )
    return checked


# --------------------------------------------------------------------------- import-linter's view

IMPORTLINTER_TYPES = ("forbidden", "layers", "independence", "protected", "acyclic_siblings")


def importlinter_config(config: str) -> str:
    """The import-linter configuration (TOML) of the contracts of a layering `config` that
    import-linter has, each named by its id; external packages included, as layering reads them."""
    data = tomllib.loads(config)
    lines = [
        "[tool.importlinter]",
        f"root_packages = {json.dumps(data['root_packages'])}",
        "include_external_packages = true",
        "",
    ]
    for contract in data["contracts"]:
        if contract["type"] not in IMPORTLINTER_TYPES:
            continue
        lines.append("[[tool.importlinter.contracts]]")
        lines.append(f"name = {json.dumps(contract['id'])}")
        lines.extend(
            f"{key} = {json.dumps(value)}"
            for key, value in contract.items()
            if key not in ("id", "name", "allow")
        )
        lines.append("")
    return "\n".join(lines)


def importlinter_findings(root: Path, config: str, source_root: str) -> dict:
    """What import-linter finds for the import-linter contracts of `config`, run in a fresh
    interpreter by tests/importlinter_findings.py."""
    path = root / "importlinter.toml"
    path.write_text(importlinter_config(config), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    run = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).with_name("importlinter_findings.py")),
            str(path),
            str(root / source_root),
        ],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def _pairs_of(links) -> set[tuple[str, str]]:
    return {(a, b) for a, b in links}


def route_chains(route: dict) -> list[list[tuple[str, str]]]:
    """Every chain an import-linter route stands for: each of its first imports, its middle,
    each of its last imports."""
    chain = [tuple(link) for link in route["chain"]]
    middle = [a for a, _ in chain[1:]]
    firsts = [chain[0][0]] + [a for a, _ in route["extra_firsts"]]
    lasts = [chain[-1][1]] + [b for _, b in route["extra_lasts"]]
    chains = []
    for first in firsts:
        for last in lasts:
            modules = [first, *middle, last]
            chains.append(list(zip(modules, modules[1:])))
    return chains


def _owner(module: str, packages: list[str]) -> str:
    owners = [p for p in packages if within(module, p)]
    assert owners, f"{module} lies in none of {packages}"
    return max(owners, key=len)


def listed_chains(contract: dict) -> dict[tuple[str, str], list[list[tuple[str, str]]]]:
    """Per group (source, target), every chain the report lists with --chains all."""
    return {
        (g["source"], g["target"]): [
            [(h["importer"], h["imported"]) for h in chain] for chain in g["listed"]
        ]
        for g in contract["chain_groups"]
    }


def cut_of(contract: dict, group: tuple[str, str] | None = None) -> set[tuple[str, str]]:
    return {
        (c["importer"], c["imported"])
        for c in contract["cut"]
        if group is None or (c["source"], c["target"]) == group
    }


def _contract_modules(options: dict, member: str) -> list[str]:
    """The modules a layers or independence contract names (for layers in containers, those of
    the container that holds `member`): import-linter's chains between two never pass the
    others."""
    if options["type"] == "independence":
        return list(options["modules"])
    layers = [
        name.strip() for layer in options["layers"] for name in layer.replace(":", "|").split("|")
    ]
    container = next((c for c in options.get("containers", ()) if within(member, c)), None)
    return [f"{container}.{layer}" for layer in layers] if container else layers


def compare_with_importlinter(
    contract: dict, options: dict, theirs: dict, imports: set[tuple[str, str]]
) -> None:
    """What a layering report shows for one contract agrees with import-linter's findings:
    the verdict; the broken pairs (exactly for layers and independence; for forbidden, every
    pair between which layering lists a chain is broken for import-linter too); that every
    chain layering lists is a real path, and every chain import-linter found starts as one of
    layering's (layers, independence) and crosses layering's cut; for protected and
    acyclic_siblings, the imports named, exactly.

    Not compared: where import-linter's chains end. layering lists one chain per import of a
    source module, to the nearest target, so a target reached only beyond another is not an
    end of any chain it lists (an expected failure in tests/engine/test_importlinter_parity.py)."""
    name = contract["id"]
    assert (contract["verdict"] == "kept") == theirs["kept"], (
        f"{name}: layering says {contract['verdict']}, import-linter kept={theirs['kept']}"
    )
    if contract["type"] in ("protected", "acyclic_siblings"):
        ours = {
            (v["importer"], v["imported"])
            for v in contract["violations"]
            if v["code"] in IMPORT_CODES
        }
        assert ours == _pairs_of(theirs["links"]), (
            f"{name}: layering names {sorted(ours)}, import-linter "
            f"{sorted(_pairs_of(theirs['links']))}"
        )
        return
    their_pairs = _pairs_of(theirs["pairs"])
    groups = listed_chains(contract)
    for group, chains in groups.items():
        for chain in chains:
            assert set(chain) <= imports, (
                f"{name}: a chain of {group} takes imports the graph does not have: "
                f"{sorted(set(chain) - imports)}"
            )
    if contract["type"] == "forbidden" and options.get("allow_indirect_imports"):
        ours = {
            (v["importer"], v["imported"]) for v in contract["violations"] if v["code"] == "LY001"
        }
        direct = {link for route in theirs["routes"] for link in route_chains(route)[0]}
        assert ours == direct, (
            f"{name}: layering names {sorted(ours)}, import-linter {sorted(direct)}"
        )
        return
    if contract["type"] == "forbidden":
        sources, forbidden = options["source_modules"], options["forbidden_modules"]
        ours = {
            (_owner(chain[0][0], sources), _owner(chain[-1][1], forbidden))
            for chains in groups.values()
            for chain in chains
        }
        assert ours <= their_pairs, (
            f"{name}: chains run between {sorted(ours - their_pairs)}, which import-linter finds "
            "unbroken"
        )
        cut = cut_of(contract)
        for route in theirs["routes"]:
            for chain in route_chains(route):
                assert cut & set(chain), (
                    f"{name}: import-linter's chain {chain} crosses none of the cut {sorted(cut)}"
                )
        return
    ours = set(groups)
    assert ours == their_pairs, (
        f"{name}: layering's groups {sorted(ours)}, import-linter's broken pairs "
        f"{sorted(their_pairs)}"
    )
    for pair, chains in groups.items():
        others = [m for m in _contract_modules(options, pair[0]) if m not in pair]
        for chain in chains:
            through = [a for a, _ in chain[1:] if any(within(a, m) for m in others)]
            assert not through, (
                f"{name}: a chain of {pair} runs through {through}, in another module of the "
                "contract"
            )
    for route in theirs["routes"]:
        pair = tuple(route["pair"])
        cut = cut_of(contract, pair)
        firsts = {chain[0] for chain in groups[pair]}
        for chain in route_chains(route):
            assert chain[0] in firsts, (
                f"{name}: import-linter's chain starts with {chain[0]}, which starts no chain "
                f"layering lists for {pair}"
            )
            assert cut & set(chain), (
                f"{name}: import-linter's chain {chain} crosses none of the cut {sorted(cut)} of "
                f"{pair}"
            )
