"""import-linter's contract types, and `forbidden` with only its options, give its verdicts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = {
    "src/shop/__init__.py": "",
    "src/shop/api/__init__.py": "",
    "src/shop/api/views.py": "from shop.domain import orders\nfrom shop import infra\n",
    "src/shop/domain/__init__.py": "",
    "src/shop/domain/orders.py": "from ..domain import pricing\n\ndef f():\n    from shop.infra import db\n",
    "src/shop/domain/pricing.py": "import decimal\n",
    "src/shop/infra/__init__.py": "",
    "src/shop/infra/db.py": "from shop.domain.pricing import Money\nimport sqlite3\n",
    "src/shop/util.py": "from shop.api import views\n",
}

CONTRACTS = [
    ('forbidden', 'source_modules = ["shop.domain"]\nforbidden_modules = ["shop.infra"]'),
    ('forbidden', 'source_modules = ["shop.domain.pricing"]\nforbidden_modules = ["shop.infra"]'),
    ('forbidden', 'source_modules = ["shop.api"]\nforbidden_modules = ["shop.infra.db"]\nallow_indirect_imports = true'),
    ('forbidden', 'source_modules = ["shop.api"]\nforbidden_modules = ["shop.infra.db"]'),
    ('forbidden', 'source_modules = ["shop.domain"]\nforbidden_modules = ["shop.infra"]\nignore_imports = ["shop.domain.orders -> shop.infra.db"]'),
    ('forbidden', 'source_modules = ["shop.domain.*"]\nforbidden_modules = ["sqlite3"]'),
    ('layers', 'layers = ["shop.api", "shop.domain", "shop.infra"]'),
    ('layers', 'layers = ["shop.api", "shop.infra", "shop.domain"]'),
    ('independence', 'modules = ["shop.api", "shop.infra"]'),
    ('independence', 'modules = ["shop.domain", "shop.infra"]'),
    ('acyclic_siblings', 'ancestors = ["shop"]'),
    ('protected', 'protected_modules = ["shop.infra"]\nallowed_importers = ["shop.domain"]'),
    ('protected', 'protected_modules = ["shop.infra"]\nallowed_importers = ["shop.api", "shop.domain"]'),
]


def _toml(kind: str, body: str, tool_prefix: str) -> str:
    return f'\n[[{tool_prefix}contracts]]\nname = "c"\ntype = "{kind}"\n{body}\n'


@pytest.mark.parametrize("kind,body", CONTRACTS, ids=[f"{k}-{i}" for i, (k, _) in enumerate(CONTRACTS)])
def test_same_verdict_as_lint_imports(project, tmp_path, kind, body):
    lint_imports = str(Path(sys.executable).parent / "lint-imports")
    external = "\ninclude_external_packages = true" if "sqlite3" in body else ""
    project.write(
        {
            **PACKAGE,
            "contracts.toml": 'root_packages = ["shop"]\nsource_roots = ["src"]\ncache_dir = false\n' + _toml(kind, body, ""),
            "importlinter.toml": '[tool.importlinter]\nroot_package = "shop"' + external + "\n" + _toml(kind, body, "tool.importlinter."),
        }
    )
    ours = project.check()
    theirs = subprocess.run(
        [lint_imports, "--config", str(tmp_path / "importlinter.toml"), "--no-cache"],  # --config: every 2.x
        cwd=tmp_path / "src",
        capture_output=True,
        text=True,
    )
    assert "Contracts:" in theirs.stdout or "contracts:" in theirs.stdout.lower(), theirs.stdout + theirs.stderr
    assert ours.returncode == theirs.returncode, ours.stdout + ours.stderr + "\n---\n" + theirs.stdout
