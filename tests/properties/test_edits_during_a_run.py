"""A file saved while a run reads the package (an editor's save, `git pull`, a branch switch
during a long first run) must not leave the cache holding the new content with the old reading:
every later cached run prints exactly what a `--no-cache` run of the same tree prints.

The run is the real CLI in a subprocess; the edit is made inside it at one moment of the run:
once the package is walked, once grimp has read the files (before the cache builder hashes
them, the race this guards), once the files an earlier edit changed are read again, or once a
contract is decided (names and lines read, before the cache is written). The run's own report
is of a tree in flux and is not compared; the runs after it are, cached against uncached.

The packages, contracts and edits are those of `test_incremental_reuse`."""

from __future__ import annotations

import os

from cache_support import check_with_edit_during
from hypothesis import given, note
from hypothesis import strategies as st
from test_incremental_reuse import FORMATS, SETTINGS, Editor, Tree, agree, configs, trees

PHASES = ("walked", "scanned", "scanned", "read_again", "decided")

FIRST_PHASES = ("scanned", "scanned", "walked", "decided")
FIRST_EDITS = ("add_import", "add_second_statement", "change_names", "remove_import")
"""The first run's edits, most often where a stale reading shows: imports that come or go."""

CONTENT_EDITS = (
    "body",
    "add_import",
    "add_import",
    "add_second_statement",
    "remove_import",
    "change_names",
    "reorder",
    "rewrite_same",
    "syntax_error",
    "touch",
)
"""Edits of a file's content: an editor saves a file; it does not move it while a run reads it."""


def files_under(root: str) -> dict[str, str]:
    found = {}
    for directory, _, names in os.walk(os.path.join(root, "src")):
        for name in names:
            path = os.path.join(directory, name)
            with open(path, encoding="utf-8") as handle:
                found[path] = handle.read()
    return found


def edit_during_a_run(project, editor: Editor, draw, phase: str, edit: str) -> None:
    """Run `layering check` with `edit` made during it at `phase` (made after it, where the run
    never reached that moment: the cache had every verdict)."""
    before = files_under(str(project.root))
    what = editor.apply(draw, edit)
    after = files_under(str(project.root))
    changes = {
        path: text
        for path, text in after.items()
        if before.get(path) != text or edit == "touch" and path in before
    }
    for path, text in before.items():  # back as they were until the run is under way
        if path in changes:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
    note(f"during the run, once {phase}: {what}")
    first = sorted(changes)[0] if changes else None
    read_first = (
        Tree.module_of(os.path.relpath(first, os.path.join(project.root, "src")))
        if first
        else None
    )
    during = check_with_edit_during(project.root, phase, changes, read_first=read_first)
    note(f"the run with the edit ({during.returncode}):\n{during.stdout}{during.stderr}")
    assert "Traceback" not in during.stderr, during.stderr


@SETTINGS
@given(data=st.data())
def test_an_edit_during_a_run_leaves_the_cache_true_to_the_files(project, tmp_path_factory, data):
    project = type(project)(tmp_path_factory.mktemp("during"))
    tree = data.draw(trees(), label="tree")
    config = data.draw(configs(tree), label="config")
    editor = Editor(tree, str(project.root), aged=False)
    editor.write_all()
    (project.root / "contracts.toml").write_text(config, encoding="utf-8")
    note(f"contracts.toml:\n{config}")
    note(f"files:\n{tree.text()}")
    for step in range(data.draw(st.integers(1, 3), label="steps")):
        # The first run has nothing cached: a builder hashes the files after grimp read them.
        phase = data.draw(st.sampled_from(FIRST_PHASES if step == 0 else PHASES), label="phase")
        edit = data.draw(
            st.sampled_from(FIRST_EDITS if step == 0 else CONTENT_EDITS), label="edit"
        )
        edit_during_a_run(project, editor, data.draw, phase, edit)
        agree(project, *data.draw(FORMATS, label="format"))
        if data.draw(st.booleans(), label="edit after"):
            note(
                editor.apply(
                    data.draw, data.draw(st.sampled_from(CONTENT_EDITS), label="edit after")
                )
            )
            agree(project)
