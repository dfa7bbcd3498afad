"""`layering graph --contract ID` formats: a `layers` contract's declared stack, highest layer on
top, each container a group, as Mermaid or graphviz dot.

A layer of several modules is a group of its own, labelled independent (`a | b`) or not
(`a : b`); the layers are held in order by invisible links. Each pair of modules joined by
imports that break the contract gets one red edge, labelled with every statement's file:line.
A module in no layer that such an import starts or ends at is drawn outside the stack. Output
is sorted.
"""

from __future__ import annotations

from layering.domain.layer_stack import BrokenImport, LayerStack, StackGroup, StackLayer
from layering.reporting.graph_formats import RED, dot_text, mermaid_text, one_line


def _title(stack: LayerStack) -> str:
    return f"layers of contract {stack.contract_id!r}, highest first"


def _explained(stack: LayerStack) -> str:
    if not stack.checked:
        return "the contract is not checked (--no-contracts)"
    if not stack.broken:
        return "no import breaks it"
    return "thick red: imports that break it, each at its file:line"


def _label(module: str, group: StackGroup) -> str:
    """A layer module's name inside its container (the container names the group)."""
    return module[len(group.container) + 1 :] if group.container else module


def _layer_label(layer: StackLayer) -> str:
    return "independent" if layer.independent else "not independent"


def _edges(stack: LayerStack) -> list[tuple[str, str, list[BrokenImport]]]:
    """(importer node, imported node, its statements) per pair of nodes, sorted."""
    by_pair: dict[tuple[str, str], list[BrokenImport]] = {}
    for broken in stack.broken:
        by_pair.setdefault((broken.importer_node, broken.imported_node), []).append(broken)
    return [(a, b, statements) for (a, b), statements in sorted(by_pair.items())]


def render_stack_mermaid(stack: LayerStack, exit_code: int = 0) -> str:
    """A `flowchart TB`: nodes n0, n1..., containers g0..., layers of several modules l0...
    (module names are labels, never ids)."""
    ids = {m: f"n{i}" for i, m in enumerate(stack.layer_modules + stack.outside)}
    lines = [
        "flowchart TB",
        f"  %% layering graph --contract: {one_line(_title(stack))}; {_explained(stack)}.",
    ]
    links = 0
    layer_ids = iter(f"l{i}" for i in range(len(stack.layer_modules)))
    for position, group in enumerate(stack.groups):
        indent = "  "
        if group.container:
            lines.append(f"  subgraph g{position}[{mermaid_text(group.container)}]")
            lines.append("    direction TB")
            indent = "    "
        shown = []
        for layer in group.layers:
            if len(layer.modules) == 1:
                module = layer.modules[0]
                lines.append(f"{indent}{ids[module]}[{mermaid_text(_label(module, group))}]")
                shown.append(ids[module])
                continue
            layer_id = next(layer_ids)
            lines.append(f"{indent}subgraph {layer_id}[{mermaid_text(_layer_label(layer))}]")
            lines.append(f"{indent}  direction LR")
            lines += [
                f"{indent}  {ids[m]}[{mermaid_text(_label(m, group))}]" for m in layer.modules
            ]
            lines.append(f"{indent}end")
            shown.append(layer_id)
        for upper, lower in zip(shown, shown[1:]):
            lines.append(f"{indent}{upper} ~~~ {lower}")
            links += 1
        if group.container:
            lines.append("  end")
    lines += [f"  {ids[m]}([{mermaid_text(m)}])" for m in stack.outside]
    marked = []
    for importer, imported, statements in _edges(stack):
        places = "<br>".join(mermaid_text(b.place)[1:-1] for b in statements)
        lines.append(f'  {ids[importer]} ==>|"{places}"| {ids[imported]}')
        marked.append(str(links))
        links += 1
    if marked:
        lines.append(f"  linkStyle {','.join(marked)} stroke:{RED},stroke-width:3px,color:{RED}")
    return "\n".join(lines) + "\n"


def render_stack_dot(stack: LayerStack, exit_code: int = 0) -> str:
    """A Graphviz digraph, ranked top to bottom; the red edges do not move the layers."""
    lines = [
        f"digraph {dot_text('layering graph --contract: ' + _title(stack))} {{",
        f"  // {one_line(_explained(stack))}.",
        "  rankdir=TB;",
        "  newrank=true;",
        "  node [shape=box];",
    ]
    layer_count = 0
    for position, group in enumerate(stack.groups):
        indent = "  "
        if group.container:
            lines.append(f"  subgraph cluster_g{position} {{")
            lines.append(f"    label={dot_text(group.container)};")
            indent = "    "
        for layer in group.layers:
            nodes = [f"{dot_text(m)} [label={dot_text(_label(m, group))}];" for m in layer.modules]
            if len(layer.modules) == 1:
                lines.append(indent + nodes[0])
                continue
            lines.append(f"{indent}subgraph cluster_l{layer_count} {{")
            lines.append(f"{indent}  label={dot_text(_layer_label(layer))};")
            lines += [f"{indent}  {node}" for node in nodes]
            lines.append(
                f"{indent}  {{ rank=same; {' '.join(dot_text(m) + ';' for m in layer.modules)} }}"
            )
            lines.append(f"{indent}}}")
            layer_count += 1
        for upper, lower in zip(group.layers, group.layers[1:]):
            lines.append(
                f"{indent}{dot_text(upper.modules[0])} -> {dot_text(lower.modules[0])} "
                "[style=invis];"
            )
        if group.container:
            lines.append("  }")
    lines += [f"  {dot_text(m)} [style=dashed];" for m in stack.outside]
    for importer, imported, statements in _edges(stack):
        label = "\\n".join(dot_text(b.place)[1:-1] for b in statements)
        lines.append(
            f'  {dot_text(importer)} -> {dot_text(imported)} [label="{label}", color=red, '
            "fontcolor=red, penwidth=2, constraint=false];"
        )
    lines.append("}")
    return "\n".join(lines) + "\n"
