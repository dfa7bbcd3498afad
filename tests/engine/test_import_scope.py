"""`type_checking` and `function_level` ("count" or "ignore") on a contract of any type.

Each test runs the real CLI on a small package: an ignored kind of import is neither a
finding nor a hop of a chain, an import some of whose statements count shows only those, the
same holds for import-linter's types, every output format prints the same with and without
the cache (an edit that changes only a statement's kind included), and a wrong value, or the
option on a contract of what runs, is a located error.
"""

from __future__ import annotations

import json

import pytest
from report_support import run_layering, write_files

PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/a.py": (
        "from typing import TYPE_CHECKING\n"
        "\n"
        "from app import b\n"
        "\n"
        "if TYPE_CHECKING:\n"
        "    from app import c\n"
        "\n"
        "\n"
        "def f():\n"
        "    from app import d\n"
    ),
    "src/app/b.py": (
        "from typing import TYPE_CHECKING\n"
        "\n"
        "if TYPE_CHECKING:\n"
        "    from app import c\n"
        "\n"
        "\n"
        "def g():\n"
        "    from app import c\n"
    ),
    "src/app/c.py": "",
    "src/app/d.py": "",
}

HEADER = 'root_packages = ["app"]\nsource_roots = ["src"]\n'

CHAINS = """
[[contracts]]
id = "a-no-c"
name = "a does not reach c or d"
type = "forbidden"
source_modules = ["app.a"]
forbidden_modules = ["app.c", "app.d"]
"""

LEAF = """
[[contracts]]
id = "a-leaf"
name = "a is a leaf"
type = "leaf"
modules = ["app.a"]
within = ["app.c", "app.d"]
"""

LAYERS = """
[[contracts]]
id = "layers"
name = "c above b"
type = "layers"
layers = ["app.c", "app.b"]
"""


def _project(tmp_path, *contracts: str, files: dict[str, str] | None = None):
    return write_files(
        tmp_path, {**PACKAGE, **(files or {}), "contracts.toml": HEADER + "".join(contracts)}
    )


def _scoped(contract: str, **scope: str) -> str:
    return contract + "".join(f'{key} = "{value}"\n' for key, value in scope.items())


def _findings(stdout: str) -> list[str]:
    return [line.strip() for line in stdout.splitlines() if ": LY0" in line]


