"""`layering graph` builds the import graph once: the contracts are decided on the graph it
draws. Counted at the graph port (`GraphSource.build`), cold and warm, with the cache and
without; and a contract that takes ignored imports out of its graph leaves the drawing whole.
"""

from __future__ import annotations

import pytest

from layering.commands.graph import draw_graph
from layering.domain.results import Verdict
from layering.engine import ports
from layering.engine.config import load_settings

PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/api/__init__.py": "",
    "src/app/api/views.py": "import app.core.models\nimport requests\n",
    "src/app/core/__init__.py": "",
    "src/app/core/models.py": "import app.util.text\n",
    "src/app/util/__init__.py": "",
    "src/app/util/text.py": "import app.api.views\n",
}

CONTRACTS = """
[[contracts]]
id = "util-no-api"
name = "util-no-api"
type = "forbidden"
source_modules = ["app.util"]
forbidden_modules = ["app.api"]

[[contracts]]
id = "core-no-api"
name = "core-no-api"
type = "forbidden"
source_modules = ["app.core"]
forbidden_modules = ["app.api"]
ignore_imports = ["app.util.text -> app.api.views"]
"""


@pytest.fixture
def builds(monkeypatch) -> list[ports.GraphRequest]:
    """The requests the graph port is asked to build, in order."""
    asked: list[ports.GraphRequest] = []
    build = ports.GrimpGraphSource.build

    def counted(source: ports.GrimpGraphSource, request: ports.GraphRequest):
        asked.append(request)
        return build(source, request)

    monkeypatch.setattr(ports.GrimpGraphSource, "build", counted)
    return asked


def settings_of(tmp_path, cache_dir: str):
    for name, text in PACKAGE.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    config = tmp_path / "contracts.toml"
    config.write_text(
        f'root_packages = ["app"]\nsource_roots = ["src"]\ncache_dir = {cache_dir}\n' + CONTRACTS,
        encoding="utf-8",
    )
    return load_settings(str(config))


@pytest.mark.parametrize("cache_dir", ["false", '".layering_cache"'])
def test_the_contracts_and_the_drawing_share_one_build(tmp_path, builds, cache_dir):
    settings = settings_of(tmp_path, cache_dir)
    for run in ("cold", "warm"):
        builds.clear()
        drawn = draw_graph(settings, None, 3)
        assert len(builds) == 1, run
        assert builds[0].include_external_packages and builds[0].reach is None
        verdicts = {r.contract_id: r.verdict for r in drawn.report.results}
        assert verdicts == {"util-no-api": Verdict.BROKEN, "core-no-api": Verdict.KEPT}


def test_an_import_a_contract_ignores_is_still_drawn(tmp_path, builds):
    settings = settings_of(tmp_path, "false")
    checked = draw_graph(settings, None, 3)
    alone = draw_graph(settings, None, 3, contracts=False)
    edges = [(e.importer, e.imported, e.imports) for e in checked.graph.edges]
    assert edges == [(e.importer, e.imported, e.imports) for e in alone.graph.edges]
    assert ("app.util.text", "app.api.views", 1) in edges
    assert [n.name for n in checked.graph.nodes] == [n.name for n in alone.graph.nodes]
    assert len(builds) == 2
