"""A warm run of each static contract type reads no source file, and an edit reads the edited one.

Counted, not timed: the run goes on under an audit hook that writes down every `.py` file of
the package it opens and every parse (`compile`, which `ast.parse` calls) of one, and whether it
imported grimp (a graph built). What the warm run prints is what `--no-cache` prints.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

HOOKED = """\
import os, sys
root, log = os.path.realpath(sys.argv[1]), sys.argv[2]

def hook(event, args):
    if event == "compile" and isinstance(args[1], str):
        seen = ("parse", args[1])
    elif event == "open" and isinstance(args[0], str) and args[0].endswith(".py"):
        seen = ("open", args[0])
    elif event == "import" and args[0] == "grimp":
        seen = ("import", os.path.join(root, "grimp"))
    else:
        return
    if os.path.realpath(seen[1]).startswith(root + os.sep):
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(f"{seen[0]} {os.path.relpath(seen[1], root)}\\n")

sys.addaudithook(hook)
from layering.cli import main
sys.exit(main(sys.argv[3:]))
"""

FILES = {
    "pyproject.toml": '[project]\nname = "app"\nversion = "1"\ndependencies = []\n',
    "app/__init__.py": "",
    "app/util.py": "import json\n",
    "app/db/__init__.py": "from app.db.models import Model\n",
    "app/db/models.py": (
        '"""Models."""\nimport app.util\n\n__all__ = ["Model"]\n\n\nclass Model:\n    pass\n\n\n'
        "def _registry():\n    return {}\n"
    ),
    "app/db/_helpers.py": "def helper():\n    return 1\n",
    "app/web/__init__.py": "",
    "app/web/views.py": (
        "from app.db import Model\nfrom app.db.models import _registry\n"
        "from app.db._helpers import helper\nimport app.db.models\n\n\n"
        "def view():\n    import app.core.a\n\n    return app.db.models.Model, Model, _registry, helper\n"
    ),
    "app/core/__init__.py": "",
    "app/core/a.py": "import app.core.b\n",
    "app/core/b.py": "x = 1\n",
}

CONTRACTS = {
    "layers": 'type = "layers"\nlayers = ["app.web", "app.db", "app.util"]',
    "independence": 'type = "independence"\nmodules = ["app.core.a", "app.core.b"]',
    "forbidden": 'type = "forbidden"\nsource_modules = ["app.web"]\nforbidden_modules = ["app.util"]',
    "forbidden-direct": (
        'type = "forbidden"\nsource_modules = ["app.web"]\nforbidden_modules = ["app.db"]\n'
        "allow_indirect_imports = true"
    ),
    "forbidden-names": (
        'type = "forbidden"\nsource_modules = ["app.web"]\n'
        'forbidden_names = [{ module = "app.db.models", names = ["Model"] }]'
    ),
    "leaf": 'type = "leaf"\nmodules = ["app.util"]\nwithin = ["app"]',
    "contained": 'type = "contained"\npackages = "app.*"\nwithin = "app"',
    "interface": 'type = "interface"\nmodules = ["app.db.models"]',
    "external": 'type = "external"',
    "loads": 'type = "loads"\nmodules = ["app.web.views"]\nforbidden = ["app.core.b"]',
    "acyclic-siblings": 'type = "acyclic_siblings"\nancestors = ["app"]',
    "protected": (
        'type = "protected"\nprotected_modules = ["app.db"]\nallowed_importers = ["app.web"]'
    ),
    "defining-module": 'type = "defining_module"\nmodules = ["app.web.views"]',
}


# import-linter 2.17 brought private_modules; 2.15 is the last that runs on Python 3.10.
if importlib.util.find_spec("importlinter.contracts.private_modules") is not None:
    CONTRACTS["private-modules"] = 'type = "private_modules"'


def _write(root: Path) -> None:
    tables = "".join(
        f'\n[[contracts]]\nid = "{key}"\nname = "{key}"\n{body}\n'
        for key, body in CONTRACTS.items()
    )
    files = {**FILES, "contracts.toml": f'root_packages = ["app"]\n{tables}'}
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "hooked.py").write_text(HOOKED, encoding="utf-8")


def _run(root: Path, *args: str) -> tuple[subprocess.CompletedProcess, list[str]]:
    """`layering check ARGS` in `root` under the hook: the run, and what it read of `app`."""
    log = root / "read.log"
    log.unlink(missing_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "PYTHONPATH")}
    run = subprocess.run(
        [sys.executable, "hooked.py", str(root / "app"), str(log), "check", *args],
        cwd=root,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert run.returncode in (0, 1), run.stdout + run.stderr
    read = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    return run, sorted(set(read))


def _settled() -> None:
    """Wait until the files were written well before any cache is: a file written within two
    seconds of the cache is hashed again, its time cannot tell two writes apart."""
    time.sleep(2.1)


@pytest.fixture(scope="module")
def warmed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("warm")
    _write(root)
    _settled()
    for key in CONTRACTS:
        _run(root, "--contract", key)
    return root


@pytest.mark.parametrize("key", sorted(CONTRACTS))
def test_a_warm_run_reads_no_source_file(warmed: Path, key: str) -> None:
    warm, read = _run(warmed, "--contract", key)
    assert read == [], f"{key}: a warm run read {read}"
    fresh, read_fresh = _run(warmed, "--contract", key, "--no-cache")
    assert read_fresh, "the hook sees what a run reads"
    assert (warm.returncode, warm.stdout, warm.stderr) == (
        fresh.returncode,
        fresh.stdout,
        fresh.stderr,
    )


def test_the_contracts_break_and_keep_as_written(warmed: Path) -> None:
    """The package gives each type something to say: a warm run of nothing would prove little."""
    run, _ = _run(warmed, "--no-cache")
    broken = {line.split()[0] for line in run.stdout.splitlines() if line.endswith("BROKEN")}
    assert broken >= {
        "independence",
        "forbidden",
        "forbidden-direct",
        "forbidden-names",
        "contained",
        "interface",
        "defining-module",
    } | ({"private-modules"} & set(CONTRACTS)), run.stdout


def test_an_edit_reads_the_edited_file_only(tmp_path: Path) -> None:
    _write(tmp_path)
    _settled()
    _run(tmp_path)
    views = tmp_path / "app" / "web" / "views.py"
    views.write_text(views.read_text(encoding="utf-8") + "    pass\n", encoding="utf-8")
    edited, read = _run(tmp_path)
    assert {line.split()[1] for line in read if not line.startswith("import")} == {
        os.path.join("web", "views.py")
    }, read
    fresh, _ = _run(tmp_path, "--no-cache")
    assert (edited.returncode, edited.stdout) == (fresh.returncode, fresh.stdout)