def test_by_default_every_kind_counts(tmp_path):
    run = run_layering(_project(tmp_path, CHAINS, LEAF), "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "src/app/a.py:6: LY001 app.a imports app.c [TYPE_CHECKING]" in run.stdout
    assert "src/app/a.py:10: LY003 app.a imports app.d [function-level]" in run.stdout


def test_type_checking_ignored_leaves_those_imports_out_of_findings_and_chains(tmp_path):
    contract = _scoped(CHAINS, type_checking="ignore")
    run = run_layering(_project(tmp_path, contract), "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "TYPE_CHECKING" not in run.stdout
    assert _findings(run.stdout) == [
        "src/app/a.py:10: LY001 app.a imports app.d [function-level]",
        "src/app/b.py:8: LY002 app.b imports app.c [function-level]",
    ]


def test_both_ignored_keep_a_contract_broken_only_by_those(tmp_path):
    contracts = (
        _scoped(CHAINS, type_checking="ignore", function_level="ignore"),
        _scoped(LEAF, type_checking="ignore", function_level="ignore"),
    )
    run = run_layering(_project(tmp_path, *contracts), "check", "--no-cache")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "[a-no-c] KEPT" in run.stdout and "[a-leaf] KEPT" in run.stdout


def test_function_level_ignored_on_a_leaf(tmp_path):
    run = run_layering(
        _project(tmp_path, _scoped(LEAF, function_level="ignore")), "check", "--no-cache"
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert _findings(run.stdout) == ["src/app/a.py:6: LY003 app.a imports app.c [TYPE_CHECKING]"]


def test_an_import_linter_type_shows_only_the_statements_that_count(tmp_path):
    counted = run_layering(_project(tmp_path, LAYERS), "check", "--no-cache")
    assert "src/app/b.py:4: LY011 app.b imports app.c [TYPE_CHECKING]" in counted.stdout
    root = _project(tmp_path, _scoped(LAYERS, type_checking="ignore"))
    run = run_layering(root, "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    assert _findings(run.stdout) == ["src/app/b.py:8: LY011 app.b imports app.c [function-level]"]
    both = _scoped(LAYERS, type_checking="ignore", function_level="ignore")
    run = run_layering(_project(tmp_path, both), "check", "--no-cache")
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize("format", ["text", "json", "github", "sarif"])
def test_every_format_is_the_same_cached_and_not(tmp_path, format):
    contracts = (
        _scoped(CHAINS, type_checking="ignore"),
        _scoped(LEAF, function_level="ignore"),
        _scoped(LAYERS, type_checking="ignore"),
    )
    root = _project(tmp_path, *contracts)
    runs = [run_layering(root, "check", "--format", format) for _ in range(2)]
    fresh = run_layering(root, "check", "--format", format, "--no-cache")
    assert (tmp_path / ".layering_cache").is_dir()
    assert fresh.returncode == 1, fresh.stdout + fresh.stderr
    for run in runs:
        assert (run.returncode, run.stdout) == (fresh.returncode, fresh.stdout)
    if format == "json":
        contracts_by_id = {c["id"]: c for c in json.loads(fresh.stdout)["contracts"]}
        assert all(c["verdict"] == "broken" for c in contracts_by_id.values())
    if format == "text":  # b's TYPE_CHECKING import of c counts for no contract
        assert "src/app/b.py:4" not in fresh.stdout


@pytest.mark.parametrize(
    ("before", "after", "option"),
    [
        ("if True:", "if TYPE_CHECKING:", "type_checking"),
        ("if True:", "def h():", "function_level"),
    ],
)
def test_a_cached_verdict_follows_an_edit_of_a_statements_kind_alone(
    tmp_path, before, after, option
):
    """The statement keeps its line and its text: only its kind changes."""
    b = "from typing import TYPE_CHECKING\n\n{}\n    from app import c\n"
    root = _project(
        tmp_path,
        _scoped(LAYERS, **{option: "ignore"}),
        files={"src/app/b.py": b.format(before)},
    )
    first = run_layering(root, "check")
    assert first.returncode == 1, first.stdout + first.stderr
    (root / "src/app/b.py").write_text(b.format(after))
    cached, fresh = run_layering(root, "check"), run_layering(root, "check", "--no-cache")
    assert (cached.returncode, cached.stdout) == (fresh.returncode, fresh.stdout)
    assert fresh.returncode == 0, fresh.stdout


def test_baseline_then_prune_with_a_scope(tmp_path):
    root = _project(tmp_path, _scoped(LEAF, type_checking="ignore"))
    assert run_layering(root, "baseline").returncode == 0
    config = (root / "contracts.toml").read_text()
    assert '{ importer = "app.a", module = "app.d" }' in config or "app.d" in config
    assert "app.c" not in config.split("allow", 1)[1]
    assert run_layering(root, "check", "--no-cache").returncode == 0


@pytest.mark.parametrize(
    ("contract", "said"),
    [
        (
            _scoped(CHAINS, type_checking="skip"),
            'type_checking takes "count" or "ignore", got \'skip\'',
        ),
        (
            '\n[[contracts]]\nid = "l"\ntype = "loads"\nmodules = ["app.a"]\nforbidden = '
            '["app.c"]\n'
            'function_level = "ignore"\n',
            "a loads contract follows what runs when a module is imported",
        ),
    ],
)
def test_a_wrong_scope_is_a_located_error(tmp_path, contract, said):
    root = _project(tmp_path, contract)
    run = run_layering(root, "check")
    assert run.returncode == 2, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    lines = (root / "contracts.toml").read_text().splitlines()
    line = next(
        i
        for i, text in enumerate(lines, 1)
        if text.startswith(("type_checking", "function_level"))
    )
    assert f"contracts.toml:{line}:" in run.stdout + run.stderr
    assert said in run.stdout + run.stderr
