"""`layering graph`: the import graph of a package at a depth, through the real CLI.

The package below has, at depth 2, these module-to-module imports between subpackages:
app.api -> app.core (views and forms import core.models; views twice, counted once),
app.api -> app.util (views), app.core -> app.util (models), app.util -> app.api (lazy, in a
function); and two inside one subpackage (api.forms -> api.views, core.signals -> core.models).
"""

from __future__ import annotations

import importlib.resources
import json
import re
import shutil
import subprocess

import jsonschema
import pytest

PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/api/__init__.py": "",
    "src/app/api/views.py": "from app.core import models\nfrom app.core.models import "
    "User\nimport app.util.text\n",
    "src/app/api/forms.py": "from app.core import models\nimport app.api.views\n",
    "src/app/core/__init__.py": "",
    "src/app/core/models.py": "import json\nimport app.util.text\n\nUser = object\n",
    "src/app/core/signals.py": "from app.core import models\n",
    "src/app/util/__init__.py": "",
    "src/app/util/text.py": "import os\n",
    "src/app/util/lazy.py": "def views():\n    from app.api import views\n    return views\n",
}

HEADER = 'root_packages = ["app"]\nsource_roots = ["src"]\ncache_dir = false\n'


def forbidden(contract_id: str, source: str, target: str, extra: str = "") -> str:
    """A forbidden contract, as a [[contracts]] table."""
    return (
        f"\n[[contracts]]\nid = {json.dumps(contract_id)}\nname = {json.dumps(contract_id)}\ntype "
        '= "forbidden"\n'
        f'source_modules = ["{source}"]\nforbidden_modules = ["{target}"]\n{extra}'
    )


HOSTILE_ID = 'util "no" api #1 <x>'
UTIL_NO_API = forbidden("util-no-api", "app.util", "app.api")
FORMS_NO_VIEWS = forbidden("forms-no-views", "app.api.forms", "app.api.views")
CORE_NO_JSON = forbidden("core-no-json", "app.core", "json", "allow_indirect_imports = true\n")
KEPT = forbidden("core-no-api", "app.core", "app.api")


def graph_json(project, *args: str) -> tuple[dict, subprocess.CompletedProcess]:
    result = project.layering("graph", "--format", "json", *args)
    assert "Traceback" not in result.stderr, result.stderr
    return json.loads(result.stdout), result


def edges(document: dict) -> list[tuple[str, str, int, list[str]]]:
    return [
        (e["importer"], e["imported"], e["imports"], e["broken_by"]) for e in document["edges"]
    ]


def test_depth_2_squashes_subpackages_and_weighs_each_edge_by_its_module_imports(project):
    project.write({**PACKAGE, "contracts.toml": HEADER})
    document, result = graph_json(project)
    assert result.returncode == 0, result.stderr
    assert (
        document["depth"] == 2
        and document["package"] is None
        and document["root_packages"] == ["app"]
    )
    assert [(n["name"], n["modules"]) for n in document["nodes"]] == [
        ("app", 1),
        ("app.api", 3),
        ("app.core", 3),
        ("app.util", 3),
    ]
    assert edges(document) == [
        ("app.api", "app.core", 2, []),
        ("app.api", "app.util", 1, []),
        ("app.core", "app.util", 1, []),
        ("app.util", "app.api", 1, []),
    ]
    assert document["broken_contracts"] == [] and document["undrawn_broken_imports"] == 0


def test_depth_3_draws_modules_and_a_shallower_module_stays_itself(project):
    project.write({**PACKAGE, "contracts.toml": HEADER})
    document, _ = graph_json(project, "--depth", "3")
    assert [n["name"] for n in document["nodes"]] == [
        "app",
        "app.api",
        "app.api.forms",
        "app.api.views",
        "app.core",
        "app.core.models",
        "app.core.signals",
        "app.util",
        "app.util.lazy",
        "app.util.text",
    ]
    assert edges(document) == [
        ("app.api.forms", "app.api.views", 1, []),
        ("app.api.forms", "app.core.models", 1, []),
        ("app.api.views", "app.core.models", 1, []),
        ("app.api.views", "app.util.text", 1, []),
        ("app.core.models", "app.util.text", 1, []),
        ("app.core.signals", "app.core.models", 1, []),
        ("app.util.lazy", "app.api.views", 1, []),
    ]


def test_a_broken_contract_marks_the_edge_of_its_cut_and_the_node_that_holds_an_import_inside(
    project,
):
    project.write({**PACKAGE, "contracts.toml": HEADER + UTIL_NO_API + FORMS_NO_VIEWS + KEPT})
    document, result = graph_json(project)
    assert result.returncode == 1, result.stderr
    assert document["exit_code"] == 1
    assert document["broken_contracts"] == ["util-no-api", "forms-no-views"]  # configuration order
    assert ("app.util", "app.api", 1, ["util-no-api"]) in edges(document)
    assert [e for e in edges(document) if e[3]] == [("app.util", "app.api", 1, ["util-no-api"])]
    assert {n["name"]: n["broken_by"] for n in document["nodes"]}["app.api"] == ["forms-no-views"]


