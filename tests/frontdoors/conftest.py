"""Fixtures of the front-door tests (CLI formats, pytest plugin, pre-commit hook)."""

from __future__ import annotations

from pathlib import Path

import pytest
from frontdoors_support import BROKEN, CONTRACTS, KEPT, write_project


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    return write_project(tmp_path / "broken", BROKEN)


@pytest.fixture
def kept(tmp_path: Path) -> Path:
    return write_project(tmp_path / "kept", KEPT)


@pytest.fixture
def misconfigured(tmp_path: Path) -> Path:
    contracts = CONTRACTS.replace(
        'forbidden_modules = ["app.sub"]', 'forbidden_modules = ["app.sub"]\nforbiden = 1'
    )
    return write_project(tmp_path / "misconfigured", KEPT, contracts)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "slow: installs or builds something (pre-commit hook environments); still runs in CI",
    )
