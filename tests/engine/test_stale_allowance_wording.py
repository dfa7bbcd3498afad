"""A stale allowance's message is true of the code it names.

On a contract about chains, an allowance whose import exists but lies on no chain from the
sources to the forbidden modules excuses nothing and breaks the contract (allowances only
shrink); the report must not say the import does not exist.
"""

from __future__ import annotations

from report_support import run_layering, write_files

OFF_THE_CHAIN = {
    "src/app/__init__.py": "",
    "src/app/a.py": "import app.b\n",
    "src/app/b.py": "import app.f\n",
    "src/app/c.py": "import app.b\n",
    "src/app/f.py": "",
    "contracts.toml": (
        'root_packages = ["app"]\nsource_roots = ["src"]\ncache_dir = false\n\n[[contracts]]\nid '
        '= "f"\ntype = "forbidden"\n'
        'source_modules = ["app.a"]\nforbidden_modules = ["app.f"]\nallow = ["app.c -> app.b"]\n'
    ),
}


def test_an_allowance_off_every_chain_is_not_said_to_match_no_import(tmp_path):
    run = run_layering(write_files(tmp_path, OFF_THE_CHAIN), "check")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "LY030 allowance 'app.c -> app.b'" in run.stdout
    assert "matches no import" not in run.stdout, run.stdout
    assert "its import lies off every chain" in run.stdout


def test_a_stale_name_of_an_allowance_is_said_as_an_import_not_a_python_list(tmp_path):
    files = {
        "src/app/__init__.py": "",
        "src/app/a.py": "from app.b import used\n",
        "src/app/b.py": "used = gone = 1\n",
        "contracts.toml": (
            'root_packages = ["app"]\nsource_roots = ["src"]\ncache_dir = '
            'false\n\n[[contracts]]\nid = "leaf"\n'
            'type = "leaf"\nmodules = ["app.a"]\nwithin = ["app"]\n'
            'allow = [{ module = "app.b", names = ["used", "gone"] }]\n'
        ),
    }
    run = run_layering(write_files(tmp_path, files), "check")
    assert run.returncode == 1, run.stdout + run.stderr
    assert (
        "contracts.toml:10: LY030 allowance 'app.b (used, gone)': no import takes 'gone' any "
        "more: remove the name" in run.stdout
    )
    assert "[" not in run.stdout.replace("[leaf]", "")
