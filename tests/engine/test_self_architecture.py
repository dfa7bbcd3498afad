"""layering keeps its own architecture: its contracts, checked by its own CLI."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_layering_keeps_its_own_contracts(project):
    result = project.check("--config", str(REPO / "tests" / "self_contracts.toml"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 6 kept, 0 broken." in result.stdout