def test_a_package_draws_its_own_modules_and_says_what_it_leaves_out(project):
    project.write({**PACKAGE, "contracts.toml": HEADER + UTIL_NO_API + FORMS_NO_VIEWS})
    document, result = graph_json(project, "app.api")
    assert result.returncode == 1
    assert document["package"] == "app.api" and document["depth"] == 3
    assert [n["name"] for n in document["nodes"]] == ["app.api", "app.api.forms", "app.api.views"]
    assert edges(document) == [("app.api.forms", "app.api.views", 1, ["forms-no-views"])]
    assert (
        document["undrawn_broken_imports"] == 1
    )  # app.util.lazy -> app.api.views: its importer is outside
    assert (
        "1 import that broken contracts report is not drawn (not between two modules of app.api)"
        in result.stderr
    )


def test_external_packages_only_where_configured_or_reached_by_a_broken_import(project):
    project.write({**PACKAGE, "contracts.toml": HEADER + CORE_NO_JSON})
    document, result = graph_json(project)
    assert result.returncode == 1, result.stderr
    assert [(n["name"], n["external"]) for n in document["nodes"] if n["external"]] == [
        ("json", True)
    ]
    assert ("app.core", "json", 1, ["core-no-json"]) in edges(document)

    project.write({"contracts.toml": HEADER + "include_external_packages = true\n"})
    document, result = graph_json(project)
    assert result.returncode == 0, result.stderr
    assert [n["name"] for n in document["nodes"] if n["external"]] == ["json", "os"]
    assert ("app.util", "os", 1, []) in edges(document)


def test_kept_contracts_and_no_contracts_exit_0(project):
    project.write({**PACKAGE, "contracts.toml": HEADER + KEPT})
    assert project.layering("graph").returncode == 0
    project.write({"contracts.toml": HEADER + UTIL_NO_API})
    assert project.layering("graph").returncode == 1
    document, result = graph_json(project, "--no-contracts")
    assert result.returncode == 0 and document["broken_contracts"] == []
    assert all(not e["broken_by"] for e in document["edges"])


def test_the_json_matches_its_schema(project):
    schema = json.loads(
        (importlib.resources.files("layering") / "schema" / "graph-v1.json").read_text(
            encoding="utf-8"
        )
    )
    project.write(
        {**PACKAGE, "contracts.toml": HEADER + UTIL_NO_API + FORMS_NO_VIEWS + CORE_NO_JSON}
    )
    document, _ = graph_json(project)
    jsonschema.validate(document, schema)
    error, result = graph_json(project, "app.nothing")
    assert result.returncode == 2
    jsonschema.validate(error, schema)


MERMAID_NODE = re.compile(r'^  (n\d+)(\[|\(\[)"([^"]*)"(\]|\]\))$')
MERMAID_EDGE = re.compile(r'^  (n\d+) (-->|==>)\|"([^"]*)"\| (n\d+)$')


def test_mermaid_is_a_flowchart_with_generated_ids_quoted_labels_and_red_broken_links(project):
    project.write(
        {
            **PACKAGE,
            "contracts.toml": HEADER + forbidden(HOSTILE_ID, "app.util", "app.api") + CORE_NO_JSON,
        }
    )
    result = project.layering("graph")
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "flowchart LR"
    labels, links, styled = {}, [], []
    for line in lines[1:]:
        if line.startswith("  %%"):
            continue
        if node := MERMAID_NODE.match(line):
            labels[node[1]] = (node[3], node[2] == "([")
        elif edge := MERMAID_EDGE.match(line):
            links.append((labels[edge[1]][0], edge[2], edge[3], labels[edge[4]][0]))
        elif line.startswith("  linkStyle "):
            styled = [int(i) for i in line.split()[1].split(",")]
        else:
            assert line.startswith(("  classDef broken ", "  class ")) and "broken" in line, line
    assert labels["n4"] == ("json", True)  # an external package, drawn as a stadium
    assert (
        "app.util",
        "==>",
        "1; breaks util #quot;no#quot; api #35;1 #lt;x#gt;",
        "app.api",
    ) in links
    assert ("app.core", "==>", "1; breaks core-no-json", "json") in links
    assert ("app.api", "-->", "2", "app.core") in links
    assert sorted(links[i] for i in styled) == sorted(link for link in links if link[1] == "==>")


DOT_ID = r'"(?:[^"\\]|\\.)*"'
DOT_STATEMENT = re.compile(rf"^  ({DOT_ID})(?: -> ({DOT_ID}))?(?: \[(.*)\])?;$")


