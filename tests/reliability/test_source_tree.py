"""Odd source trees: every file problem is located (file:line) and leaves the contracts that need
the file undecided (ERROR, exit 2), never KEPT; odd but valid trees are read the way Python and
grimp read them; nothing hangs, nothing crashes."""

from __future__ import annotations

import ast
import os
import sys
import time

import pytest
from reliability_support import HEADER, forbidden, unprivileged_project

BASE = {"src/app/__init__.py": "", "src/app/a.py": "import json\n"}
# app.b must not import app.a: read directly from b's file, and through grimp's graph.
BOTH = (
    HEADER
    + forbidden("app.b", "app.a", indirect=True, id="direct")
    + forbidden("app.b", "app.a", id="graph")
)
PY = f"{sys.version_info[0]}.{sys.version_info[1]}"


def check_b(run, content) -> object:
    return run({**BASE, "src/app/b.py": content, "contracts.toml": BOTH})


def assert_undecided(result, location: str, reason: str, contracts=("direct", "graph")) -> None:
    assert result.code == 2, result
    for key in contracts:
        assert f"forbidden #{1 if key == 'direct' else 2} [{key}] ERROR" in result.out, result
    assert "KEPT" not in result.out
    assert f"{location}: LY040 {reason}" in result.out, result
    assert "fix the file to decide this contract" in result.out
    assert "could not be decided" in result.out


def test_syntax_error_in_a_file_a_direct_contract_reads(run):
    result = check_b(run, "from app import a\ndef f(:\n    pass\n")
    assert_undecided(
        result, "src/app/b.py:2", f"syntax error: invalid syntax (read as Python {PY})"
    )


def test_syntax_error_elsewhere_leaves_contracts_that_do_not_reach_it_decided(run):
    files = {
        **BASE,
        "src/app/b.py": "from app import a\n",
        "src/app/broken.py": "x = (\n",
        "contracts.toml": BOTH,
    }
    result = run(files)
    assert result.code == 1, result
    assert "forbidden #1 [direct] BROKEN" in result.out
    # A chain contract reads only what its sources reach: app.b never reaches app.broken.
    assert "forbidden #2 [graph] BROKEN" in result.out
    assert result.out.count("src/app/b.py:1: LY001 app.b imports app.a") == 2


def test_syntax_error_in_a_file_a_chain_contract_reaches_is_located(run):
    files = {
        **BASE,
        "src/app/b.py": "from app import a\nfrom app import broken\n",
        "src/app/broken.py": "x = (\n",
        "contracts.toml": BOTH,
    }
    result = run(files)
    assert result.code == 2
    assert "forbidden #2 [graph] ERROR" in result.out
    assert "src/app/broken.py:1: LY040 syntax error:" in result.out
    assert "(read as Python" in result.out


def test_syntax_error_anywhere_stops_a_contract_about_the_whole_graph(run):
    contracts = (
        BOTH + '\n[[contracts]]\nid = "layers"\ntype = "layers"\nlayers = ["app.a", "app.b"]\n'
    )
    files = {
        **BASE,
        "src/app/b.py": "import json\n",
        "src/app/broken.py": "x = (\n",
        "contracts.toml": contracts,
    }
    result = run(files)
    assert result.code == 2
    assert "[layers] ERROR" in result.out
    assert "src/app/broken.py:1: LY040 syntax error:" in result.out


def test_file_that_is_not_utf8_and_declares_no_encoding(run):
    result = check_b(run, b"# caf\xe9\nfrom app import a\n")
    assert_undecided(
        result,
        "src/app/b.py:1",
        "is not UTF-8 (byte 0xe9) and declares no encoding; save it as UTF-8",
    )


def test_bad_byte_after_the_first_two_lines_is_located(run):
    result = check_b(run, b"import os\nimport sys\n\nx = 'caf\xe9'\n")
    assert_undecided(result, "src/app/b.py:4", "is not valid utf-8 text (byte 0xe9)")


def test_unknown_encoding_declaration(run):
    result = check_b(run, b"# -*- coding: klingon -*-\nfrom app import a\n")
    assert_undecided(result, "src/app/b.py:1", "declares an unknown encoding 'klingon'")


def test_file_with_a_coding_cookie_is_decoded(run):
    result = check_b(run, b"# -*- coding: latin-1 -*-\n# caf\xe9\nfrom app import a\n")
    assert result.code == 1
    assert (
        result.out.count("src/app/b.py:3: LY001 app.b imports app.a\n") == 2
    )  # the direct and the graph contract


def test_utf8_bom_is_read_like_python_reads_it(run):
    result = check_b(run, b"\xef\xbb\xbffrom app import a\n")
    assert result.code == 1
    assert "src/app/b.py:1: LY001 app.b imports app.a\n" in result.out
    assert "[graph] BROKEN" in result.out


