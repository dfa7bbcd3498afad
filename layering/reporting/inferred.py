"""`layering init`'s output: the commented configuration it writes, what it inferred and why,
and (`--check`) how today's contracts differ from what it proposes."""

from __future__ import annotations

import json

from layering.domain.inferred_contracts import Difference, InferredContract, Proposal

_PREAMBLE = """\
# Contracts inferred by `layering init` from the imports of {package}: each is kept today, and
# says no more than today's imports justify. Edit them freely; `layering check` checks them.
#
# layers: a package's children, highest first. A layer may import the layers below it, never one
# above (directly or through other modules). "a | b": a and b import nothing of each other;
# "a : b": they import each other (an import cycle), so they share a layer.
# independence: children that import nothing of each other, directly or not.
"""


def _string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _contract_lines(contract: InferredContract, header: str) -> list[str]:
    lines = ["", f"[[{header}]]", f"id = {_string(contract.contract_id)}"]
    if contract.type_name == "layers":
        lines += [
            "name = "
            f"{_string(f'The children of {contract.package}, in the order their imports admit')}",
            'type = "layers"',
            f"# Today {contract.reaches} pairs of children import downwards (directly or not), "
            "none upwards."
            if not contract.upward
            else f"# Today {contract.reaches} pairs of children import downwards (directly or "
            "not), and"
            f" {contract.upward} upwards:\n# children in import cycles kept apart, their upward "
            "chains"
            " known (known_chains, below), to go.",
            "layers = [",
            *(f"  {_string(layer.text)}," for layer in contract.layers),
            "]",
        ]
    else:
        lines += [
            "name = "
            + _string(f"The children of {contract.package} import nothing of each other"),
            'type = "independence"',
            "modules = [",
            *(f"  {_string(module)}," for module in contract.modules),
            "]",
        ]
    return lines


def render_config(proposal: Proposal, pyproject: bool) -> str:
    """The configuration text: a contracts.toml, or a [tool.layering] table."""
    prefix = "tool.layering." if pyproject else ""
    lines = _PREAMBLE.format(package=proposal.package).splitlines()
    if pyproject:
        lines.append("[tool.layering]")
    lines.append(f"root_packages = [{_string(proposal.package)}]")
    for contract in proposal.contracts:
        lines += _contract_lines(contract, f"{prefix}contracts")
    return "\n".join(lines) + "\n"


def _what(contract: InferredContract) -> str:
    """One short line: the stack when it is short, else its shape."""
    if contract.type_name == "independence":
        return (
            f"{contract.contract_id}: {len(contract.modules)} children that import nothing of "
            "each other"
        )
    stack = " > ".join(
        f"({layer.text})" if len(layer.modules) > 1 else layer.text for layer in contract.layers
    )
    if len(stack) > 80:
        cyclic = sum(len(layer.modules) for layer in contract.layers if layer.cyclic)
        stack = f"{len(contract.layers)} layers of {len(contract.layer_modules)} children"
        stack += f" ({cyclic} in import cycles)" if cyclic else ""
    upward = (
        f"{contract.upward} upwards, baselined as known chains"
        if contract.upward
        else "none upwards"
    )
    pairs = (
        "1 pair of children depends"
        if contract.reaches == 1
        else f"{contract.reaches} pairs of children depend"
    )
    return f"{contract.contract_id}: {stack}; {pairs} downwards (directly or not), {upward}"


def render_summary(proposal: Proposal, shown_path: str) -> str:
    """What was inferred, and why; then the packages passed over."""
    count = len(proposal.contracts)
    lines = [
        f"{shown_path}: wrote {count} contract{'s' if count != 1 else ''} for {proposal.package} "
        f"and its subpackages {proposal.depth} levels deep, each kept today"
        + (
            " (import cycles kept apart and baselined):"
            if any(c.upward for c in proposal.contracts)
            else ":"
        )
    ]
    lines += [f"  {_what(c)}" for c in proposal.contracts]
    lines += [f"  no contract for {p.package}: {p.reason}" for p in proposal.passed_over]
    return "\n".join(lines) + "\n"


def render_differences(shown_path: str, differences: list[Difference]) -> str:
    """`init --check`: each proposal, as today's configuration has it or not."""
    lines = []
    for difference in differences:
        contract = difference.contract
        if difference.same:
            lines.append(f"  same: '{difference.existing}' is {_what(contract)}")
        elif difference.existing:
            lines.append(
                f"  differs: '{difference.existing}' orders the layers otherwise; init proposes "
                f"{_what(contract)}"
            )
        else:
            lines.append(f"  missing: init proposes {_what(contract)}")
    differing = sum(1 for d in differences if not d.same)
    head = (
        f"{shown_path}: {differing} of {len(differences)} proposed contracts differ from today's"
        if differing
        else f"{shown_path}: every one of the {len(differences)} proposed contracts is there"
    )
    return "\n".join([head, *lines]) + "\n"
