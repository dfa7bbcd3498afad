"""Removing the imports of a reported cut keeps the contract, end to end.

The JSON report's `cut` names, for each import to remove, the file and the line of every
statement behind it. Each is taken out of a copy of the files (the names that import the cut
module dropped from the statement, or the whole statement replaced by `pass` where it stood, so
blocks stay valid), and the real CLI runs again: the contract must be kept, and for layers
and independence, removing one group's cut must take that pair of packages out of the report.
"""

from __future__ import annotations

import ast
import copy
import tempfile
from collections import defaultdict
from pathlib import Path

import pytest
from hypothesis import given, note, settings
from property_trees import GRAPH_KINDS, ROOT, package_cases
from report_support import (
    EXAMPLE_CONTRACTS,
    SHOP,
    Sources,
    copy_example,
    json_report,
    shop_config,
    tomllib,
    write_files,
)

GRAPH_TYPES = ("forbidden", "layers", "independence")


def remove_imports(sources: Sources, cut: list[dict]) -> None:
    """Take every statement each cut entry names out of its file (`pass` where it stood, so
    blocks stay valid), keeping the other modules a statement imports."""
    gone: dict[str, dict[tuple[int, int], set[str]]] = defaultdict(
        lambda: defaultdict(set)
    )  # module -> (line, column) -> imported
    for entry in cut:
        for line in entry["lines"]:
            statement = sources.statement_at(
                entry["path"], line, entry["importer"], entry["imported"], "cut"
            )
            gone[entry["importer"]][statement.first, statement.node.col_offset].add(
                entry["imported"]
            )
    for module, statements in gone.items():
        path = sources.files[module]
        lines = path.read_text(encoding="utf-8").splitlines()
        by_place = {(s.first, s.node.col_offset): s for s in sources.statements(module)}
        for place in sorted(statements, reverse=True):
            node = by_place[place].node
            kept = [
                alias
                for alias in node.names
                if not sources.imported_by(node, alias, module) & statements[place]
            ]
            replacement = "pass"
            if kept:
                shorter = copy.copy(node)
                shorter.names = kept
                replacement = ast.unparse(shorter)
            # Only the statement's own columns change: `x = 0; import y` keeps `x = 0; `.
            head = lines[node.lineno - 1][: node.col_offset]
            tail = lines[node.end_lineno - 1][node.end_col_offset :]
            lines[node.lineno - 1 : node.end_lineno] = [head + replacement + tail]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def cut_contracts(document: dict, whole: bool = False) -> dict[str, list[dict]]:
    """Each contract's cut entries; with `whole`, its one cut for all its groups where the
    report gives one (`contract_cut`, as cut entries), else its groups' cuts."""
    cuts = {}
    for contract in document["contracts"]:
        cut = contract["cut"]
        if whole and contract["contract_cut"]:
            cut = [
                {
                    "path": h["path"],
                    "lines": [h["line"]],
                    "importer": h["importer"],
                    "imported": h["imported"],
                }
                for h in contract["contract_cut"]
            ]
        if cut:
            cuts[contract["id"]] = cut
    return cuts


def assert_removing_every_cut_keeps_its_contract(
    root: Path, source_root: str, roots: tuple[str, ...], whole: bool = False
) -> int:
    before = json_report(root)
    cuts = cut_contracts(before, whole)
    options = {
        c["id"]: c for c in tomllib.loads((root / "contracts.toml").read_text())["contracts"]
    }
    for contract in before["contracts"]:
        with_chains = contract["type"] in GRAPH_TYPES and not options[contract["id"]].get(
            "allow_indirect_imports"
        )
        if with_chains and contract["verdict"] == "broken":
            assert contract["cut"], (
                f"{contract['id']} is broken and names no import to cut: {contract['violations']}"
            )
    remove_imports(
        Sources(root, source_root, roots), [entry for cut in cuts.values() for entry in cut]
    )
    after = {c["id"]: c for c in json_report(root)["contracts"]}
    for contract_id in cuts:
        assert after[contract_id]["verdict"] == "kept", (
            f"{contract_id} is still broken once its cut is removed: "
            f"{after[contract_id]['violations']}"
        )
    for contract in before["contracts"]:
        if contract["verdict"] == "kept":
            assert after[contract["id"]]["verdict"] == "kept", (
                f"removing imports broke {contract['id']}"
            )
    return len(cuts)


@settings(max_examples=max(10, settings.default.max_examples * 2 // 3))
@given(package_cases(GRAPH_KINDS))
def test_removing_the_reported_cut_keeps_the_contract(case):
    tree, config = case
    note(config)
    with tempfile.TemporaryDirectory() as scratch:
        tree.write(scratch, config)
        assert_removing_every_cut_keeps_its_contract(Path(scratch), "src", (ROOT,))


@settings(max_examples=max(10, settings.default.max_examples // 2))
@given(package_cases(GRAPH_KINDS))
def test_removing_the_one_cut_of_a_contract_keeps_it(case):
    # The cut a report gives a contract of several groups, fewer imports than theirs together.
    tree, config = case
    note(config)
    with tempfile.TemporaryDirectory() as scratch:
        tree.write(scratch, config)
        assert_removing_every_cut_keeps_its_contract(Path(scratch), "src", (ROOT,), whole=True)


def test_removing_the_cut_keeps_every_graph_contract_of_the_hand_written_package(tmp_path):
    ids = ["forbidden-chains", "forbidden-external", "layers", "layers-containers", "independence"]
    root = write_files(tmp_path, {**SHOP, "contracts.toml": shop_config(ids)})
    assert assert_removing_every_cut_keeps_its_contract(root, "src", ("shop",)) == len(ids)


def test_removing_the_cut_keeps_every_graph_contract_on_the_bundled_example(tmp_path):
    root = copy_example(tmp_path)
    (root / "contracts.toml").write_text(EXAMPLE_CONTRACTS)
    assert (
        assert_removing_every_cut_keeps_its_contract(root, "examples/serve", ("tensorrt_llm",))
        == 4
    )


@pytest.mark.parametrize("contract_id", ["layers", "layers-containers", "independence"])
def test_removing_one_groups_cut_takes_that_pair_out_of_the_report(tmp_path, contract_id):
    files = {**SHOP, "contracts.toml": shop_config([contract_id])}
    contract = json_report(write_files(tmp_path / "before", files))["contracts"][0]
    groups = [(g["source"], g["target"]) for g in contract["chain_groups"]]
    assert len(groups) >= 2
    for number, group in enumerate(groups):
        root = write_files(tmp_path / str(number), files)
        cut = [c for c in contract["cut"] if (c["source"], c["target"]) == group]
        assert cut, f"{group} has no cut"
        remove_imports(Sources(root, "src", ("shop",)), cut)
        remaining = {
            (g["source"], g["target"]) for g in json_report(root)["contracts"][0]["chain_groups"]
        }
        assert group not in remaining, (
            f"{contract_id}: {group} is still broken once its cut is removed"
        )
        assert remaining <= set(groups), (
            f"{contract_id}: removing the cut of {group} broke new pairs: "
            f"{remaining - set(groups)}"
        )
