"""A command that edits the configuration (`baseline`, `prune`, `migrate`) changes its text and
nothing else about the file: a symbolic link stays a link and its target gets the edit, a CRLF
file stays CRLF (the lines added too), the mode stays, and a read-only file is refused.

Each case is compared with the same command on a plain LF file, so a test says only what the
file's form changes: nothing."""

from __future__ import annotations

import codecs
import os
import subprocess
from pathlib import Path
from typing import NamedTuple

import layering_process
import pytest

PACKAGE = {
    "shop/__init__.py": "",
    "shop/domain/__init__.py": "",
    "shop/domain/orders.py": "import shop.db.models\n",
    "shop/db/__init__.py": "",
    "shop/db/models.py": "",
}

CONTRACTS = """\
# Shop contracts.
root_packages = ["shop"]
cache_dir = false

# Nothing of the domain reaches the database.
[[contracts]]
id = "domain-no-db"
name = "The domain does not reach the database"
type = "forbidden"
source_modules = ["shop.domain"]
forbidden_modules = ["shop.db"]
allow = []   # only shrinks

[[contracts]]
id = "db-no-domain"
name = "The database does not reach the domain"
type = "forbidden"
source_modules = ["shop.db"]
forbidden_modules = ["shop.domain"]
expect = "broken"   # no longer true
"""

PYPROJECT = '[project]\nname = "shop"   # the name\n\n[tool.layering]\n' + CONTRACTS.replace(
    "[[contracts]]", "[[tool.layering.contracts]]"
)

INI = """\
[importlinter]
root_package = shop

; Nothing of the domain reaches the database.
[importlinter:contract:domain-no-db]
name = The domain does not reach the database
type = forbidden
source_modules = shop.domain
forbidden_modules = shop.db

[importlinter:contract:db-no-domain]
name = The database does not reach the domain
type = forbidden
source_modules = shop.db
forbidden_modules = shop.domain
ignore_imports =
    # reviewed
    shop.db.models -> shop.domain.orders
"""

IMPORTLINTER_PYPROJECT = (
    '[project]\nname = "shop"\n\n[tool.importlinter]\nroot_package = "shop"\n\n'
    + (
        '[[tool.importlinter.contracts]]\nid = "domain-no-db"\nname = "No db"\ntype = '
        '"forbidden"\n'
        'source_modules = ["shop.domain"]\nforbidden_modules = ["shop.db"]\n'
    )
)


class Edit(NamedTuple):
    """A command that edits the file `name` (first written with `text`; `source`, an
    import-linter configuration, is written beside it for `migrate`)."""

    args: tuple[str, ...]
    name: str
    text: str
    source: tuple[str, str] | None = None


BASELINE = ("baseline", "--contract", "domain-no-db", "--comment", "reviewed")
EDITS = {
    "baseline contracts.toml": Edit(BASELINE, "contracts.toml", CONTRACTS),
    "prune contracts.toml": Edit(("prune",), "contracts.toml", CONTRACTS),
    "baseline pyproject.toml": Edit(BASELINE, "pyproject.toml", PYPROJECT),
    "prune pyproject.toml": Edit(("prune",), "pyproject.toml", PYPROJECT),
    "baseline .importlinter": Edit(BASELINE, ".importlinter", INI),
    "prune setup.cfg": Edit(("prune",), "setup.cfg", INI),
    "migrate --force contracts.toml": Edit(
        ("migrate", "pyproject.toml", "--force"),
        "contracts.toml",
        "# old\n",
        ("pyproject.toml", IMPORTLINTER_PYPROJECT),
    ),
    "migrate --to pyproject.toml": Edit(
        ("migrate", ".importlinter", "--to", "pyproject.toml"),
        "pyproject.toml",
        '[project]\nname = "shop"\n',
        (".importlinter", INI),
    ),
}


def layering(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "PYTHONPATH")}
    return layering_process.run(args, cwd=cwd, env=environment, timeout=120)


