"""A check holds Python's cycle collector off while it decides (its collections walked the
graph's tuples again and again) and leaves it as it found it: the pytest plugin and the API
run checks inside other people's processes."""

from __future__ import annotations

import gc

import pytest
from report_support import SHOP, shop_config, write_files

from layering.commands import check
from layering.deciding import fresh as deciding
from layering.engine.config import locate_settings


@pytest.mark.parametrize("enabled_before", [True, False])
def test_a_check_decides_with_the_collector_off_and_leaves_it_as_it_was(
    tmp_path, monkeypatch, enabled_before
):
    root = write_files(
        tmp_path, {**SHOP, "contracts.toml": shop_config(["layers", "forbidden-chains"])}
    )
    seen = []
    decide = deciding.decide

    def watched(contract, evidence, shares):
        seen.append(gc.isenabled())
        return decide(contract, evidence, shares)

    monkeypatch.setattr(deciding, "decide", watched)
    (gc.enable if enabled_before else gc.disable)()
    try:
        report = check.check_settings(locate_settings(str(root / "contracts.toml")))
        after = gc.isenabled()
    finally:
        gc.enable()
    assert [r.verdict.value for r in report.results] == ["broken", "broken"]
    assert seen == [False, False]
    assert after is enabled_before