def test_dot_quotes_every_id_and_colours_broken_edges_red(project):
    project.write(
        {**PACKAGE, "contracts.toml": HEADER + forbidden(HOSTILE_ID, "app.util", "app.api")}
    )
    result = project.layering("graph", "--format", "dot")
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert re.fullmatch(rf"digraph {DOT_ID} {{", lines[0]) and lines[-1] == "}"
    found = {}
    for line in lines[1:-1]:
        if line.startswith("  //") or line in ("  rankdir=LR;", "  node [shape=box];"):
            continue
        statement = DOT_STATEMENT.match(line)
        assert statement, line
        if statement[2]:
            found[statement[1], statement[2]] = statement[3]
    assert (
        found['"app.util"', '"app.api"']
        == r'label="1; breaks util \"no\" api #1 <x>", color=red, fontcolor=red, penwidth=2'
    )
    assert found['"app.api"', '"app.core"'] == 'label="2"'
    if shutil.which("dot"):  # graphviz itself, where it is installed
        subprocess.run(
            ["dot", "-Tsvg"], input=result.stdout, text=True, capture_output=True, check=True
        )


@pytest.mark.parametrize("format_name", ["mermaid", "dot", "json"])
def test_the_same_bytes_under_two_hash_seeds(project, format_name):
    project.write(
        {
            **PACKAGE,
            "contracts.toml": HEADER
            + "include_external_packages = true\n"
            + UTIL_NO_API
            + FORMS_NO_VIEWS,
        }
    )
    runs = [
        project.layering(
            "graph", "--depth", "3", "--format", format_name, env={"PYTHONHASHSEED": seed}
        )
        for seed in ("0", "123")
    ]
    assert runs[0].returncode == 1, runs[0].stderr
    assert (runs[0].stdout, runs[0].stderr) == (runs[1].stdout, runs[1].stderr)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("app.apj",), "no package 'app.apj' in the root packages. Did you mean 'app.api'?"),
        (("ap",), "'ap' is not in the root packages (app). Did you mean 'app'?"),
        (("app.api.views",), "'app.api.views' is a module, not a package: its graph is one node"),
        (("--depth", "1"), "--depth: 1 is too shallow: 'app' would be one node"),
        (("app.api", "--depth", "2"), "--depth: 2 is too shallow: 'app.api' would be one node"),
    ],
)
def test_a_bad_package_or_depth_is_a_usage_error_with_exit_2(project, arguments, message):
    project.write({**PACKAGE, "contracts.toml": HEADER + UTIL_NO_API})
    result = project.layering("graph", *arguments)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout == "" and "Traceback" not in result.stderr
    assert result.stderr.startswith("layering: error: argument ") and message in result.stderr, (
        result.stderr
    )
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("package", "said"),
    [
        ("app.nope", "no package 'app.nope' in the root packages."),
        ("app.apj", "no package 'app.apj' in the root packages. Did you mean 'app.api'?"),
        ("app.api.nope", "no package 'app.api.nope' in the root packages."),
    ],
)
def test_an_unknown_package_is_answered_with_the_packages_beside_it_never_an_unrelated_one(
    project, package, said
):
    project.write({**PACKAGE, "contracts.toml": HEADER})
    result = project.layering("graph", package)
    assert result.returncode == 2, result.stdout + result.stderr
    beside = (
        "'app.api' holds no package: name 'app.api' itself."
        if package.startswith("app.api.")
        else "The packages in 'app': app.api, app.core, app.util."
    )
    assert result.stderr == f"layering: error: argument PACKAGE: {said} {beside}\n"


@pytest.mark.parametrize("depth", ["0", "two", "-1"])
def test_a_depth_that_is_not_a_positive_number_is_a_usage_error(project, depth):
    project.write({**PACKAGE, "contracts.toml": HEADER})
    result = project.layering("graph", f"--depth={depth}")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "--depth: takes a number of name components, 1 or more" in result.stderr


def test_a_configuration_error_is_reported_in_json_too(project):
    project.write(
        {
            **PACKAGE,
            "contracts.toml": HEADER + UTIL_NO_API.replace("source_modules", "source_modles"),
        }
    )
    document, result = graph_json(project)
    assert result.returncode == 2 and document["exit_code"] == 2
    assert (
        document["errors"][0]["path"].endswith("contracts.toml")
        and document["errors"][0]["line"] > 0
    )
    assert "source_modles" in result.stderr


def test_a_missing_root_package_and_the_config_option(project):
    project.write(
        {
            **PACKAGE,
            "conf/layering.toml": 'root_packages = ["ghost"]\nsource_roots = '
            '["../src"]\ncache_dir = false\n',
        }
    )
    result = project.layering("graph", "--config", "conf/layering.toml")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert (
        "conf/layering.toml:2: error: root package 'ghost' not found in the source roots"
        in result.stderr
    )


def test_help_says_what_the_depth_and_the_weights_mean(project):
    result = project.layering("graph", "--help")
    assert result.returncode == 0
    assert "django.db.models.base is drawn as django.db" in result.stdout
    assert "module-to-module imports" in result.stdout


def test_a_file_that_cannot_be_parsed_is_named_at_its_line(project):
    project.write(
        {**PACKAGE, "src/app/util/broken.py": "import os\ndef f(:\n", "contracts.toml": HEADER}
    )
    result = project.layering("graph")
    assert result.returncode == 2 and result.stdout == "" and "Traceback" not in result.stderr
    assert result.stderr.startswith("src/app/util/broken.py:2: error: syntax error"), result.stderr
