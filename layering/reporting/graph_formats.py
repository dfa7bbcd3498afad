"""`layering graph` formats: Mermaid (GitHub renders it in markdown, PR comments and job
summaries), graphviz dot, and JSON (schema: layering/schema/graph-v1.json).

An edge's label is the number of module-to-module imports it stands for; an edge that carries
an import a broken contract reports is drawn red and labelled with the contract ids, and a node
with such an import between two of its own modules is outlined red. Output is sorted.
"""

from __future__ import annotations

import json
from typing import Any

from layering.domain.errors import ConfigError
from layering.domain.package_graph import GraphEdge, GraphNode, PackageGraph
from layering.domain.results import RunReport, Verdict
from layering.domain.version import VERSION

SCHEMA = "layering-graph-v1"
RED = "#d32f2f"
MERMAID_MAX_EDGES = 500
MERMAID_MAX_TEXT = 50_000
"""Mermaid's defaults (`maxEdges`, `maxTextSize`): a larger diagram is not rendered."""


def _title(graph: PackageGraph) -> str:
    drawn = graph.package or ", ".join(graph.root_packages)
    return f"{drawn} at depth {graph.depth}"


def _edge_label(edge: GraphEdge) -> str:
    return (
        f"{edge.imports}; breaks {', '.join(edge.broken_by)}"
        if edge.broken_by
        else str(edge.imports)
    )


def _node_label(node: GraphNode) -> str:
    return (
        f"{node.name} (breaks {', '.join(node.broken_by)} inside)" if node.broken_by else node.name
    )


def one_line(text: str) -> str:
    return " ".join(text.split())


def mermaid_text(text: str) -> str:
    """A quoted Mermaid string: its own specials as entity codes (`#quot;`...)."""
    codes = {"#": "#35;", '"': "#quot;", "<": "#lt;", ">": "#gt;", "&": "#amp;"}
    return '"' + "".join(codes.get(c, c) for c in one_line(text)) + '"'


def render_mermaid(graph: PackageGraph, exit_code: int = 0) -> str:
    """A `flowchart LR`; nodes get ids n0, n1... (dotted names are labels, never ids). The
    exit code is for JSON (every format takes it: `reporting.formats`)."""
    ids = {node.name: f"n{position}" for position, node in enumerate(graph.nodes)}
    lines = [
        "flowchart LR",
        f"  %% layering graph: {one_line(_title(graph))}. Edge label: the module-to-module "
        "imports it stands for.",
        "  %% Thick red: an edge that carries an import a broken contract reports, labelled with "
        "the contract ids.",
    ]
    for node in graph.nodes:
        label = mermaid_text(_node_label(node))
        lines.append(
            f"  {ids[node.name]}([{label}])" if node.external else f"  {ids[node.name]}[{label}]"
        )
    marked = []
    for position, edge in enumerate(graph.edges):
        arrow = "==>" if edge.broken_by else "-->"
        lines.append(
            f"  {ids[edge.importer]} {arrow}|{mermaid_text(_edge_label(edge))}| "
            f"{ids[edge.imported]}"
        )
        if edge.broken_by:
            marked.append(str(position))
    if marked:
        lines.append(f"  linkStyle {','.join(marked)} stroke:{RED},stroke-width:3px,color:{RED}")
    inside = [ids[node.name] for node in graph.nodes if node.broken_by]
    if inside:
        lines.append(f"  classDef broken stroke:{RED},stroke-width:3px,color:{RED}")
        lines.append(f"  class {','.join(inside)} broken")
    return "\n".join(lines) + "\n"


def dot_text(text: str) -> str:
    """A quoted graphviz ID: backslashes and quotes escaped."""
    return '"' + one_line(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def render_dot(graph: PackageGraph, exit_code: int = 0) -> str:
    """A Graphviz digraph (the exit code is for JSON, as for Mermaid)."""
    lines = [
        f"digraph {dot_text('layering graph: ' + _title(graph))} {{",
        "  // Edge label: the module-to-module imports it stands for. Red: an edge that carries "
        "an import",
        "  // a broken contract reports, labelled with the contract ids.",
        "  rankdir=LR;",
        "  node [shape=box];",
    ]
    for node in graph.nodes:
        attributes = []
        if node.external:
            attributes.append("style=dashed")
        if node.broken_by:
            attributes += [
                f"label={dot_text(_node_label(node))}",
                "color=red",
                "fontcolor=red",
                "penwidth=2",
            ]
        lines.append(
            f"  {dot_text(node.name)}"
            + (f" [{', '.join(attributes)}]" if attributes else "")
            + ";"
        )
    for edge in graph.edges:
        attributes = [f"label={dot_text(_edge_label(edge))}"]
        if edge.broken_by:
            attributes += ["color=red", "fontcolor=red", "penwidth=2"]
        lines.append(
            f"  {dot_text(edge.importer)} -> {dot_text(edge.imported)} [{', '.join(attributes)}];"
        )
    lines.append("}")
    return "\n".join(lines) + "\n"


def document(graph: PackageGraph, exit_code: int) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "tool": {"name": "layering", "version": VERSION},
        "exit_code": exit_code,
        "package": graph.package,
        "root_packages": list(graph.root_packages),
        "depth": graph.depth,
        "broken_contracts": list(graph.broken_contracts),
        "undrawn_broken_imports": graph.undrawn,
        "nodes": [
            {
                "name": n.name,
                "modules": n.modules,
                "external": n.external,
                "broken_by": list(n.broken_by),
            }
            for n in graph.nodes
        ],
        "edges": [
            {
                "importer": e.importer,
                "imported": e.imported,
                "imports": e.imports,
                "broken_by": list(e.broken_by),
            }
            for e in graph.edges
        ],
    }


def render_json(graph: PackageGraph, exit_code: int) -> str:
    return json.dumps(document(graph, exit_code), indent=2, ensure_ascii=False) + "\n"


def render_json_error(error: ConfigError) -> str:
    errors = [
        {"path": p.path, "line": p.line, "column": p.column, "message": p.message, "hint": p.hint}
        for p in error.problems
    ]
    data = {
        "schema": SCHEMA,
        "tool": {"name": "layering", "version": VERSION},
        "exit_code": 2,
        "errors": errors,
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def notes(graph: PackageGraph, format: str, text: str) -> list[str]:
    """What the drawing leaves out or cannot show, for stderr."""
    found = []
    if graph.undrawn:
        found.append(
            f"{graph.undrawn} import{'s' if graph.undrawn != 1 else ''} that broken contracts "
            "report "
            f"{'are' if graph.undrawn != 1 else 'is'} not drawn (not between two modules of "
            f"{graph.package or 'the root packages'}); layering check lists every one"
        )
    if format == "mermaid" and (
        len(graph.edges) > MERMAID_MAX_EDGES or len(text) > MERMAID_MAX_TEXT
    ):
        found.append(
            f"{len(graph.edges)} edges, {len(text):,} characters: Mermaid draws at most "
            f"{MERMAID_MAX_EDGES} edges and "
            f"{MERMAID_MAX_TEXT:,} characters by default; give a smaller --depth or a subpackage"
        )
    return found


def error_lines(report: RunReport) -> list[str]:
    """The findings of contracts that could not be decided (exit code 2), one a line."""
    return [
        f"contract '{r.contract_id}': {v.render()}"
        for r in report.results
        if r.verdict is Verdict.ERROR
        for v in r.violations
    ]
