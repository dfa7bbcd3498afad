"""The `loads` contract on small packages: each rule of the load closure, through the real CLI."""

from __future__ import annotations

import ast
import os
import sys

HEADER = 'root_packages = ["app"]\nsource_roots = ["src"]\ncache_dir = false\n'


def loads_config(
    modules: list[str],
    forbidden: list[str],
    expect_loaded: list[str] | None = None,
    extra: str = "",
) -> str:
    text = HEADER + (
        '\n[[contracts]]\nid = "loads"\nname = "no forbidden loads"\ntype = "loads"\n'
        f"modules = {modules!r}\nforbidden = {forbidden!r}\n".replace("'", '"')
    )
    if expect_loaded is not None:
        text += f"expect_loaded = {expect_loaded!r}\n".replace("'", '"')
    return text + extra


def violation_lines(stdout: str) -> list[str]:
    """The report's findings: each load with its chain, after the imports that cut them."""
    lines = [line.strip() for line in stdout.splitlines() if line.startswith("  ")]
    first = next((i for i, line in enumerate(lines) if "LY026 importing" in line), 0)
    return lines[first:]


TARGETS = (
    "checking",
    "function",
    "lambda",
    "class",
    "with",
    "if",
    "else",
    "try",
    "except",
    "finally",
)


def test_module_level_imports_run_wherever_they_stand_and_functions_do_not(project):
    project.write(
        {
            "src/app/__init__.py": "",
            "src/app/a.py": """
                import contextlib
                from typing import TYPE_CHECKING
                if TYPE_CHECKING:
                    import app.t_checking
                def f():
                    import app.t_function
                g = lambda: __import__("app.t_lambda")
                class C:
                    import app.t_class
                with contextlib.suppress(Exception):
                    import app.t_with
                if True:
                    import app.t_if
                else:
                    import app.t_else
                try:
                    import app.t_try
                except ImportError:
                    import app.t_except
                finally:
                    import app.t_finally
            """,
            **{f"src/app/t_{name}.py": "" for name in TARGETS},
            "contracts.toml": loads_config(["app.a"], [f"app.t_{name}" for name in TARGETS]),
        }
    )
    result = project.check()
    assert result.returncode == 1, result.stdout + result.stderr
    assert violation_lines(result.stdout) == [
        "src/app/a.py:9: LY026 importing app.a loads app.t_class",
        "src/app/a.py:11: LY026 importing app.a loads app.t_with",
        "src/app/a.py:13: LY026 importing app.a loads app.t_if [conditional]",
        "src/app/a.py:15: LY026 importing app.a loads app.t_else [conditional]",
        "src/app/a.py:17: LY026 importing app.a loads app.t_try [conditional]",
        "src/app/a.py:19: LY026 importing app.a loads app.t_except [conditional]",
        "src/app/a.py:21: LY026 importing app.a loads app.t_finally",
    ]


def test_importing_a_submodule_executes_its_parent_packages(project):
    project.write(
        {
            "src/app/__init__.py": "",
            "src/app/pkg/__init__.py": "import app.heavy\n",
            "src/app/pkg/sub/__init__.py": "",
            "src/app/pkg/sub/mod.py": "X = 1\n",
            "src/app/heavy.py": "",
            "src/app/leaf.py": "import os\nimport app.pkg.sub.mod\n",
            "contracts.toml": loads_config(["app.leaf", "app.pkg.sub.mod"], ["app.heavy"]),
        }
    )
    result = project.check()
    assert result.returncode == 1, result.stdout + result.stderr
    assert violation_lines(result.stdout) == [
        "src/app/leaf.py:2: LY026 importing app.leaf loads app.heavy",
        "src/app/leaf.py:2: app.leaf -> app.pkg [parent package]",
        "src/app/pkg/__init__.py:1: app.pkg -> app.heavy",
        "src/app/pkg/__init__.py:1: LY026 importing app.pkg.sub.mod loads app.heavy through its "
        "parent package app.pkg",
    ]


