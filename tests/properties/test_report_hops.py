"""Every import a report shows is a real import statement, for every contract type.

The real CLI runs with `--format json --chains all`; each violation's location and every hop
(violation chains, the cut's example chains, every listed chain) is looked up in the importer's
file, read independently with `ast`: the statement that spans the shown line must import the
hop's module. Each import of a cut names every statement behind it, once; chains link hop to hop
from the group's source to its target.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import given, note, settings
from property_trees import ROOT, package_cases
from report_support import (
    EXAMPLE_CONTRACTS,
    REPO,
    SHOP,
    Sources,
    check_report,
    copy_example,
    json_report,
    shop_config,
    tomllib,
    write_files,
)


def ignored_pairs(config: str) -> dict[str, set[tuple[str, str]]]:
    """Per contract id, the (importer, imported) pairs its ignore_imports name."""
    found = {}
    for contract in tomllib.loads(config)["contracts"]:
        found[contract["id"]] = {
            tuple(part.strip() for part in e.split("->"))
            for e in contract.get("ignore_imports", [])
        }
    return found


def assert_no_ignored_import_shown(document: dict, config: str) -> None:
    ignored = ignored_pairs(config)
    for contract in document["contracts"]:
        hops = [h for c in contract["cut"] for h in c["chain"]] + [
            h for g in contract["chain_groups"] for chain in g["listed"] for h in chain
        ]
        for hop in hops + contract["cut"]:
            assert (hop["importer"], hop["imported"]) not in ignored[contract["id"]], (
                f"{contract['id']} shows an ignored import: {hop}"
            )


@settings(max_examples=max(10, settings.default.max_examples * 2 // 3))
@given(package_cases())
def test_every_hop_of_every_contract_type_is_a_real_import_statement(case):
    tree, config = case
    note(config)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        tree.write(scratch, config)
        document = json_report(root)
        note(str(document))
        check_report(document, Sources(root, "src", (ROOT,)))
        assert_no_ignored_import_shown(document, config)


def test_every_hop_of_the_hand_written_package_is_real(tmp_path):
    root = write_files(tmp_path, {**SHOP, "contracts.toml": shop_config()})
    document = json_report(root)
    assert {c["verdict"] for c in document["contracts"]} == {"broken"}
    assert check_report(document, Sources(root, "src", ("shop",))) > 100


def test_every_hop_on_the_bundled_example_is_real(tmp_path):
    """Contracts of every type that the real code breaks: long chains, multi-line statements."""
    root = copy_example(tmp_path)
    (root / "contracts.toml").write_text(EXAMPLE_CONTRACTS)
    document = json_report(root)
    verdicts = {c["id"]: c["verdict"] for c in document["contracts"]}
    assert set(verdicts.values()) == {"broken"}, verdicts
    assert check_report(document, Sources(root, "examples/serve", ("tensorrt_llm",))) > 500


def test_every_hop_of_the_bundled_contracts_broken_in_a_copy_is_real(tmp_path):
    """The shipped contracts.toml, on a copy of the model where the shared infrastructure reaches
    back into a server through a chain and a leaf takes a forbidden module."""
    root = copy_example(tmp_path)
    shutil.copy(REPO / "contracts.toml", root / "contracts.toml")
    serve = root / "examples/serve/tensorrt_llm/serve"
    with open(serve / "_base/routing.py", "a", encoding="utf-8") as handle:
        handle.write(
            "\n\ndef _late():\n    from tensorrt_llm.serve import (\n        chat_utils,\n    )\n"
        )
    with open(serve / "chat_utils.py", "a", encoding="utf-8") as handle:
        handle.write("\nif False:\n    import tensorrt_llm.serve.openai_server as server\n")
    with open(serve / "_base/responses_stream.py", "a", encoding="utf-8") as handle:
        handle.write("\nfrom ..router import Router\n")
    document = json_report(root, "--no-probe")
    broken = {c["id"] for c in document["contracts"] if c["verdict"] == "broken"}
    assert broken == {"base-no-servers-no-api", "responses-stream-leaf"}, broken
    chains = next(c for c in document["contracts"] if c["id"] == "base-no-servers-no-api")[
        "chain_groups"
    ]
    assert chains and max(len(chain) for g in chains for chain in g["listed"]) >= 2
    assert check_report(document, Sources(root, "examples/serve", ("tensorrt_llm",))) > 0
