"""Helpers of the front-door tests: small packages with a contracts.toml, the real CLI.

A module of its own (not conftest) so that `from frontdoors_support import ...` is unambiguous
beside the other folders' conftest modules.
"""

from __future__ import annotations

import os
import subprocess
import textwrap
from pathlib import Path

import layering_process

REPO = Path(__file__).resolve().parents[2]

CONTRACTS = """
root_packages = ["app"]
source_roots = ["src"]
cache_dir = false

[[contracts]]
id = "no-sub"
name = "a does not import sub"
type = "forbidden"
source_modules = ["app.a"]
forbidden_modules = ["app.sub"]

[[contracts]]
id = "leaf"
name = "b is a leaf: no sub, 100% sure"
type = "leaf"
modules = ["app.b"]
within = ["app"]

[[contracts]]
id = "known"
name = "a does not import b"
type = "forbidden"
source_modules = ["app.a"]
forbidden_modules = ["app.b"]
expect = "broken"
"""

BROKEN = {
    "src/app/__init__.py": "",
    "src/app/a.py": "from app import b\n\n\ndef f():\n    from app.sub import x\n",
    "src/app/b.py": "import json\nfrom .sub import x\n",
    "src/app/sub/__init__.py": "",
    "src/app/sub/x.py": "import json\n",
}

KEPT = {
    "src/app/__init__.py": "",
    "src/app/a.py": "from app import b\n",
    "src/app/b.py": "import json\n",
    "src/app/sub/__init__.py": "",
    "src/app/sub/x.py": "import json\n",
}


def write_project(
    root: Path,
    files: dict[str, str],
    contracts: str | None = CONTRACTS,
    name: str = "contracts.toml",
) -> Path:
    """Write `files` (and the contracts, unless None) under `root`; return `root`."""
    root.mkdir(parents=True, exist_ok=True)
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    if contracts is not None:
        (root / name).write_text(textwrap.dedent(contracts).lstrip("\n"), encoding="utf-8")
    return root


def run_cli(
    cwd: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "GITHUB_ACTIONS")}
    environment.update(env or {})
    return layering_process.run(["check", *args], cwd=cwd, env=environment, timeout=120)
