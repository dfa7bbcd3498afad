"""Differential property: `forbidden` with only import-linter's options gives lint-imports'
verdict.

lint-imports runs in a subprocess, so this property draws fewer examples than the others
(a third of the profile's)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from hypothesis import given, note, settings
from hypothesis import strategies as st
from property_trees import ROOT, trees

from layering.commands.check import check_settings
from layering.domain.patterns import is_within
from layering.domain.results import Verdict
from layering.engine.config import locate_settings

LINT_IMPORTS = str(Path(sys.executable).parent / "lint-imports")


@settings(max_examples=max(5, settings.default.max_examples // 3))
@given(tree=trees(), data=st.data())
def test_forbidden_verdict_equals_lint_imports(tree, data):
    inner = [m for m in tree.modules if m != ROOT]
    source = data.draw(st.sampled_from(inner))
    target = data.draw(
        st.sampled_from(
            [m for m in inner if not is_within(m, source) and not is_within(source, m)] + ["json"]
        )
    )
    indirect = data.draw(st.booleans())
    as_packages = data.draw(st.booleans())
    options = (
        f'source_modules = ["{source}"]\nforbidden_modules = ["{target}"]\n'
        f"allow_indirect_imports = {str(indirect).lower()}\nas_packages = "
        f"{str(as_packages).lower()}\n"
    )
    contract = f'\n[[{{prefix}}contracts]]\nname = "c"\ntype = "forbidden"\n{options}'
    ours_config = (
        f'root_packages = ["{ROOT}"]\nsource_roots = ["src"]\ncache_dir = false\n'
        + contract.format(prefix="")
    )
    theirs_config = (
        f'[tool.importlinter]\nroot_package = "{ROOT}"\ninclude_external_packages = true\n'
        + contract.format(prefix="tool.importlinter.")
    )
    note(ours_config)
    with tempfile.TemporaryDirectory() as root:
        path = tree.write(root, ours_config)
        with open(os.path.join(root, "importlinter.toml"), "w", encoding="utf-8") as handle:
            handle.write(theirs_config)
        ours = check_settings(locate_settings(path), use_cache=False).results[0]
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        theirs = subprocess.run(
            [LINT_IMPORTS, "--config", os.path.join(root, "importlinter.toml"), "--no-cache"],
            cwd=os.path.join(root, "src"),
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
        )
    note(theirs.stdout + theirs.stderr)
    assert "Traceback" not in theirs.stderr, theirs.stderr
    assert ours.verdict in (Verdict.KEPT, Verdict.BROKEN), ours
    their_verdict = Verdict.KEPT if theirs.returncode == 0 else Verdict.BROKEN
    assert "1 kept" in theirs.stdout or "1 broken" in theirs.stdout, theirs.stdout + theirs.stderr
    assert ours.verdict is their_verdict, (ours, theirs.stdout)