def test_a_forbidden_parent_package_is_loaded_by_every_module_inside_it(project):
    project.write(
        {
            "src/app/__init__.py": "",
            "src/app/pkg/__init__.py": "",
            "src/app/pkg/mod.py": "",
            "contracts.toml": loads_config(["app.pkg.mod"], ["app.pkg"]),
        }
    )
    result = project.check()
    assert result.returncode == 1, result.stdout + result.stderr
    assert violation_lines(result.stdout) == [
        "src/app/pkg/mod.py:1: LY026 importing app.pkg.mod loads app.pkg, its own parent package"
    ]


def test_from_import_executes_the_package_and_the_submodule_it_names(project):
    project.write(
        {
            "src/app/__init__.py": "",
            "src/app/p/__init__.py": "NAME = 1\n",
            "src/app/p/sub.py": "import app.heavy\n",
            "src/app/p/other.py": "from .. import heavy\n",
            "src/app/p/rel.py": "from . import sub\n",
            "src/app/heavy.py": "",
            "src/app/by_name.py": "from app.p import NAME\n",
            "src/app/by_module.py": "from app.p import NAME, sub\n",
            "src/app/relative.py": "from .p import rel\n",
            "contracts.toml": loads_config(
                ["app.by_name", "app.by_module", "app.relative", "app.p.other"], ["app.heavy"]
            ),
        }
    )
    result = project.check()
    assert result.returncode == 1, result.stdout + result.stderr
    assert violation_lines(result.stdout) == [
        "src/app/by_module.py:1: LY026 importing app.by_module loads app.heavy",
        "src/app/by_module.py:1: app.by_module -> app.p.sub (sub)",
        "src/app/p/sub.py:1: app.p.sub -> app.heavy",
        "src/app/p/other.py:1: LY026 importing app.p.other loads app.heavy",
        "src/app/relative.py:1: LY026 importing app.relative loads app.heavy",
        "src/app/relative.py:1: app.relative -> app.p.rel (rel)",
        "src/app/p/rel.py:1: app.p.rel -> app.p.sub (sub)",
        "src/app/p/sub.py:1: app.p.sub -> app.heavy",
    ]


def test_the_chain_is_the_one_the_interpreter_runs_first(project):
    """Two ways to the forbidden module: the report follows the one that runs first, as the probe
    sees it, not the shorter one further down."""
    project.write(
        {
            "src/app/__init__.py": "",
            "src/app/a.py": "import app.b\nimport app.heavy\n",
            "src/app/b.py": "import app.heavy\n",
            "src/app/heavy.py": "",
            "contracts.toml": loads_config(["app.a"], ["app.heavy"])
            + '\n[[contracts]]\nid = "probe"\nname = "probe"\ntype = "probe"\nmodules = '
            '["app.a"]\nforbidden = ["app.heavy"]\n',
        }
    )
    result = project.check()
    assert result.returncode == 1, result.stdout + result.stderr
    lines = violation_lines(result.stdout)
    assert lines == [
        "src/app/a.py:1: LY026 importing app.a loads app.heavy",
        "src/app/a.py:1: app.a -> app.b",
        "src/app/b.py:1: app.b -> app.heavy",
        "src/app/a.py:1: LY020 importing app.a loads app.heavy",
        "src/app/a.py:1: app.a -> app.b",
        "src/app/b.py:1: app.b -> app.heavy",
    ]


def test_a_forbidden_external_package_is_loaded_by_any_import_of_it_or_below_it(project):
    project.write(
        {
            "src/app/__init__.py": "",
            "src/app/a.py": "import torchvision\nfrom torch import cuda\n",
            "src/app/b.py": "import torch.nn.functional as F\n",
            "src/app/c.py": "import torchvision\n",
            "contracts.toml": loads_config(["app.a", "app.b", "app.c"], ["torch"]),
        }
    )
    result = project.check()
    assert result.returncode == 1, result.stdout + result.stderr
    assert violation_lines(result.stdout) == [
        "src/app/a.py:2: LY026 importing app.a loads torch",
        "src/app/b.py:1: LY026 importing app.b loads torch",
    ]
    assert "warning" not in result.stdout


