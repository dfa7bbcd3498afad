"""Reports are the same bytes under any PYTHONHASHSEED, in every format.

Sets and dicts of strings iterate in an order that changes with the hash seed; a report that
lets one through (a chain picked from a set, pairs in set order) differs between runs. Each
case runs the real CLI under four seeds and compares stdout and stderr byte for byte.
"""

from __future__ import annotations

import pytest
from report_support import (
    EXAMPLE_CONTRACTS,
    SHOP,
    copy_example,
    run_layering,
    shop_config,
    write_files,
)

SEEDS = ("0", "1", "7", "123")
FORMATS = {
    "text": ("check",),
    "text-chains": ("check", "--chains", "2"),
    "json": ("check", "--format", "json", "--chains", "all"),
    "sarif": ("check", "--format", "sarif"),
    "github": ("check", "--format", "github"),
}


def assert_same_under_every_seed(root, arguments: tuple[str, ...]) -> None:
    runs = [run_layering(root, *arguments, hash_seed=seed) for seed in SEEDS]
    first = runs[0]
    assert first.returncode == 1, first.stdout + first.stderr
    assert "Traceback" not in first.stderr, first.stderr
    for seed, run in zip(SEEDS[1:], runs[1:]):
        assert (run.returncode, run.stderr) == (first.returncode, first.stderr), (
            f"PYTHONHASHSEED={seed}"
        )
        assert run.stdout == first.stdout, (
            f"PYTHONHASHSEED={seed} printed another report than PYTHONHASHSEED=0"
        )


@pytest.mark.parametrize("format_name", sorted(FORMATS))
def test_the_report_of_every_contract_type_is_the_same_under_every_hash_seed(
    tmp_path, format_name
):
    """Every contract type broken, layers in containers, independence with nine broken pairs."""
    root = write_files(tmp_path, {**SHOP, "contracts.toml": shop_config()})
    assert_same_under_every_seed(root, FORMATS[format_name])


@pytest.mark.parametrize("format_name", ["text", "json"])
def test_the_report_on_the_bundled_example_is_the_same_under_every_hash_seed(
    tmp_path, format_name
):
    """A few hundred modules: hundreds of chains, long cuts, many pairs of every type."""
    root = copy_example(tmp_path)
    (root / "contracts.toml").write_text(EXAMPLE_CONTRACTS)
    assert_same_under_every_seed(root, FORMATS[format_name])
