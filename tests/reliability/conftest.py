"""The `run` fixture of the reliability tests; the shared pieces are in reliability_support."""

from __future__ import annotations

import pytest
from reliability_support import Outcome


@pytest.fixture
def run(project):
    """Write files (a dict, or raw bytes for a value) and run `layering check` with `args`."""

    def run_check(files: dict, *args: str, cwd=None) -> Outcome:
        text_files = {k: v for k, v in files.items() if isinstance(v, str)}
        project.write(text_files)
        for name, data in files.items():
            if isinstance(data, bytes):
                path = project.root / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
        return Outcome(project.check(*args, cwd=cwd))

    return run_check
