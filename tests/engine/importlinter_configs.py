"""import-linter configurations written the three ways import-linter reads them, and both tools
run on the same file: `.importlinter` (INI), `setup.cfg` (INI), `[tool.importlinter]` in
`pyproject.toml` (TOML).

A configuration here is data: the session options and, per contract, its id and options, each
a string or a list of strings (as an INI file holds them). `write_config` renders it in one of
the formats, with comments and blank lines inside the lists where the format has them.
"""

from __future__ import annotations

import json
import os
import re
import sys
from importlib.metadata import version
from pathlib import Path

import layering_process

LINT_IMPORTS = str(Path(sys.executable).parent / "lint-imports")
IMPORT_LINTER = tuple(int(part) for part in version("import-linter").split(".")[:2])
"""The installed import-linter's version. Its command line as the README compares it (several
configurations in one run, its exit codes) is 2.17's; Python 3.10 gets 2.15 at most, whose
`lint-imports` takes one configuration: the tests compare with it from 2.17 on."""
COMPARES_COMMAND_LINE = IMPORT_LINTER >= (2, 17)
FORMATS = (".importlinter", "setup.cfg", "pyproject.toml")

Value = "str | list[str]"

SHOP = {
    "shop/__init__.py": "",
    "shop/api/__init__.py": "",
    "shop/api/views.py": "from shop.domain import orders\nfrom shop import infra\n",
    "shop/domain/__init__.py": "",
    "shop/domain/orders.py": "from ..domain import pricing\n\ndef f():\n    from shop.infra "
    "import db\n",
    "shop/domain/pricing.py": (
        "import decimal\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from shop.api "
        "import views\n"
    ),
    "shop/domain/_private.py": "SECRET = 1\n",
    "shop/infra/__init__.py": "",
    "shop/infra/db.py": (
        "from shop.domain.pricing import Money\nimport sqlite3\nimport dataclasses\nfrom "
        "shop.domain import _private\n"
    ),
    "shop/gui/__init__.py": "",
    "shop/gui/window.py": "import PyQt5.QtWidgets\n",
    "shop/plugins/__init__.py": "",
    "shop/plugins/alpha/__init__.py": "",
    "shop/plugins/alpha/ui.py": "from . import logic\n",
    "shop/plugins/alpha/logic.py": "from . import data\n",
    "shop/plugins/alpha/data.py": "",
    "shop/plugins/beta/__init__.py": "",
    "shop/plugins/beta/ui.py": "from . import logic\n",
    "shop/plugins/beta/logic.py": "",
    "shop/plugins/beta/data.py": "from . import ui\n",
}

BILLING = {
    "billing/__init__.py": "",
    "billing/core.py": "import shop.api.views\n",
}


def under(prefix: str, files: dict[str, str]) -> dict[str, str]:
    return {f"{prefix}/{name}": text for name, text in files.items()}


def write_config(
    root: Path, file_format: str, session: dict, contracts: list[tuple[str, dict]]
) -> Path:
    """Write the configuration in `file_format` (one of FORMATS) into `root`; return its path."""
    if file_format == "pyproject.toml":
        text = _toml(session, contracts)
    else:
        text = _ini(session, contracts)
        if file_format == "setup.cfg":  # another tool's section around it, as in real projects
            text = "[metadata]\nname = shop\n\n" + text + "\n[flake8]\nmax-line-length = 100\n"
    path = root / file_format
    path.write_text(text, encoding="utf-8")
    return path


def _ini(session: dict, contracts: list[tuple[str, dict]]) -> str:
    lines = ["# the shop's import contracts", "[importlinter]"]
    lines += _ini_options(session, blank_lines=False)  # lint-imports keeps blank root packages
    for contract_id, options in contracts:
        lines += ["", f"# contract {contract_id}", f"[importlinter:contract:{contract_id}]"]
        lines += _ini_options(options)
    return "\n".join(lines) + "\n"


def _ini_options(options: dict, blank_lines: bool = True) -> list[str]:
    lines = []
    for key, value in options.items():
        if isinstance(value, str):
            lines.append(f"{key} = {value}")
            continue
        lines.append(f"{key} =")
        for position, item in enumerate(value):
            if position == 1:  # import-linter's fields skip both
                lines += ["    # a comment inside the list"] + ([""] if blank_lines else [])
            lines.append(f"    {item}")
    return lines


def _toml(session: dict, contracts: list[tuple[str, dict]]) -> str:
    lines = [
        "[project]",
        'name = "shop"',
        "",
        "# the shop's import contracts",
        "[tool.importlinter]",
    ]
    lines += [f"{key} = {_toml_value(key, value)}" for key, value in session.items()]
    for contract_id, options in contracts:
        lines += ["", "[[tool.importlinter.contracts]]", f'id = "{contract_id}"']
        lines += [f"{key} = {_toml_value(key, value)}" for key, value in options.items()]
    lines += ["", "[tool.other]", "x = 1"]
    return "\n".join(lines) + "\n"


def _toml_value(key: str, value: object) -> str:
    if isinstance(value, str):
        if value in ("True", "False"):
            return value.lower()
        return json.dumps(value)
    assert isinstance(value, list)
    return "[\n" + "".join(f"    {json.dumps(item)},  # {key}\n" for item in value) + "]"


def lint_imports(cwd: Path, *args: str, pythonpath: str = "") -> tuple[int, dict[str, str], str]:
    """(exit code, {contract name: KEPT or BROKEN}, output) of `lint-imports` run in `cwd`."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    result = layering_process.run_script(
        LINT_IMPORTS, ["--no-cache", *args], cwd=cwd, env=env, timeout=120
    )
    output = result.stdout + result.stderr
    verdicts = {
        name: verdict
        for name, verdict, _ in re.findall(r"^(\S.*?) (KEPT|BROKEN)( \([^()]*\))?$", output, re.M)
    }
    return result.returncode, verdicts, output


def layering(project, *args: str, cwd: Path | None = None) -> tuple[int, dict[str, str], dict]:
    """(exit code, {contract name: KEPT or BROKEN}, JSON report) of `layering check`."""
    result = project.check("--format", "json", "--no-cache", *args, cwd=cwd)
    assert "Traceback" not in result.stderr, result.stderr
    report = json.loads(result.stdout)
    if "contracts" not in report:
        raise AssertionError(result.stdout + result.stderr)
    verdicts = {
        c["name"]: ("KEPT" if c["verdict"] == "kept" else "BROKEN") for c in report["contracts"]
    }
    return result.returncode, verdicts, report
