"""Reports a person reads to the end: a cut's most-crossed imports first and the rest counted
(`--chains all` lists every one), and an import that breaks several pairs said once."""

from __future__ import annotations

FANNED = {
    "app/__init__.py": "",
    "app/low/__init__.py": "",
    **{f"app/low/m{i}.py": f"import app.high.h{i}\n" for i in range(6)},
    "app/high/__init__.py": "",
    **{f"app/high/h{i}.py": "" for i in range(6)},
    "contracts.toml": """\
root_packages = ["app"]

[[contracts]]
id = "low-no-high"
name = "low does not import high"
type = "forbidden"
source_modules = ["app.low"]
forbidden_modules = ["app.high"]
""",
}


def findings(stdout: str) -> list[str]:
    return [line.strip() for line in stdout.splitlines() if ": LY" in line]


def test_a_long_cut_shows_its_first_imports_and_counts_the_rest(project):
    project.write(FANNED)
    short = project.check()
    assert short.returncode == 1
    assert findings(short.stdout) == [
        "app/low/m0.py:1: LY001 app.low.m0 imports app.high.h0",
        "app/low/m1.py:1: LY001 app.low.m1 imports app.high.h1",
        "app/low/m2.py:1: LY001 app.low.m2 imports app.high.h2",
    ]
    assert "  ... and 3 more imports of the cut (3 statements) (--chains all to list them)" in (
        short.stdout
    )
    every = project.check("--chains", "all")
    assert len(findings(every.stdout)) == 6, every.stdout
    assert "more imports of the cut" not in every.stdout
    assert len(findings(project.check("--chains", "4").stdout)) == 4


SHARED = {
    "app/__init__.py": "",
    "app/hub.py": "import app.c.target\n",
    **{f"app/{name}/__init__.py": "" for name in "abc"},
    "app/a/one.py": "import app.hub\n",
    "app/b/two.py": "import app.hub\n",
    "app/c/target.py": "",
    "contracts.toml": """\
root_packages = ["app"]

[[contracts]]
id = "independent"
name = "a, b and c are independent"
type = "independence"
modules = ["app.a", "app.b", "app.c"]
""",
}


def test_an_import_that_breaks_several_pairs_is_said_once_with_the_pairs(project):
    project.write(SHARED)
    result = project.check()
    assert result.returncode == 1, result.stdout
    lines = result.stdout.splitlines()
    assert findings(result.stdout) == ["app/hub.py:1: LY012 app.hub imports app.c.target"]
    assert "    breaks 2 pairs: app.a -> app.c, app.b -> app.c" in lines
    assert "  2 chains between 2 pairs; removing this import keeps the contract:" in lines


def test_a_claim_is_counted_before_it_is_made(project):
    """One import to cut is "the one import", never "one of the 1 imports"; one chain is the
    shortest from the only import that leads there, never "the only chain"."""
    project.write(
        {
            **FANNED,
            **{f"app/low/m{i}.py": "" for i in range(1, 6)},
            "app/low/m0.py": "import app.mid\n",
            "app/mid.py": "import app.high.h0\n",
        }
    )
    github = project.check("--format", "github")
    assert github.returncode == 1, github.stdout
    assert "the one import to remove to cut every chain from app.low to app.high" in (
        github.stdout
    )
    assert "one of the 1 imports" not in github.stdout
    listed = project.check("--chains", "all")
    assert "the only chain" not in listed.stdout
    assert "  the chain (the shortest from the only import of a source module that leads" in (
        listed.stdout
    )
