"""The in-memory fakes stand for the disk: the same package, written to disk and held in memory,
gives the same graph (grimp's own against the fake's) and the same evidence."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fakes import HEADER, SOURCE_ROOT, InMemoryPackage, decide, settings

from layering.domain.errors import SourceUnreadable
from layering.domain.results import Verdict
from layering.engine.config import settings_from_text
from layering.engine.evidence import Evidence
from layering.engine.plan import RunPlan

PACKAGE = {
    "pkg/__init__.py": """
        from . import a
        from .a import value
        from pkg import *
    """,
    "pkg/a.py": """
        import os.path
        import pkg.b.deep.missing
        from json import loads as load_json
        from typing import TYPE_CHECKING
        from pkg import (
            b,
            helper,
        )
        value = 1
        if TYPE_CHECKING:
            import pkg.c
        def later():
            import pkg.c.inner
            return pkg.c.inner.thing
    """,
    "pkg/b/__init__.py": """
        from .. import a
        from ..c import inner
        from . import nothing_here
        try:
            import yaml
        except ImportError:
            yaml = None
    """,
    "pkg/b/deep.py": "import pkg.b\n",
    "pkg/c/__init__.py": "",
    "pkg/c/inner.py": """
        import pkg.c.inner
        from pkg.b import deep
        thing = deep
    """,
    "pkg/helper.py": "",
}


def _write(root: Path) -> None:
    for name, text in InMemoryPackage(PACKAGE).relative.items():
        path = root / "src" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _edges(graph: Any) -> set[tuple[str, str, int, str]]:
    return {
        (d["importer"], d["imported"], d["line_number"], d["line_contents"])
        for importer in graph.modules
        for imported in graph.find_modules_directly_imported_by(importer)
        for d in graph.get_import_details(importer=importer, imported=imported)
    }


@pytest.mark.parametrize("externals", [False, True])
@pytest.mark.parametrize("type_checking", [False, True])
def test_the_fake_graph_is_grimps_graph(
    tmp_path: Path, externals: bool, type_checking: bool
) -> None:
    _write(tmp_path)
    options = (
        f"exclude_type_checking_imports = {str(type_checking).lower()}\n"
        f"include_external_packages = {str(externals).lower()}\n"
    )
    on_disk = settings_from_text(str(tmp_path / "contracts.toml"), HEADER + options)
    grimps = Evidence(on_disk, RunPlan(keeps_cache=False, include_external_packages=externals))
    package = InMemoryPackage(PACKAGE)
    fakes = package.evidence(
        settings(options), RunPlan(keeps_cache=False, include_external_packages=externals)
    )

    assert set(fakes.graph.modules) == set(grimps.graph.modules)
    assert _edges(fakes.graph) == _edges(grimps.graph)
    assert package.graphs.builds == 1


def test_the_in_memory_evidence_reads_what_the_disk_evidence_reads(tmp_path: Path) -> None:
    _write(tmp_path)
    on_disk = Evidence(
        settings_from_text(str(tmp_path / "contracts.toml"), HEADER), RunPlan(keeps_cache=False)
    )
    in_memory = InMemoryPackage(PACKAGE).evidence(settings(""))

    def relative(path: str, root: str) -> str:
        return path[len(root) :]

    assert {
        m: relative(p, str(tmp_path / "src")) for m, p in on_disk.package_files.files.items()
    } == {m: relative(p, SOURCE_ROOT) for m, p in in_memory.package_files.files.items()}
    for module in sorted(in_memory.modules):
        assert in_memory.facts_of(module) == on_disk.facts_of(module), module
        assert in_memory.executed_facts(module) == on_disk.executed_facts(module), module
        assert in_memory.name_uses_of(module) == on_disk.name_uses_of(module), module
        assert in_memory.defined_names(module) == on_disk.defined_names(module), module
        assert in_memory.descendants(module) == on_disk.descendants(module), module
    for importer, imported in [
        ("pkg.a", "pkg.b"),
        ("pkg.c.inner", "pkg.b.deep"),
        ("pkg", "pkg.a"),
    ]:
        assert in_memory.statements(importer, imported) == on_disk.statements(importer, imported)


def test_a_file_that_is_not_there_is_unreadable_as_on_disk() -> None:
    package = InMemoryPackage({"pkg/__init__.py": ""})
    del package.sources.texts[package.files.files["pkg"]]

    with pytest.raises(SourceUnreadable, match="cannot be read"):
        package.evidence(settings("")).facts_of("pkg")


CONTRACTS = """
    [[contracts]]
    type = "forbidden"
    source_modules = ["pkg.c"]
    forbidden_modules = ["pkg.a", "yaml"]

    [[contracts]]
    type = "loads"
    modules = ["pkg.b"]
    forbidden = ["yaml"]

    [[contracts]]
    type = "layers"
    layers = ["pkg.a", "pkg.b"]

    [[contracts]]
    type = "leaf"
    modules = ["pkg.a"]
    within = [{ module = "pkg.b", names = ["thing"] }]
    """


def test_deciding_over_the_fakes_reads_nothing_from_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    decide(InMemoryPackage(PACKAGE), CONTRACTS)  # the contract types' modules imported first
    reads: list[tuple[str, object]] = []
    for name in ("builtins.open", "os.scandir", "os.stat", "os.listdir"):
        monkeypatch.setattr(name, _recorded(name, reads))

    run = decide(InMemoryPackage(PACKAGE), CONTRACTS)

    monkeypatch.undo()
    assert reads == []
    assert [r.verdict for r in run.results] == [
        Verdict.BROKEN,
        Verdict.BROKEN,
        Verdict.BROKEN,
        Verdict.KEPT,
    ]
    assert run.evidence.graph_built


def _recorded(name: str, reads: list[tuple[str, object]]) -> Any:
    import builtins
    import os

    module, _, attribute = name.rpartition(".")
    real = getattr({"builtins": builtins, "os": os}[module], attribute)

    def recording(*args: Any, **kwargs: Any) -> Any:
        reads.append((name, args[0] if args else None))
        return real(*args, **kwargs)

    return recording