def test_nul_byte(run):
    result = check_b(run, b"from app import a\nx = 1\0\n")
    assert_undecided(result, "src/app/b.py:2", "contains a NUL byte; Python cannot import it")


def test_empty_file_is_a_module_that_imports_nothing(run):
    result = check_b(run, "")
    assert result.code == 0
    assert "[direct] KEPT" in result.out and "[graph] KEPT" in result.out


def test_namespace_root_package(run):
    files = {
        "src/app/a.py": "import json\n",
        "src/app/b.py": "from app import a\n",
        "src/app/sub/__init__.py": "",
        "src/app/sub/x.py": "import app.b\n",
        "contracts.toml": BOTH + forbidden("app.sub", "app.a", id="ns-chain"),
    }
    result = run(files)
    assert result.code == 1
    assert "src/app/b.py:1: LY001 app.b imports app.a\n" in result.out
    assert (
        "  src/app/b.py:1: LY002 app.b imports app.a\n    the chain:\n      src/app/sub/x.py:1: "
        "app.sub.x -> app.b\n" in result.out
    )


def test_import_cycle_terminates_and_reports_the_chain(run):
    files = {
        "src/app/__init__.py": "",
        "src/app/a.py": "import json\n",
        "src/app/b.py": "from app import c\n",
        "src/app/c.py": "from app import b\nfrom app import d\n",
        "src/app/d.py": "from app import b\nimport app.a\n",
        "contracts.toml": HEADER + forbidden("app.b", "app.a"),
    }
    result = run(files)
    assert result.code == 1
    assert "  src/app/d.py:2: LY002 app.d imports app.a\n" in result.out
    assert (
        "      src/app/b.py:1: app.b -> app.c\n      src/app/c.py:2: app.c -> app.d\n      "
        "src/app/d.py:2: app.d -> app.a\n" in result.out
    )


def test_symlinked_directory_leading_outside_the_package_is_part_of_it(run, project):
    files = {
        **BASE,
        "src/app/b.py": "import json\n",
        "vendor/ext/__init__.py": "",
        "vendor/ext/mod.py": "from app import a\n",
        "contracts.toml": HEADER
        + forbidden("app.ext", "app.a", indirect=True, id="direct")
        + forbidden("app.ext", "app.a", id="graph"),
    }
    project.write({k: v for k, v in files.items()})
    os.symlink(project.root / "vendor" / "ext", project.root / "src" / "app" / "ext")
    result = run({})
    assert result.code == 1
    assert "src/app/ext/mod.py:1: LY001 app.ext.mod imports app.a\n" in result.out
    assert "[graph] BROKEN" in result.out


def test_symlink_loops_terminate(run, project):
    files = {
        **BASE,
        "src/app/b.py": "from app import a\n",
        "src/app/sub/__init__.py": "",
        "src/app/sub/x.py": "",
        "contracts.toml": BOTH,
    }
    project.write(files)
    app = project.root / "src" / "app"
    os.symlink(".", app / "self_loop")
    os.symlink("..", app / "parent_loop")
    os.symlink("..", app / "sub" / "up")
    os.symlink("../sub", app / "sub" / "again")
    os.symlink("missing_target.py", app / "dangling.py")  # a broken link is no module
    started = time.monotonic()
    result = run({})
    assert time.monotonic() - started < 60
    assert result.code == 1
    assert result.out.count("src/app/b.py:1: LY001 app.b imports app.a\n") == 2


def test_symlink_back_into_the_package_is_not_a_second_copy(run, project):
    files = {
        **BASE,
        "src/app/b.py": "",
        "src/app/real/__init__.py": "",
        "src/app/real/x.py": "from app import a\n",
        "contracts.toml": HEADER
        + '\n[[contracts]]\ntype = "leaf"\nmodules = ["app.**"]\nwithin = ["app.a"]\n',
    }
    project.write(files)
    os.symlink("real", project.root / "src" / "app" / "alias")
    result = run({})
    assert result.code == 1
    assert "src/app/real/x.py:1: LY003 app.real.x imports app.a" in result.out
    assert "alias" not in result.out


def test_directory_of_modules_without_init_inside_a_package_is_read_as_python_imports_it(run):
    # Python imports app.orphan.x from a directory without __init__.py (a namespace package
    # inside the regular package app); grimp's walk would leave it out.
    files = {
        **BASE,
        "src/app/b.py": "",
        "src/app/orphan/x.py": "from app import a\n",
        "src/app/data/d.txt": "",
        "contracts.toml": HEADER
        + '\n[[contracts]]\ntype = "leaf"\nmodules = ["app.orphan.x"]\nwithin = ["app"]\n',
    }
    result = run(files)
    assert result.code == 1
    assert "src/app/orphan/x.py:1: LY003 app.orphan.x imports app.a" in result.out


