"""The graph is built from the files Python imports: where two files claim one module, and where
modules lie in a directory without `__init__.py` inside a regular package, the static contracts
see what a probe of the same module sees, and the run says what it found."""

from __future__ import annotations

import pytest

HEAD = 'root_packages = ["app"]\nsource_roots = ["src"]\n'

FORBIDDEN = (
    HEAD
    + """
[[contracts]]
id = "hi-not-lo"
name = "app.hi does not import app.lo"
type = "forbidden"
source_modules = ["app.hi"]
forbidden_modules = ["app.lo"]
"""
)

LOADS = """
[[contracts]]
id = "hi-loads-no-lo"
name = "importing {module} loads no app.lo"
type = "loads"
modules = ["{module}"]
forbidden = ["app.lo"]
"""

PROBE = """
[[contracts]]
id = "hi-probe"
name = "importing {module} loads no app.lo, run"
type = "probe"
modules = ["{module}"]
forbidden = ["app.lo"]
"""

PACKAGE_BESIDE_MODULE = {
    "src/app/__init__.py": "",
    "src/app/hi.py": "",
    "src/app/mid.py": "import json\n",  # never imported: the package app/mid/ is
    "src/app/mid/__init__.py": '"""The package wins."""\n\nfrom app.lo import b\n',
    "src/app/lo/__init__.py": "",
    "src/app/lo/b.py": "",
}


@pytest.mark.parametrize("cache", [(), ("--no-cache",)], ids=["cache", "no-cache"])
def test_a_package_beside_a_module_of_its_name_is_what_the_graph_reads(project, cache):
    project.write(
        {
            **PACKAGE_BESIDE_MODULE,
            "src/app/hi.py": "from app import mid\n",
            "contracts.toml": FORBIDDEN + (LOADS + PROBE).format(module="app.hi"),
        }
    )
    result = project.check(*cache)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "app.hi does not import app.lo [hi-not-lo] BROKEN" in result.stdout
    assert "src/app/mid/__init__.py:3: LY002 app.mid imports app.lo.b" in result.stdout
    assert "[hi-loads-no-lo] BROKEN" in result.stdout  # the static load closure agrees
    assert "[hi-probe] BROKEN" in result.stdout  # and so does Python
    assert "src/app/mid.py:" not in result.stdout
    warning = (
        "layering: warning: src/app/mid.py: never imported: Python imports 'app.mid' from the "
        "package "
        "src/app/mid/__init__.py beside it, and so does layering (grimp would read this file); "
        "rename or remove one of them\n"
    )
    assert result.stderr.count(warning) == 1, result.stderr


def test_an_edit_of_the_package_beside_a_module_is_seen_by_the_next_cached_run(project):
    project.write(
        {
            **PACKAGE_BESIDE_MODULE,
            "src/app/mid/__init__.py": "",
            "src/app/hi.py": "from app import mid\n",
            "contracts.toml": FORBIDDEN,
        }
    )
    assert project.check().returncode == 0
    (project.root / "src/app/mid/__init__.py").write_text("from app.lo import b\n")
    cached, uncached = project.check(), project.check("--no-cache")
    assert (
        (cached.returncode, cached.stdout)
        == (uncached.returncode, uncached.stdout)
        == (1, uncached.stdout)
    )


def test_a_directory_beside_a_module_of_its_name_is_out_of_reach(project):
    project.write(
        {
            "src/app/__init__.py": "",
            "src/app/hi.py": "from app import mid\n",
            "src/app/mid.py": "",
            # app.mid is the module mid.py: Python cannot import app.mid.b
            "src/app/mid/b.py": "from app.lo import b\n",
            "src/app/lo/__init__.py": "",
            "src/app/lo/b.py": "",
            "contracts.toml": FORBIDDEN,
        }
    )
    result = project.check()
    assert result.returncode == 0, result.stdout + result.stderr
    assert (
        "layering: warning: src/app/mid/: hidden by the module src/app/mid.py: Python imports "
        "that file as 'app.mid', so no module in this directory can be imported (rename one of "
        "them)\n" in result.stderr
    )


@pytest.mark.parametrize("cache", [(), ("--no-cache",)], ids=["cache", "no-cache"])
def test_modules_in_a_directory_without_init_inside_a_regular_package_are_in_the_graph(
    project, cache
):
    project.write(
        {
            "src/app/__init__.py": "",
            "src/app/hi/__init__.py": "",
            "src/app/hi/a.py": "import app.portion.m\n",
            # app.portion is a namespace package: Python imports app.portion.m
            "src/app/portion/m.py": "from ..lo import b\n",
            "src/app/templates/page.html": "",  # a directory that holds no module stays out
            "src/app/lo/__init__.py": "",
            "src/app/lo/b.py": "",
            "contracts.toml": FORBIDDEN + (LOADS + PROBE).format(module="app.hi.a"),
        }
    )
    result = project.check(*cache)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "src/app/portion/m.py:1: app.portion.m -> app.lo.b" in result.stdout
    assert "[hi-loads-no-lo] BROKEN" in result.stdout
    assert "[hi-probe] BROKEN" in result.stdout
    assert (
        result.stderr.count(
            "layering: warning: src/app/portion/: no __init__.py inside the regular package "
            "'app': Python imports its modules as the namespace package 'app.portion', and so "
            "does layering (grimp and import-linter leave them out); add an __init__.py to make "
            "it a regular package\n"
        )
        == 1
    )
    assert "templates" not in result.stdout + result.stderr
    graph = project.layering("graph", "app", "--depth", "2")
    assert "app.portion" in graph.stdout and "app.templates" not in graph.stdout
