"""import-linter's own functional test cases, run by both tools: every configuration of its test
assets (the sdist of the installed import-linter, downloaded from PyPI at test time; nothing of
it is kept here) gives the same exit code and, where `lint-imports` decided contracts, the same
verdict per contract. The one documented difference: a configuration `lint-imports` refuses
(exit 1, no contract decided) is refused here too, with exit 2.

`LAYERING_IMPORTLINTER_SDIST` names an sdist to use instead of downloading one; where none can
be had (no index reachable) the test is skipped, saying so."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from importlib.metadata import version
from pathlib import Path

import pytest
from importlinter_configs import COMPARES_COMMAND_LINE, LINT_IMPORTS

VERSION = version("import-linter")
CONFIG_NAMES = re.compile(r"(^\..*\.(ini|toml)$)|(^setup\.cfg$)|(^[a-z_]+\.ini$)")


@pytest.fixture(scope="module")
def assets(tmp_path_factory) -> Path:
    """The `tests` directory of import-linter's sdist, unpacked."""
    given = os.environ.get("LAYERING_IMPORTLINTER_SDIST")
    where = tmp_path_factory.mktemp("importlinter-sdist")
    if given:
        sdist = Path(given)
    else:
        download = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--no-binary",
                ":all:",
                f"import-linter=={VERSION}",
                "-d",
                str(where),
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        found = sorted(where.glob("import_linter-*.tar.gz"))
        if download.returncode != 0 or not found:
            pytest.skip(f"no sdist of import-linter {VERSION}: {download.stderr.strip()[-300:]}")
        sdist = found[0]
    with tarfile.open(sdist) as archive:
        archive.extractall(where, filter="data") if sys.version_info >= (3, 12) else (
            archive.extractall(where)
        )
    [root] = [p for p in where.iterdir() if p.is_dir() and p.name.startswith("import_linter")]
    return root


def cases(root: Path) -> list[tuple[Path, str]]:
    """(asset directory, configuration file relative to it) for each configuration there."""
    found = []
    for directory in sorted((root / "tests" / "assets").iterdir()):
        for path in sorted(directory.rglob("*")):
            if (
                path.is_file()
                and CONFIG_NAMES.match(path.name)
                and "site-packages" not in path.parts
            ):
                found.append((directory, str(path.relative_to(directory))))
    return found


def verdicts_of_lint_imports(output: str) -> dict[str, str]:
    """Each contract's verdict as `lint-imports` prints it ("NAME KEPT", "NAME BROKEN", with
    "(N ignored imports, M warnings)" after it)."""
    section = output.split("Contracts\n---------", 1)[-1].split("Contracts:", 1)[0]
    found = {}
    for line in section.splitlines():
        match = re.match(r"^(.*\S) (KEPT|BROKEN)( \(\d+ [a-z ,0-9]+\))?$", line.strip())
        if match:
            found[match.group(1)] = match.group(2).lower()
    return found


@pytest.mark.skipif(not COMPARES_COMMAND_LINE, reason="import-linter's 2.17 assets and CLI")
def test_every_configuration_of_import_linters_own_tests_gets_its_verdict(assets, tmp_path):
    paths = [
        str(assets),  # its `tests.helpers.contracts`, which custom contract types name
        *(
            str(assets / "tests/assets/namespacepackages" / p)
            for p in ("locationone", "locationtwo")
        ),
    ]
    compared = []
    for directory, config in cases(assets):
        work = tmp_path / f"{directory.name}-{len(compared)}"
        shutil.copytree(directory, work)
        env = {
            **{k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "PYTHONPATH")},
            "PYTHONPATH": os.pathsep.join(paths + [str(work)]),
        }
        theirs = subprocess.run(
            [LINT_IMPORTS, "--no-cache", config],
            cwd=work,
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        ours = subprocess.run(
            [sys.executable, "-m", "layering", "check", "--no-cache", "--format", "json", config],
            cwd=work,
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        case = (
            f"{directory.name}/{config}: lint-imports {theirs.returncode}, layering "
            f"{ours.returncode}"
        )
        decided = verdicts_of_lint_imports(theirs.stdout)
        if theirs.returncode == 1 and not decided:
            # Stopped by lint-imports before it printed a verdict: a configuration it refuses
            # (refused here too, exit 2, located), or an ignored import that matches nothing
            # under `unmatched_ignore_imports_alerting = error` (here: the contract broken by
            # that stale entry, exit 1).
            assert "Traceback" not in ours.stderr, ours.stderr
            assert ours.returncode in (1, 2), f"{case}\n{ours.stdout}{ours.stderr}"
            if ours.returncode == 1:
                stale = [
                    v
                    for c in json.loads(ours.stdout)["contracts"]
                    for v in c["violations"]
                    if v["code"] == "LY030"
                ]
                assert stale, f"{case}\n{theirs.stdout}\n{ours.stdout}"
        else:
            assert ours.returncode == theirs.returncode, (
                f"{case}\n{theirs.stdout}\n{ours.stdout}{ours.stderr}"
            )
            report = json.loads(ours.stdout)
            mine = {c["name"]: c["verdict"] for c in report["contracts"]}
            assert mine == decided, case
        compared.append(case)
    # Every kind of asset was compared: the test read them all.
    assert len(compared) >= 25, compared  # 28 configuration files in 2.17