def test_very_long_file_stays_fast(run):
    lines = [
        f"from app import a as a{i}" if i % 1000 == 0 else f"x{i} = {i}" for i in range(200_000)
    ]
    started = time.monotonic()
    result = check_b(run, "\n".join(lines) + "\n")
    elapsed = time.monotonic() - started
    assert result.code == 1
    assert (
        result.out.count("LY001 app.b imports app.a\n") == 200
    )  # each statement of the direct contract
    assert (
        "  src/app/b.py:1: LY001 app.b imports app.a (200 statements, lines 1, 1001, 2001, 3001, "
        "4001 and 195 more)\n" in result.out
    )
    assert "src/app/b.py:199001: LY001" in result.out
    assert elapsed < 30, f"200k lines took {elapsed:.1f}s"


def assert_graph_decided(result, violation: str) -> None:
    """A file this Python cannot parse but grimp can: both contracts are decided from grimp's
    reading of it (lint-imports decides them too), each import statement read alone."""
    assert result.code == 1, result
    assert "forbidden #1 [direct] BROKEN" in result.out, result
    assert "forbidden #2 [graph] BROKEN" in result.out, result
    assert result.out.count(violation) == 2, result


def test_huge_expression_is_an_error_not_a_crash(run):
    # Some CPythons cannot compile it (recursion limit); grimp's parser used to overflow its stack.
    source = "from app import a\nx = " + "+".join(["1"] * 50_000) + "\n"
    result = check_b(run, source)
    try:
        ast.parse(source)
    except (RecursionError, MemoryError, SyntaxError):
        assert_graph_decided(result, "src/app/b.py:1: LY001 app.b imports app.a\n")
    else:
        assert result.code == 1, result
        assert "src/app/b.py:1: LY001 app.b imports app.a" in result.out


NEW_SYNTAX = 'type Alias = int\nfrom app import a\nx = f"{f\'{f"{1}"}\'}"\n'


def test_python_312_syntax_is_parsed_when_this_python_can(run):
    result = check_b(run, NEW_SYNTAX)
    try:
        ast.parse(NEW_SYNTAX)
    except SyntaxError:
        assert_graph_decided(result, "src/app/b.py:2: LY001 app.b imports app.a\n")
    else:
        assert result.code == 1
        assert "src/app/b.py:2: LY001 app.b imports app.a" in result.out


def test_lazy_import_is_a_located_error_where_python_lacks_it(run):
    source = "import json\nlazy import app.a\n"
    result = check_b(run, source)
    try:
        ast.parse(source)
    except SyntaxError:
        assert_graph_decided(result, "src/app/b.py:2: LY001 app.b imports app.a\n")
    else:  # PEP 810 Pythons: a lazy import is an import, marked as such
        assert result.code == 1
        assert "src/app/b.py:2: LY001 app.b imports app.a [lazy]" in result.out


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
@pytest.mark.parametrize("cache", [(), ("--no-cache",)], ids=["cache", "no-cache"])
def test_unreadable_file_is_located_when_permissions_apply(cache):
    with unprivileged_project() as project:
        project.write({**BASE, "src/app/b.py": "from app import a\n", "contracts.toml": BOTH})
        (project.root / "src/app/b.py").chmod(0)
        result = project.check(*cache)
    assert_undecided(result, "src/app/b.py", "cannot be read (Permission denied)")


DOTTED = {
    "src/app/__init__.py": "print('APP INIT RAN')\n",
    "src/app/sub/__init__.py": "",
    "src/app/sub/x.py": "import json\n",
    "src/app/sub/y.py": "import app.sub.x\n",
    "contracts.toml": 'root_packages = ["app.sub"]\nsource_roots = ["src"]\n'
    + forbidden("app.sub.y", "app.sub.x"),
}


def test_dotted_root_inside_a_regular_package_is_refused_without_running_it(run):
    # grimp would import `app` (running its __init__.py) to find `app.sub`; static runs run
    # nothing.
    result = run(DOTTED)
    assert "APP INIT RAN" not in result.both
    assert result.code == 2
    assert (
        "src/app/__init__.py:1: LY040 root package 'app.sub' lies inside the regular package 'app'"
        in result.out
    )
    assert "name 'app' in root_packages instead" in result.out


def test_dotted_root_inside_a_namespace_package_works(run):
    files = {k: v for k, v in DOTTED.items() if k != "src/app/__init__.py"}
    result = run(files)
    assert result.code == 1
    assert "src/app/sub/y.py:1: LY001 app.sub.y imports app.sub.x" in result.out
