"""A forbidden contract of 50,000 modules gives the report a handful of them gives, through the
real CLI: its modules are found through an index, not by trying every entry on every import.
The time budget is generous; it only guards against time that grows with the list's square.
"""

from __future__ import annotations

import time

SUBPACKAGES, MODULES = 500, 100
"""pkg.s1 ... pkg.s499 hold the 49,900 forbidden modules; pkg.s0 is the source."""
IMPORTS = 40
"""What each module of the source imports of its own subpackage: checked against every
forbidden module, to no avail."""


def write_package(project) -> list[str]:
    """The package, one import from the source to a forbidden module; every forbidden module."""
    files = {"pkg/__init__.py": ""}
    for s in range(SUBPACKAGES):
        files[f"pkg/s{s}/__init__.py"] = ""
        for m in range(MODULES):
            imports = [f"import pkg.s0.m{(m + i) % MODULES}\n" for i in range(1, IMPORTS + 1)]
            files[f"pkg/s{s}/m{m}.py"] = "".join(imports) if s == 0 else ""
    files["pkg/s0/m7.py"] += f"import pkg.s{SUBPACKAGES - 1}.m3\n"
    project.write(files)
    return [f"pkg.s{s}.m{m}" for s in range(1, SUBPACKAGES) for m in range(MODULES)]


def configure(project, forbidden: list[str]) -> None:
    entries = "".join(f'    "{module}",\n' for module in forbidden)
    project.write(
        {
            "contracts.toml": 'root_packages = ["pkg"]\ncache_dir = false\n\n[[contracts]]\n'
            'id = "no-others"\nname = "no-others"\ntype = "forbidden"\n'
            'source_modules = ["pkg.s0"]\nallow_indirect_imports = true\n'
            f"forbidden_modules = [\n{entries}]\n"
        }
    )


def test_fifty_thousand_forbidden_modules_report_what_a_handful_reports(project):
    forbidden = write_package(project)
    assert len(forbidden) > 49_000
    configure(project, ["pkg.s1.m0", "pkg.s250.m50", "pkg.s499.m3", "pkg.s499.m99"])
    handful = project.check()
    configure(project, forbidden)
    started = time.monotonic()
    every = project.check()
    took = time.monotonic() - started
    assert handful.returncode == every.returncode == 1, every.stderr
    assert "LY001 pkg.s0.m7 imports pkg.s499.m3" in every.stdout
    assert (every.stdout, every.stderr) == (handful.stdout, handful.stderr)
    assert took < 60, f"{took:.1f} s for {len(forbidden)} forbidden modules"
