"""`layering graph --contract ID`: a layers contract's declared stack, highest layer on top,
containers as groups, each import that breaks it in red at its file:line; through the real CLI.

The package: api over (domain | services) over infra; infra.db imports domain (line 1) and
api.views (line 2), both against the stack; domain.model imports infra (allowed).
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/api/__init__.py": "",
    "src/app/api/views.py": "from app import domain\n",
    "src/app/domain/__init__.py": "",
    "src/app/domain/model.py": "import app.infra\n",
    "src/app/services/__init__.py": "",
    "src/app/infra/__init__.py": "",
    "src/app/infra/db.py": "import app.domain\nimport app.api.views\n",
}

HEADER = 'root_packages = ["app"]\nsource_roots = ["src"]\ncache_dir = false\n'

STACK = """
[[contracts]]
id = "stack"
name = "api over domain and services over infra"
type = "layers"
layers = ["app.api", "app.domain | app.services", "app.infra"]

[[contracts]]
id = "api-no-infra"
name = "api does not import infra"
type = "forbidden"
source_modules = ["app.api"]
forbidden_modules = ["app.infra"]
"""

CONTAINERS = {
    "src/shop/__init__.py": "",
    **{
        f"src/shop/{app}/{part}.py": ""
        for app in ("orders", "billing")
        for part in ("views", "models")
    },
    "src/shop/orders/__init__.py": "",
    "src/shop/billing/__init__.py": "",
    "src/shop/billing/models.py": "from shop.billing import views\n",
}


def stack_project(project, contracts: str = STACK, files: dict | None = None):
    return project.write({**(files or PACKAGE), "contracts.toml": HEADER + contracts})


def test_mermaid_draws_the_layers_top_down_and_every_broken_import_red(project):
    stack_project(project)
    result = project.layering("graph", "--contract", "stack")
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines()[2:] == [
        '  n0["app.api"]',
        '  subgraph l0["independent"]',
        "    direction LR",
        '    n1["app.domain"]',
        '    n2["app.services"]',
        "  end",
        '  n3["app.infra"]',
        "  n0 ~~~ l0",
        "  l0 ~~~ n3",
        '  n3 ==>|"src/app/infra/db.py:2"| n0',
        '  n3 ==>|"src/app/infra/db.py:1"| n1',
        "  linkStyle 2,3 stroke:#d32f2f,stroke-width:3px,color:#d32f2f",
    ]
    assert result.stdout.startswith("flowchart TB\n")


def test_dot_ranks_the_layers_and_keeps_broken_edges_from_moving_them(project):
    stack_project(project)
    result = project.layering("graph", "--contract", "stack", "--format", "dot")
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert '  "app.api" -> "app.domain" [style=invis];' in lines
    assert '  "app.domain" -> "app.infra" [style=invis];' in lines
    assert '    { rank=same; "app.domain"; "app.services"; }' in lines
    assert (
        '  "app.infra" -> "app.api" [label="src/app/infra/db.py:2", color=red, fontcolor=red, '
        "penwidth=2, constraint=false];" in lines
    )
    if shutil.which("dot"):  # graphviz itself, where it is installed
        subprocess.run(
            ["dot", "-Tsvg"], input=result.stdout, text=True, capture_output=True, check=True
        )


def test_a_kept_stack_exits_0_and_says_nothing_breaks_it(project):
    files = {**PACKAGE, "src/app/infra/db.py": ""}
    stack_project(project, files=files)
    result = project.layering("graph", "--contract", "stack")
    assert result.returncode == 0, result.stderr
    assert "no import breaks it" in result.stdout
    assert "==>" not in result.stdout


def test_containers_are_groups_of_their_own_layers(project):
    contracts = """
[[contracts]]
id = "apps"
name = "views over models in each app"
type = "layers"
containers = ["shop.orders", "shop.billing"]
layers = ["views", "models : (admin)"]
"""
    project.write({**CONTAINERS, "contracts.toml": HEADER.replace('"app"', '"shop"') + contracts})
    result = project.layering("graph", "--contract", "apps")
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines()[2:] == [
        '  subgraph g0["shop.billing"]',
        "    direction TB",
        '    n0["views"]',
        '    n1["models"]',
        "    n0 ~~~ n1",
        "  end",
        '  subgraph g1["shop.orders"]',
        "    direction TB",
        '    n2["views"]',
        '    n3["models"]',
        "    n2 ~~~ n3",
        "  end",
        '  n1 ==>|"src/shop/billing/models.py:1"| n0',
        "  linkStyle 2 stroke:#d32f2f,stroke-width:3px,color:#d32f2f",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--contract", "stak"],
            "contracts.toml: error: --contract 'stak' names no contract. Did you mean 'stack'?",
        ),
        (
            ["--contract", "api-no-infra"],
            "contracts.toml:14: error: contract 'api-no-infra' is a 'forbidden' contract: only a "
            "layers contract has a stack to draw",
        ),
        (
            ["app.api", "--contract", "stack"],
            "contracts.toml: error: PACKAGE does not apply to --contract, which draws one "
            "contract's layers",
        ),
        (
            ["--contract", "stack", "--format", "json"],
            "contracts.toml: error: --format json does not apply to --contract",
        ),
    ],
)
def test_what_has_no_stack_to_draw_is_a_located_error_and_exit_2(project, args, message):
    stack_project(project)
    result = project.layering("graph", *args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert message in result.stderr


def test_without_contracts_the_stack_is_drawn_unmarked(project):
    stack_project(project)
    result = project.layering("graph", "--contract", "stack", "--no-contracts")
    assert result.returncode == 0, result.stderr
    assert "the contract is not checked" in result.stdout
    assert "==>" not in result.stdout