def test_import_cycles_end_and_the_chain_follows_the_first_entry(project):
    project.write(
        {
            "src/app/__init__.py": "",
            "src/app/a.py": "import app.b\n",
            "src/app/b.py": "import app.a\nimport app.c\n",
            "src/app/c.py": "import app.a\nimport json\n",
            "contracts.toml": loads_config(["app.a"], ["json"]),
        }
    )
    result = project.check()
    assert result.returncode == 1, result.stdout + result.stderr
    assert violation_lines(result.stdout) == [
        "src/app/a.py:1: LY026 importing app.a loads json",
        "src/app/a.py:1: app.a -> app.b",
        "src/app/b.py:2: app.b -> app.c",
        "src/app/c.py:2: app.c -> json",
    ]


def test_expect_loaded_is_strict_and_only_shrinks(project):
    files = {
        "src/app/__init__.py": "",
        "src/app/a.py": "import app.heavy\n",
        "src/app/b.py": "",
        "src/app/heavy.py": "",
    }
    project.write(
        {**files, "contracts.toml": loads_config(["app.a", "app.b"], ["app.heavy"], ["app.a"])}
    )
    kept = project.check()
    assert kept.returncode == 0, kept.stdout + kept.stderr
    assert "no forbidden loads [loads] KEPT" in kept.stdout

    project.write({"src/app/a.py": "import os\n"})
    stale = project.check()
    assert stale.returncode == 1
    assert (
        "contracts.toml:11: LY032 app.a no longer loads a forbidden module: remove it from "
        "expect_loaded (it only shrinks)" in stale.stdout
    )
    pruned = project.layering("prune")
    assert pruned.returncode == 0, pruned.stdout + pruned.stderr
    assert "expect_loaded = []" in (project.root / "contracts.toml").read_text()
    assert project.check().returncode == 0


def test_configuration_mistakes_are_located_errors(project):
    project.write(
        {
            "src/app/__init__.py": "",
            "src/app/a.py": "",
            "contracts.toml": loads_config(
                ["app.a", "json"], ["app.nothing"], ["app.b"], extra=""
            ).replace('type = "loads"\n', 'type = "loads"\nforbiden = []\n'),
        }
    )
    result = project.check()
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "contracts.toml:9: error: contract 'no forbidden loads': unrecognized option 'forbiden'. "
        "Did you mean 'forbidden'?",
        "  hint: options of 'loads': expect, expect_loaded, forbidden, id, modules, name, "
        "severity, type",
    ]
    project.write({"contracts.toml": loads_config(["app.a", "json"], ["app.nothing"], ["app.b"])})
    result = project.check()
    assert result.returncode == 2
    assert (
        "contracts.toml:9: error: contract 'no forbidden loads': 'json' in 'modules' matches no "
        "module in the package app" in result.stderr
    )
    assert (
        "contracts.toml:10: error: contract 'no forbidden loads': 'app.nothing' in 'forbidden' "
        "matches no module in the package app" in result.stderr
    )
    project.write({"contracts.toml": loads_config(["app.a"], ["json"], ["app.b"])})
    result = project.check()
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "contracts.toml:11: error: contract 'no forbidden loads': expect_loaded names 'app.b', "
        "which is not checked",
        "  hint: list only modules that 'modules' names",
    ]