def write_project(root: Path, edit: Edit, data: bytes, where: str | None = None) -> Path:
    """The package and the file to edit, with `data`, at `where` (relative to `root`, default
    its own name); return the file's path."""
    for name, text in PACKAGE.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    if edit.source is not None:
        (root / edit.source[0]).write_text(edit.source[1])
    path = root / (where or edit.name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def edited(root: Path, edit: Edit, data: bytes) -> bytes:
    """What the command makes of `data` in a plain file."""
    path = write_project(root, edit, data)
    run = layering(root, *edit.args)
    assert run.returncode == 0, run.stdout + run.stderr
    return path.read_bytes()


@pytest.mark.parametrize("case", list(EDITS))
def test_a_symlinked_configuration_is_edited_through_the_link(tmp_path, case):
    edit = EDITS[case]
    data = edit.text.encode()
    expected = edited(tmp_path / "plain", edit, data)
    assert expected != data
    root = tmp_path / "linked"
    target = write_project(root, edit, data, where=f"shared/{edit.name}")
    link = root / edit.name
    link.symlink_to(Path("shared") / edit.name)
    run = layering(root, *edit.args)
    assert run.returncode == 0, run.stdout + run.stderr
    assert link.is_symlink() and os.readlink(link) == os.path.join("shared", edit.name)
    assert target.read_bytes() == expected
    assert sorted(os.listdir(target.parent)) == [edit.name]  # no temporary file left behind


@pytest.mark.parametrize("case", list(EDITS))
def test_a_crlf_configuration_stays_crlf_on_every_line(tmp_path, case):
    edit = EDITS[case]
    expected = edited(tmp_path / "lf", edit, edit.text.encode())
    crlf = edit.text.replace("\n", "\r\n").encode()
    assert edited(tmp_path / "crlf", edit, crlf) == expected.replace(b"\n", b"\r\n")


@pytest.mark.parametrize("case", ["baseline contracts.toml", "prune setup.cfg"])
def test_a_byte_order_mark_is_kept(tmp_path, case):
    edit = EDITS[case]
    expected = edited(tmp_path / "plain", edit, edit.text.encode())
    assert (
        edited(tmp_path / "bom", edit, codecs.BOM_UTF8 + edit.text.encode())
        == codecs.BOM_UTF8 + expected
    )


@pytest.mark.parametrize("mode", [0o644, 0o664, 0o600])
@pytest.mark.parametrize(
    "case", ["baseline contracts.toml", "prune setup.cfg", "migrate --force contracts.toml"]
)
def test_an_edited_configuration_keeps_its_mode(tmp_path, case, mode):
    edit = EDITS[case]
    path = write_project(tmp_path, edit, edit.text.encode())
    path.chmod(mode)
    run = layering(tmp_path, *edit.args)
    assert run.returncode == 0, run.stdout + run.stderr
    assert path.read_text() != edit.text
    assert path.stat().st_mode & 0o7777 == mode


@pytest.mark.parametrize(
    "case",
    [
        "baseline contracts.toml",
        "prune contracts.toml",
        "prune setup.cfg",
        "migrate --force contracts.toml",
    ],
)
def test_a_read_only_configuration_is_refused_and_left_as_it_is(tmp_path, case):
    """A rename needs only the directory to be writable: the file's own mode must be asked."""
    edit = EDITS[case]
    path = write_project(tmp_path, edit, edit.text.encode())
    path.chmod(0o444)
    run = layering(tmp_path, *edit.args)
    assert run.returncode == 2, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    errors = [line for line in run.stderr.splitlines() if ": error: " in line]
    assert errors == [
        f"{edit.name}: error: the file is read-only: make it writable for layering to edit it"
    ], run.stderr
    assert path.read_bytes() == edit.text.encode()
    assert path.stat().st_mode & 0o7777 == 0o444


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0,
    reason="only root may give a file to another user",
)
def test_a_file_of_another_user_edited_by_root_stays_theirs(tmp_path):
    edit = EDITS["baseline contracts.toml"]
    path = write_project(tmp_path, edit, edit.text.encode())
    os.chown(path, 65534, 65534)
    run = layering(tmp_path, *edit.args)
    assert run.returncode == 0, run.stdout + run.stderr
    assert path.read_text() != edit.text
    assert (path.stat().st_uid, path.stat().st_gid) == (65534, 65534)
