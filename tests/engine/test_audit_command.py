"""`layering audit`: the probe and the static load closure of the same modules, compared."""

from __future__ import annotations

import json

HEADER = 'root_packages = ["app"]\nsource_roots = ["src"]\ncache_dir = false\n'

PROBE = (
    '\n[[contracts]]\nid = "{id}"\nname = "{id} probe"\ntype = "probe"\nmodules = '
    '{modules}\nforbidden = ["app.heavy"]\n'
)


def config(**probes: list[str]) -> str:
    return HEADER + "".join(
        PROBE.format(id=key, modules=json.dumps(modules)) for key, modules in probes.items()
    )


PACKAGE = {
    "src/app/__init__.py": "import importlib\n\n\ndef __getattr__(name):\n    return "
    "importlib.import_module('app.heavy')\n",
    "src/app/heavy.py": "",
    "src/app/plain.py": "import app.heavy\n",
    "src/app/clean.py": "import os\n",
    "src/app/dynamic.py": "import importlib\n\nplugin = importlib.import_module('app.heavy')\n",
    "src/app/builtin.py": "x = 1\n__import__('app.heavy')\n",
    "src/app/attribute.py": "from app import anything\n",
    "src/app/indirect.py": "import app.dynamic\n",
    "src/app/guarded.py": "import sys\n\nif sys.version_info < (3,):\n    import app.heavy\n",
}


def test_agreement_exits_0(project):
    project.write({**PACKAGE, "contracts.toml": config(same=["app.plain", "app.clean"])})
    result = project.layering("audit")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == (
        "same probe [same]: 2 modules, the probe and the source agree: loads is enough\n"
        "\n"
        "Audit: 1 probe contract, 2 modules: 2 agree, 0 disagree.\n"
    )


def test_dynamic_imports_are_named_with_the_statement_that_loaded_them(project):
    project.write(
        {
            **PACKAGE,
            "contracts.toml": config(
                dyn=["app.attribute", "app.builtin", "app.dynamic", "app.indirect", "app.plain"]
            ),
        }
    )
    result = project.layering("audit")
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout == (
        "dyn probe [dyn]: 5 modules, 4 disagree: needs the probe\n"
        "  src/app/__init__.py:5: importing app.attribute loads app.heavy at run time; the source "
        "does not say so\n"
        "    loaded by: return importlib.import_module('app.heavy')\n"
        "  src/app/builtin.py:2: importing app.builtin loads app.heavy at run time; the source "
        "does not say so\n"
        "    loaded by: __import__('app.heavy')\n"
        "  src/app/dynamic.py:3: importing app.dynamic loads app.heavy at run time; the source "
        "does not say so\n"
        "    loaded by: plugin = importlib.import_module('app.heavy')\n"
        "  src/app/dynamic.py:3: importing app.indirect loads app.heavy at run time; the source "
        "does not say so\n"
        "    loaded by: plugin = importlib.import_module('app.heavy')\n"
        "    runtime chain:\n"
        "      src/app/indirect.py:1: app.indirect -> app.dynamic\n"
        "      src/app/dynamic.py:3: app.dynamic -> app.heavy\n"
        "\n"
        "Audit: 1 probe contract, 5 modules: 1 agree, 4 disagree.\n"
    )


def test_a_branch_not_taken_is_predicted_but_not_loaded(project):
    project.write({**PACKAGE, "contracts.toml": config(branch=["app.guarded"])})
    result = project.layering("audit")
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout == (
        "branch probe [branch]: 1 module, 1 disagree: loads is stricter\n"
        "  src/app/guarded.py:4: importing app.guarded would load app.heavy as the source says; "
        "at run time it did not\n"
        "    would be loaded by: import app.heavy [conditional]\n"
        "\n"
        "Audit: 1 probe contract, 1 module: 0 agree, 1 disagree.\n"
    )


def test_table_and_json(project):
    project.write(
        {
            **PACKAGE,
            "contracts.toml": config(
                same=["app.plain"], dyn=["app.dynamic"], branch=["app.guarded", "app.clean"]
            ),
        }
    )
    table = project.layering("audit", "--format", "table")
    assert table.returncode == 1
    assert table.stdout == (
        "contract  modules  agree  runtime only  source only  errors  loads alone\n"
        "same            1      1             0            0       0  loads is enough\n"
        "dyn             1      0             1            0       0  needs the probe\n"
        "branch          2      1             0            1       0  loads is stricter\n"
    )
    only = project.layering("audit", "--format", "json", "--contract", "dyn")
    assert only.returncode == 1
    document = json.loads(only.stdout)
    assert document["exit_code"] == 1
    [contract] = document["contracts"]
    [module] = contract["modules"]
    assert (
        module["module"] == "app.dynamic"
        and module["runtime"] == ["app.heavy"]
        and module["static"] == []
    )
    [difference] = module["differences"]
    assert difference["kind"] == "runtime_only"
    assert (difference["where"]["path"], difference["where"]["line"]) == ("src/app/dynamic.py", 3)
    assert difference["statement"] == "plugin = importlib.import_module('app.heavy')"


def test_errors_exit_2_located_in_every_format(project):
    project.write(
        {
            **PACKAGE,
            "src/app/fails.py": "raise RuntimeError('no')\n",
            "contracts.toml": config(failing=["app.fails"])
            + '\n[[contracts]]\nid = "static"\nname = "static"\ntype = "loads"\nmodules = '
            '["app.plain"]\nforbidden = ["app.heavy"]\n',
        }
    )
    failed = project.layering("audit")
    assert failed.returncode == 2
    assert (
        "  app.fails: could not be probed: importing app.fails import failed: RuntimeError: no\n"
        in failed.stdout
    )
    assert "1 could not be probed" in failed.stdout
    for format in ("text", "table", "json"):
        refused = project.layering("audit", "--contract", "static", "--format", format)
        assert refused.returncode == 2
        assert "contracts.toml: error: no probe contract to audit among 'static'" in refused.stderr
    assert (
        json.loads(project.layering("audit", "--contract", "static", "--format", "json").stdout)[
            "exit_code"
        ]
        == 2
    )


def test_a_module_loaded_by_setup_is_not_compared_and_the_audit_says_so(project):
    project.write(
        {
            **PACKAGE,
            "src/app/boot.py": "import app.heavy\n",
            "contracts.toml": config(booted=["app.plain", "app.clean"]).replace(
                'forbidden = ["app.heavy"]\n', 'forbidden = ["app.heavy"]\nsetup = ["app.boot"]\n'
            ),
        }
    )
    result = project.layering("audit")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == (
        "warning: contract 'booted probe': app.heavy loaded before the probe imported app.clean, "
        "app.plain (by setup app.boot): not compared there\n"
        "booted probe [booted]: 2 modules, the probe and the source agree: loads is enough\n"
        "\n"
        "Audit: 1 probe contract, 2 modules: 2 agree, 0 disagree.\n"
    )
