"""The cache keys verdicts by the package's imports: an edit that leaves them as they were
reuses every verdict (the lines a report shows read again), a fresh checkout of the same tree
too; an edit of an import decides again. Cached and uncached reports are always the same."""

from __future__ import annotations

import glob
import os
import random
import shutil

from cache_support import mark_first_verdict
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/a.py": "import json\n\nfrom app import b\n\n\ndef f():\n    return 1\n",
    "src/app/b.py": "import os\n\n\ndef g():\n    from app import c\n    return c\n",
    "src/app/c.py": "X = 1\n",
    "src/app/d.py": "from app import c\n",
}
CONTRACTS = """\
root_packages = ["app"]
source_roots = ["src"]

[[contracts]]
id = "chain"
type = "forbidden"
source_modules = ["app.a"]
forbidden_modules = ["app.c"]

[[contracts]]
id = "layers"
type = "layers"
layers = ["app.c", "app.d"]
"""


def tamper(project) -> None:
    """Mark the cached verdict of the first contract as kept: a run that prints it reused it."""
    mark_first_verdict(project.root, "kept")


def test_a_body_edit_reuses_the_verdicts_and_moves_the_lines(project):
    project.write({**PACKAGE, "contracts.toml": CONTRACTS})
    first = project.check()
    assert first.returncode == 1
    assert "src/app/b.py:5: LY002 app.b imports app.c [function-level]" in first.stdout
    b = project.root / "src/app/b.py"
    b.write_text(
        "import os\n\nPADDING = [\n    1,\n    2,\n]\n\n\ndef g():\n    from app import c\n    "
        "return c + 1\n"
    )
    again = project.check()
    uncached = project.check("--no-cache")
    assert again.stdout == uncached.stdout
    assert "src/app/b.py:10: LY002 app.b imports app.c [function-level]" in again.stdout
    tamper(project)
    b.write_text(b.read_text() + "\n\ndef h():\n    return 2\n")
    assert (
        "[chain] KEPT" in project.check().stdout
    )  # the (tampered) verdict was reused: no graph was built


def test_a_fresh_checkout_of_the_same_tree_reuses_the_verdicts(project, tmp_path):
    project.write({**PACKAGE, "contracts.toml": CONTRACTS})
    project.check()
    tamper(project)
    for path in (project.root / "src").rglob("*.py"):
        text = path.read_bytes()
        path.unlink()
        path.write_bytes(text)
        os.utime(path, ns=(0, 1_000_000_000))
    assert "[chain] KEPT" in project.check().stdout


def test_an_added_import_off_the_chains_keeps_the_verdict_and_decides_the_rest(project):
    project.write({**PACKAGE, "contracts.toml": CONTRACTS})
    project.check()
    tamper(project)
    (project.root / "src/app/d.py").write_text(
        "from app import c\nfrom app import a\n"
    )  # app.a does not reach app.d
    result = project.check()
    assert "[chain] KEPT" in result.stdout  # the (tampered) verdict was reused
    layers = result.stdout.split("[layers]")[1].split("\n\n")[0]
    assert "src/app/d.py:2: app.d -> app.a" in layers  # the new chain of the layers contract
    assert layers == project.check("--no-cache").stdout.split("[layers]")[1].split("\n\n")[0]


def test_an_added_import_on_a_chain_decides_again(project):
    project.write({**PACKAGE, "contracts.toml": CONTRACTS})
    project.check()
    tamper(project)
    (project.root / "src/app/b.py").write_text(
        "import os\nfrom app import d\n"
    )  # app.a reaches app.b
    result = project.check()
    assert "[chain] BROKEN" in result.stdout
    assert "src/app/b.py:2: app.b -> app.d" in result.stdout
    assert result.stdout == project.check("--no-cache").stdout


def test_an_import_that_an_ignored_import_names_decides_again(project):
    ignoring = CONTRACTS.replace(
        'layers = ["app.c", "app.d"]',
        'layers = ["app.c", "app.d"]\nignore_imports = ["app.b -> app.a"]',
    )
    project.write({**PACKAGE, "contracts.toml": ignoring})
    assert "LY030 ignored import 'app.b -> app.a'" in project.check().stdout  # it matches nothing
    (project.root / "src/app/b.py").write_text("import os\nfrom app import a\n")  # now it does
    result = project.check()
    assert "LY030" not in result.stdout
    assert result.stdout == project.check("--no-cache").stdout


EDITS = ("body", "add_import", "remove_import", "rename", "move", "touch")


def _edit(root: str, edit: str, rng: random.Random) -> None:
    modules = sorted(
        p
        for p in glob.glob(os.path.join(root, "src", "app", "**", "*.py"), recursive=True)
        if not p.endswith("__init__.py")
    )
    path = rng.choice(modules)
    text = open(path).read()
    if edit == "body":
        text = "# a comment\nVALUE = 1\n\n" + text
    elif edit == "add_import":
        text += f"from app import {rng.choice(['a', 'b', 'c', 'd'])}\n"
    elif edit == "remove_import":
        lines = [
            line
            for line in text.splitlines(keepends=True)
            if "import" not in line or rng.random() < 0.5
        ]
        text = "".join(lines) or "X = 1\n"
    elif edit == "rename":
        os.rename(path, path[:-3] + "_renamed.py")
        return
    elif edit == "move":
        os.makedirs(os.path.join(root, "src", "app", "sub"), exist_ok=True)
        open(os.path.join(root, "src", "app", "sub", "__init__.py"), "a").close()
        shutil.move(path, os.path.join(root, "src", "app", "sub", os.path.basename(path)))
        return
    elif edit == "touch":
        os.utime(path)
        return
    with open(path, "w") as handle:
        handle.write(text)


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(edits=st.lists(st.sampled_from(EDITS), min_size=1, max_size=4), seed=st.integers(0, 1000))
def test_cached_and_uncached_runs_agree_after_any_edits(project, tmp_path_factory, edits, seed):
    project = type(project)(tmp_path_factory.mktemp("edits"))  # a fresh package per example
    project.write({**PACKAGE, "contracts.toml": CONTRACTS})
    project.check()
    rng = random.Random(seed)
    for edit in edits:
        note(edit)
        _edit(str(project.root), edit, rng)
        cached = project.check()
        uncached = project.check("--no-cache")
        assert (cached.returncode, cached.stdout) == (uncached.returncode, uncached.stdout)


def test_an_edit_of_the_configuration_moves_its_lines_in_the_report(project):
    stale = CONTRACTS.replace(
        'forbidden_modules = ["app.c"]',
        'forbidden_modules = ["app.c"]\nallow = ["app.a -> app.gone"]',
    )
    project.write({**PACKAGE, "contracts.toml": stale})
    assert "contracts.toml:9: LY030" in project.check().stdout
    (project.root / "contracts.toml").write_text("# a comment on top\n" + stale)
    cached = project.check()
    assert "contracts.toml:10: LY030" in cached.stdout
    assert cached.stdout == project.check("--no-cache").stdout
