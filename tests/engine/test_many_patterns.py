"""A forbidden contract of 10,000 modules gives the report a handful of them gives, through the
real CLI: its modules are found through an index, not by trying every entry on every import.
The time budget is generous; it only guards against time that grows with the list's length
times the source's imports (10,000 entries by 20,000 imports: 200 million tries).

Every forbidden module is a file (an entry that matches no module is an error), and a file
costs far more to make than an import line: the source holds the imports, the list is long
enough to be found by the index alone.
"""

from __future__ import annotations

import time

SUBPACKAGES, MODULES = 100, 100
"""pkg.s0 ... pkg.s99 hold the 10,000 forbidden modules; pkg.src is the source."""
SOURCE_MODULES, IMPORTS = 200, 100
"""pkg.src.m0 ... m199, each importing 100 of its siblings (20,000 imports): each checked
against every forbidden module, to no avail."""


def write_package(project) -> list[str]:
    """The package, one import from the source to a forbidden module; every forbidden module."""
    files = {"pkg/__init__.py": "", "pkg/src/__init__.py": ""}
    for m in range(SOURCE_MODULES):
        imports = [f"import pkg.src.m{(m + i) % SOURCE_MODULES}\n" for i in range(1, IMPORTS + 1)]
        files[f"pkg/src/m{m}.py"] = "".join(imports)
    for s in range(SUBPACKAGES):
        files[f"pkg/s{s}/__init__.py"] = ""
        for m in range(MODULES):
            files[f"pkg/s{s}/m{m}.py"] = ""
    files["pkg/src/m7.py"] += f"import pkg.s{SUBPACKAGES - 1}.m3\n"
    project.write(files)
    return [f"pkg.s{s}.m{m}" for s in range(SUBPACKAGES) for m in range(MODULES)]


def configure(project, forbidden: list[str]) -> None:
    entries = "".join(f'    "{module}",\n' for module in forbidden)
    project.write(
        {
            "contracts.toml": 'root_packages = ["pkg"]\ncache_dir = false\n\n[[contracts]]\n'
            'id = "no-others"\nname = "no-others"\ntype = "forbidden"\n'
            'source_modules = ["pkg.src"]\nallow_indirect_imports = true\n'
            f"forbidden_modules = [\n{entries}]\n"
        }
    )


def test_ten_thousand_forbidden_modules_report_what_a_handful_reports(project):
    forbidden = write_package(project)
    assert len(forbidden) == 10_000
    configure(project, ["pkg.s0.m0", "pkg.s50.m50", "pkg.s99.m3", "pkg.s99.m99"])
    handful = project.check()
    configure(project, forbidden)
    started = time.monotonic()
    every = project.check()
    took = time.monotonic() - started
    assert handful.returncode == every.returncode == 1, every.stderr
    assert "LY001 pkg.src.m7 imports pkg.s99.m3" in every.stdout
    assert (every.stdout, every.stderr) == (handful.stdout, handful.stderr)
    assert took < 60, f"{took:.1f} s for {len(forbidden)} forbidden modules"
