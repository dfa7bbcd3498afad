"""Classes of modules (`<stdlib>`, `<third-party>`, `<first-party>`) in contract patterns.

Each test runs the real CLI on a small package: `<third-party>` forbidden in a package finds
the direct and the indirect imports of packages that are neither the root packages nor the
standard library (installed or not), located as any finding; `leaf` and `allow` take the
classes too; `<stdlib>` is the standard library of `--python` where it is given; every output
format prints the same with and without the cache, an edit that adds a third-party import
included.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest
from report_support import run_layering, write_files

PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/domain/__init__.py": "import os\nfrom app import infra\n",
    "src/app/domain/model.py": (
        "from __future__ import annotations\n\nimport json\nimport requests.adapters\n"
    ),
    "src/app/infra.py": "import yaml\nimport sys\n",
    "src/app/cli.py": "import click\n",
}

HEADER = 'root_packages = ["app"]\nsource_roots = ["src"]\n'

NO_THIRD_PARTY = """
[[contracts]]
id = "domain-no-third-party"
name = "The domain imports no third-party package"
type = "forbidden"
source_modules = ["app.domain"]
forbidden_modules = ["<third-party>"]
"""

STDLIB_ONLY_LEAF = """
[[contracts]]
id = "model-stdlib-only"
name = "The model imports only the standard library"
type = "leaf"
modules = ["app.domain.model"]
within = ["<stdlib>", "<third-party>"]
allow = ["<stdlib>"]
"""

DIRECT_WITH_CLASS_ALLOWANCE = """
[[contracts]]
id = "first-party-direct"
name = "First-party modules import third-party packages only in the CLI"
type = "forbidden"
source_modules = ["<first-party>"]
forbidden_modules = ["<third-party>"]
allow_indirect_imports = true
allow = ["app.cli -> <third-party>"]
"""


def _project(tmp_path: Path, *contracts: str, files: dict[str, str] | None = None) -> Path:
    return write_files(
        tmp_path, {**PACKAGE, **(files or {}), "contracts.toml": HEADER + "".join(contracts)}
    )


def test_third_party_forbidden_finds_direct_and_indirect_imports_located(tmp_path):
    run = run_layering(_project(tmp_path, NO_THIRD_PARTY), "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "The domain imports no third-party package [domain-no-third-party] BROKEN" in run.stdout
    assert "2 chains from app.domain to <third-party>" in run.stdout
    assert "src/app/domain/model.py:4: LY001 app.domain.model imports requests" in run.stdout
    assert "src/app/infra.py:1: LY002 app.infra imports yaml" in run.stdout
    assert "src/app/domain/__init__.py:2: app.domain -> app.infra" in run.stdout
    for not_third_party in ("__future__", "json", " os", "sys", "click"):
        assert f"imports {not_third_party.strip()}\n" not in run.stdout, run.stdout


def test_leaf_within_classes_with_a_class_allowance(tmp_path):
    run = run_layering(_project(tmp_path, STDLIB_ONLY_LEAF), "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "[model-stdlib-only] BROKEN (1 allowance in use)" in run.stdout
    findings = [line.strip() for line in run.stdout.splitlines() if " LY003 " in line]
    assert findings == [
        "src/app/domain/model.py:4: LY003 app.domain.model imports requests.adapters"
    ]


def test_a_class_on_either_side_of_an_allowance(tmp_path):
    run = run_layering(_project(tmp_path, DIRECT_WITH_CLASS_ALLOWANCE), "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    findings = sorted(line.strip() for line in run.stdout.splitlines() if " LY001 " in line)
    assert findings == [
        "src/app/domain/model.py:4: LY001 app.domain.model imports requests.adapters",
        "src/app/infra.py:1: LY001 app.infra imports yaml",
    ]
    assert "(1 allowance in use)" in run.stdout


def test_a_kept_contract_and_a_stale_class_allowance(tmp_path):
    kept = NO_THIRD_PARTY.replace(
        '"app.domain"]', '"app.domain"]\nallow = ["app.infra -> <stdlib>"]'
    )
    files = {"src/app/domain/model.py": "import json\n", "src/app/infra.py": "import sys\n"}
    run = run_layering(_project(tmp_path, kept, files=files), "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "allowance 'app.infra -> <stdlib>' excuses no import on a chain" in run.stdout
    del_allow = kept.replace('allow = ["app.infra -> <stdlib>"]\n', "")
    config = tmp_path / "contracts.toml"
    config.write_text(HEADER + del_allow)
    run = run_layering(tmp_path, "check", "--no-cache")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "[domain-no-third-party] KEPT" in run.stdout


def _interpreter_whose_stdlib_holds(tmp_path: Path, names: str) -> Path:
    """An interpreter that is this one, except that its standard library is `names`."""
    path = tmp_path / "bin" / "python"
    path.parent.mkdir()
    path.write_text(
        "#!/bin/sh\n"
        f'case "$*" in *stdlib_module_names*) printf "{names}";; '
        f'*) exec "{sys.executable}" "$@";; esac\n'
    )
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.mark.skipif(os.name != "posix", reason="the stand-in interpreter is a shell script")
def test_stdlib_is_that_of_the_python_given(tmp_path):
    root = _project(tmp_path / "p", NO_THIRD_PARTY)
    python = _interpreter_whose_stdlib_holds(tmp_path, "json os sys yaml")
    default = run_layering(root, "check")
    other = run_layering(root, "check", "--python", str(python))
    assert "app.infra imports yaml" in default.stdout
    assert other.returncode == 1, other.stdout + other.stderr
    assert "app.infra imports yaml" not in other.stdout
    assert "app.domain.model imports requests" in other.stdout
    # Each answered from the cache as a run without it answers.
    for args in ((), ("--python", str(python))):
        cached = run_layering(root, "check", *args)
        fresh = run_layering(root, "check", "--no-cache", *args)
        assert (cached.returncode, cached.stdout) == (fresh.returncode, fresh.stdout)
    assert run_layering(root, "check").stdout == default.stdout


def test_an_unusable_python_for_stdlib_is_an_error(tmp_path):
    run = run_layering(
        _project(tmp_path, NO_THIRD_PARTY), "check", "--python", str(tmp_path / "nothing")
    )
    assert run.returncode == 2, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    assert "--python" in run.stderr and "does not exist" in run.stderr


@pytest.mark.parametrize("format", ["text", "json", "github", "sarif"])
def test_every_format_is_the_same_cached_and_not(tmp_path, format):
    root = _project(tmp_path, NO_THIRD_PARTY, STDLIB_ONLY_LEAF, DIRECT_WITH_CLASS_ALLOWANCE)
    runs = [run_layering(root, "check", "--format", format) for _ in range(2)]
    fresh = run_layering(root, "check", "--format", format, "--no-cache")
    assert (tmp_path / ".layering_cache").is_dir()
    assert fresh.returncode == 1, fresh.stdout + fresh.stderr
    for run in runs:
        assert (run.returncode, run.stdout) == (fresh.returncode, fresh.stdout)
    if format == "json":
        contracts = {c["id"]: c for c in json.loads(fresh.stdout)["contracts"]}
        assert contracts["domain-no-third-party"]["verdict"] == "broken"
    if format in ("github", "sarif"):
        assert "src/app/infra.py" in fresh.stdout


def test_a_cached_verdict_follows_an_edit_that_adds_a_third_party_import(tmp_path):
    files = {"src/app/domain/model.py": "import json\n", "src/app/infra.py": "import sys\n"}
    root = _project(tmp_path, NO_THIRD_PARTY, files=files)
    assert run_layering(root, "check").returncode == 0
    (root / "src/app/infra.py").write_text("import sys\nimport attrs\n")
    cached, fresh = run_layering(root, "check"), run_layering(root, "check", "--no-cache")
    assert (cached.returncode, cached.stdout) == (fresh.returncode, fresh.stdout)
    assert "src/app/infra.py:2: LY002 app.infra imports attrs" in cached.stdout


def test_baseline_excuses_todays_third_party_imports_only(tmp_path):
    root = _project(tmp_path, NO_THIRD_PARTY)
    baseline = run_layering(root, "baseline")
    assert baseline.returncode == 0, baseline.stdout + baseline.stderr
    assert run_layering(root, "check").returncode == 0
    (root / "src/app/domain/__init__.py").write_text(
        "import os\nfrom app import infra\nimport attrs\n"
    )
    run = run_layering(root, "check")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "src/app/domain/__init__.py:3: LY001 app.domain imports attrs" in run.stdout


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        (
            'exclude = ["<stdlib>"]\n',
            "a class of modules (<first-party>, <stdlib>, <third-party>) is not accepted here",
        ),
        (
            NO_THIRD_PARTY.replace('"<third-party>"', '"<thirdparty>"'),
            "'<thirdparty>' is not a class of modules: the classes are <first-party>, <stdlib>, "
            "<third-party>",
        ),
        (
            NO_THIRD_PARTY.replace('["app.domain"]', '["<stdlib>"]'),
            "'<stdlib>' in 'source_modules' matches no module in the package app",
        ),
        (
            '\n[[contracts]]\nid = "l"\ntype = "loads"\nmodules = ["app.cli"]\nforbidden = '
            '["<third-party>"]\n',
            "is not accepted here",
        ),
    ],
)
def test_a_class_where_it_cannot_stand_is_a_located_error(tmp_path, entry, said):
    root = _project(tmp_path, entry)
    run = run_layering(root, "check")
    assert run.returncode == 2, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    config = (root / "contracts.toml").read_text().splitlines()
    line = next(i for i, text in enumerate(config, 1) if "<" in text and "=" in text)
    assert f"contracts.toml:{line}:" in run.stdout + run.stderr
    assert said in run.stdout + run.stderr