def test_a_static_run_executes_nothing_of_the_package(project):
    marker = project.root / "imported.txt"
    project.write(
        {
            "src/app/__init__.py": f"open({str(marker)!r}, 'w').write('ran')\n",
            "src/app/a.py": f"open({str(marker)!r}, 'w').write('ran')\nimport app.heavy\n",
            "src/app/heavy.py": f"open({str(marker)!r}, 'w').write('ran')\n",
            "contracts.toml": loads_config(["app.a"], ["app.heavy"])
            + '\n[[contracts]]\nid = "probe"\nname = "probe"\ntype = "probe"\nmodules = '
            '["app.a"]\nforbidden = ["app.heavy"]\n',
        }
    )
    result = project.check("--no-probe")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "src/app/a.py:2: LY026 importing app.a loads app.heavy" in result.stdout
    assert not marker.exists()
    probed = project.check("--probe-only")
    assert probed.returncode == 1
    assert (
        marker.exists()
    )  # the same package does write it when imported: the check above could fail


def test_an_unreadable_file_in_the_closure_is_a_located_error(project):
    project.write(
        {
            "src/app/__init__.py": "",
            "src/app/a.py": "import app.broken\n",
            "src/app/broken.py": "import (\n",
            "src/app/unrelated.py": "def (:\n",
            "contracts.toml": loads_config(["app.a"], ["json"]),
        }
    )
    result = project.check()
    assert result.returncode == 2
    assert "src/app/broken.py:1: LY040 syntax error: " in result.stdout
    assert "unrelated" not in result.stdout


def test_lazy_imports_do_not_run(project):
    source = "lazy import app.heavy\n"
    project.write(
        {
            "src/app/__init__.py": "",
            "src/app/a.py": source,
            "src/app/heavy.py": "",
            "contracts.toml": loads_config(["app.a"], ["app.heavy"]),
        }
    )
    result = project.check()
    try:
        ast.parse(source)
    except SyntaxError:
        assert result.returncode == 2
        assert "src/app/a.py:1: LY040 syntax error" in result.stdout
    else:  # PEP 810 Pythons
        assert result.returncode == 0, result.stdout


def test_reports_are_the_same_bytes_under_any_hash_seed(project):
    project.write(
        {
            "src/app/__init__.py": "",
            "src/app/a.py": "import app.b, app.c\nfrom app import d, e\n",
            "src/app/b.py": "import app.f\n",
            "src/app/c.py": "import app.f\n",
            "src/app/d.py": "import app.f\n",
            "src/app/e.py": "import app.f\n",
            "src/app/f.py": "",
            "contracts.toml": loads_config(["app.*"], ["app.f"]),
        }
    )
    outputs = set()
    for seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        import subprocess

        outputs.add(
            subprocess.run(
                [sys.executable, "-m", "layering", "check", "--format", "json"],
                cwd=project.root,
                env=env,
                capture_output=True,
                text=True,
            ).stdout
        )
    assert len(outputs) == 1


def cut_of(project, *args: str) -> dict:
    """The JSON report's entry of the contract, checked against the report's schema."""
    import importlib.resources
    import json

    import jsonschema

    result = project.check("--format", "json", *args)
    document = json.loads(result.stdout)
    schema = importlib.resources.files("layering.schema").joinpath("report-v2.json")
    jsonschema.validate(document, json.loads(schema.read_text(encoding="utf-8")))
    (contract,) = document["contracts"]
    return contract


def remove_lines(project, entries: list[dict]) -> None:
    """Blank each line the entries name, so that every other line keeps its number."""
    for path in sorted({e["path"] for e in entries}):
        lines = (project.root / path).read_text(encoding="utf-8").splitlines()
        for entry in entries:
            if entry["path"] == path:
                for line in entry["lines"] if "lines" in entry else [entry["line"]]:
                    lines[line - 1] = ""
        (project.root / path).write_text("\n".join(lines) + "\n", encoding="utf-8")


CUT_PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/a.py": "import app.b\nimport app.c\n",
    "src/app/b.py": "import app.d\n",
    "src/app/c.py": "import app.d\n",
    "src/app/d.py": "import os\nimport app.heavy\nimport json\n",
    "src/app/e.py": "from app import heavy\n",
    "src/app/f.py": "import app.pkg.mod\n",
    "src/app/pkg/__init__.py": "import json\n",
    "src/app/pkg/mod.py": "",
    "src/app/heavy.py": "",
}


