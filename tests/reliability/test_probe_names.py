"""Module names a probe would hand to a child interpreter, read from the configuration: one that is
not a dotted Python name is a located configuration error (exit 2) before any child starts, never
a traceback; nothing of it runs."""

from __future__ import annotations

import pytest
from reliability_support import HEADER, PACKAGE

INJECTED = "os;open('ran','w')"


def probe(modules: str, forbidden: str) -> str:
    return f"""
[[contracts]]
id = "p"
type = "probe"
modules = {modules}
forbidden = {forbidden}
"""


@pytest.mark.parametrize("option", ["modules", "forbidden"])
def test_text_that_is_not_a_module_name_is_a_located_configuration_error(run, project, option):
    names = {"modules": '["app.a"]', "forbidden": '["json"]'}
    names[option] = f'[\n  "app.b",\n  "{INJECTED}",\n]'
    config = HEADER + probe(names["modules"], names["forbidden"])
    result = run({**PACKAGE, "contracts.toml": config})
    line = next(number for number, text in enumerate(config.splitlines(), 1) if INJECTED in text)
    assert result.code == 2, result
    assert result.err.startswith(
        f"contracts.toml:{line}: error: contract 'probe #1': '{INJECTED}' in '{option}' is not a "
        "dotted module name"
    ), result
    assert "hint: write the module's name as an import statement names it" in result.err
    assert not (project.root / "ran").exists()


DJANGO_STYLE = {
    **PACKAGE,
    "src/app/migrations/__init__.py": "",
    "src/app/migrations/0001_initial.py": "import json\n",
}


def test_a_wildcard_that_matches_a_file_no_import_can_name_is_refused(run):
    result = run({**DJANGO_STYLE, "contracts.toml": HEADER + probe('["app.**"]', '["json"]')})
    assert result.code == 2, result
    assert (
        "contracts.toml:7: error: contract 'probe #1': 'app.**' in 'modules' matches "
        "app.migrations.0001_initial, "
        "whose name is not a dotted Python name, so no probe can import it"
    ) in result.err, result


def test_a_forbidden_wildcard_controls_with_a_module_a_probe_can_name(run):
    files = {**DJANGO_STYLE, "src/app/migrations/helpers.py": ""}
    result = run({**files, "contracts.toml": HEADER + probe('["app.a"]', '["app.migrations.*"]')})
    assert result.code == 0, result
    assert "probe #1 [p] KEPT" in result.out, result


def test_a_forbidden_wildcard_with_no_module_a_probe_can_name_is_refused(run):
    result = run(
        {**DJANGO_STYLE, "contracts.toml": HEADER + probe('["app.a"]', '["app.migrations.*"]')}
    )
    assert result.code == 2, result
    assert (
        "contracts.toml:8: error: contract 'probe #1': 'app.migrations.*' in 'forbidden' matches "
        "only modules" in result.err
    ), result
