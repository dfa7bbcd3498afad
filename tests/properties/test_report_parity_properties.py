"""On generated packages, what a report shows agrees with what import-linter finds: verdicts,
broken pairs, where import-linter's chains start, and that each crosses layering's cut.

Both tools run in subprocesses, so this draws a third of the profile's examples."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, note, settings
from property_trees import GRAPH_KINDS, package_cases
from report_support import compare_with_importlinter, importlinter_findings, json_report, tomllib


@settings(max_examples=max(5, settings.default.max_examples // 3))
@given(package_cases(GRAPH_KINDS))
def test_every_contract_type_shows_what_import_linter_finds(case):
    tree, config = case
    note(config)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        tree.write(scratch, config)
        theirs = importlinter_findings(root, config, "src")
        document = json_report(root)
    note(str(theirs))
    imports = {tuple(pair) for pair in theirs["imports"]}
    options = {c["id"]: c for c in tomllib.loads(config)["contracts"]}
    for contract in document["contracts"]:
        compare_with_importlinter(
            contract, options[contract["id"]], theirs["contracts"][contract["id"]], imports
        )