def test_a_broken_contract_names_the_imports_that_cut_its_chains_as_a_graph_contract_does(
    project,
):
    project.write(
        {
            **CUT_PACKAGE,
            "contracts.toml": loads_config(["app.a", "app.e", "app.f"], ["app.heavy", "json"]),
        }
    )
    result = project.check()
    assert result.returncode == 1, result.stdout + result.stderr
    lines = [line.strip() for line in result.stdout.splitlines() if line.startswith("  ")]
    assert lines[: lines.index("src/app/a.py:1: LY026 importing app.a loads app.heavy")] == [
        "4 chains from app.a, app.e, app.f to app.heavy, json; removing these 4 imports cuts "
        "them all:",
        "src/app/d.py:2: LY026 app.d imports app.heavy",
        "2 of the 4 chains run through it; the shortest:",
        "src/app/a.py:1: app.a -> app.b",
        "src/app/b.py:1: app.b -> app.d",
        "src/app/d.py:2: app.d -> app.heavy",
        "src/app/e.py:1: LY026 app.e imports app.heavy (heavy)",
        "src/app/pkg/__init__.py:1: LY026 app.pkg imports json",
        "1 of the 4 chains runs through it; the shortest:",
        "src/app/f.py:1: app.f -> app.pkg [parent package]",
        "src/app/pkg/__init__.py:1: app.pkg -> json",
        "... and 1 more import of the cut (1 statement) and 1 more chain (--chains all to list "
        "them)",
    ]
    contract = cut_of(project)
    assert [g["source"] for g in contract["chain_groups"]] == ["app.a, app.e, app.f"]
    assert [(c["importer"], c["imported"], c["path"], c["lines"]) for c in contract["cut"]] == [
        ("app.d", "app.heavy", "src/app/d.py", [2]),
        ("app.e", "app.heavy", "src/app/e.py", [1]),
        ("app.pkg", "json", "src/app/pkg/__init__.py", [1]),
        ("app.d", "json", "src/app/d.py", [3]),
    ]
    assert contract["contract_cut"] == []  # one group: its cut is the contract's
    remove_lines(project, contract["cut"])
    kept = project.check()
    assert kept.returncode == 0 and "[loads] KEPT" in kept.stdout, kept.stdout


def test_modules_that_excuse_other_loads_are_groups_of_their_own_cut_together(project):
    project.write(
        {
            **CUT_PACKAGE,
            "src/app/x.py": "import json\nimport app.b\n",
            "contracts.toml": loads_config(
                ["app.a", "app.x"], ["app.heavy", "json"], expect_loaded=["app.x -> json"]
            ),
        }
    )
    contract = cut_of(project)
    assert [(g["source"], g["target"]) for g in contract["chain_groups"]] == [
        ("app.a", "app.heavy, json"),
        ("app.x", "app.heavy"),
    ]
    assert [(h["path"], h["line"]) for h in contract["contract_cut"]] == [
        ("src/app/d.py", 2),
        ("src/app/d.py", 3),
    ]
    remove_lines(project, contract["contract_cut"])
    kept = project.check()
    assert kept.returncode == 0 and "[loads] KEPT" in kept.stdout, kept.stdout


def test_a_module_that_is_forbidden_itself_has_no_import_to_cut(project):
    project.write(
        {**CUT_PACKAGE, "contracts.toml": loads_config(["app.heavy", "app.e"], ["app.heavy"])}
    )
    contract = cut_of(project)
    assert [(g["source"], g["target"], g["cut"]) for g in contract["chain_groups"]] == [
        ("app.e", "app.heavy", 1)
    ]
    assert {v["importer"] for v in contract["violations"]} == {"app.e", "app.heavy"}
