"""`layering lsp`: a real language server process over stdio, driven by pytest-lsp's client.

Each test starts `python -m layering lsp` in a small package made in tmp_path, initializes it
with that directory as the workspace root, and reads what it publishes.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from frontdoors_support import write_project

pytest.importorskip("pytest_lsp")

import pytest_asyncio  # noqa: E402
from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402

CONTRACTS = """
root_packages = ["app"]
source_roots = ["src"]

[[contracts]]
id = "no-infra"
name = "The domain does not import infra"
type = "forbidden"
source_modules = ["app.domain"]
forbidden_modules = ["app.infra"]

[[contracts]]
id = "leaf-util"
name = "util is a leaf"
type = "leaf"
modules = ["app.util"]
within = ["app"]
severity = "warn"
"""

PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/infra.py": "",
    "src/app/util.py": "import json\n\nfrom app import infra\n",
    "src/app/domain.py": '"""The domain."""\n\nimport os\nfrom app.infra import thing\n',
}

WAIT = 60.0


async def _wait_for(condition: Callable[[], object], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def _start(root: Path) -> LanguageClient:
    config = ClientServerConfig(server_command=[sys.executable, "-m", "layering", "lsp"])
    client = config.client_factory()
    await client.start_io(*config.server_command, cwd=str(root))
    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=root.as_uri(),
        )
    )
    return client


@pytest_asyncio.fixture
async def session(tmp_path: Path) -> AsyncIterator[tuple[LanguageClient, Path]]:
    root = write_project(tmp_path / "project", PACKAGE, CONTRACTS)
    client = await _start(root)
    yield client, root
    await client.shutdown_session()
    await client.stop()


def _lines(
    diagnostics,
) -> list[tuple[int, int, str | int | None, types.DiagnosticSeverity | None]]:
    return [
        (d.range.start.line, d.range.end.line, d.code, d.severity)
        for d in sorted(diagnostics, key=lambda d: d.range.start.line)
    ]


@pytest.mark.asyncio
async def test_findings_arrive_on_their_lines_and_leave_once_fixed(session):
    client, root = session
    domain = (root / "src/app/domain.py").as_uri()
    util = (root / "src/app/util.py").as_uri()
    await _wait_for(
        lambda: domain in client.diagnostics and util in client.diagnostics, "findings"
    )

    # `from app.infra import thing` is line 4 of domain.py: LSP line 3, the whole line.
    assert _lines(client.diagnostics[domain]) == [(3, 4, "LY001", types.DiagnosticSeverity.Error)]
    found = client.diagnostics[domain][0]
    assert found.source == "layering"
    assert found.range.start.character == 0 and found.range.end.character == 0
    assert "app.domain imports app.infra (thing)" in found.message
    assert "contract: The domain does not import infra [no-infra] (LY001)" in found.message
    # A contract with severity = "warn" gives warnings.
    assert _lines(client.diagnostics[util]) == [(2, 3, "LY003", types.DiagnosticSeverity.Warning)]
    assert set(client.diagnostics) == {domain, util}

    (root / "src/app/domain.py").write_text('"""The domain."""\n\nimport os\n', encoding="utf-8")
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=domain))
    )
    await _wait_for(lambda: list(client.diagnostics[domain]) == [], "the fixed file's empty list")
    assert _lines(client.diagnostics[util]) == [(2, 3, "LY003", types.DiagnosticSeverity.Warning)]


@pytest.mark.asyncio
async def test_a_new_finding_after_a_save(session):
    client, root = session
    domain = (root / "src/app/domain.py").as_uri()
    await _wait_for(lambda: domain in client.diagnostics, "findings")
    # An import added above the old one: both are found, each on its own line.
    (root / "src/app/domain.py").write_text(
        "import app.infra\n" + (root / "src/app/domain.py").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=domain))
    )
    await _wait_for(lambda: len(client.diagnostics[domain]) == 2, "two findings")
    assert [line for line, *_ in _lines(client.diagnostics[domain])] == [0, 4]


@pytest.mark.asyncio
async def test_a_configuration_error_is_a_diagnostic_on_its_line(session):
    client, root = session
    domain = (root / "src/app/domain.py").as_uri()
    contracts = root / "contracts.toml"
    await _wait_for(lambda: domain in client.diagnostics, "findings")

    text = contracts.read_text(encoding="utf-8")
    contracts.write_text(
        text.replace('forbidden_modules = ["app.infra"]', 'forbiden_modules = ["app.infra"]'),
        encoding="utf-8",
    )
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=contracts.as_uri())
        )
    )
    await _wait_for(lambda: contracts.as_uri() in client.diagnostics, "the configuration's error")
    said = client.diagnostics[contracts.as_uri()]
    lines = text.splitlines()
    table = lines.index('type = "forbidden"')  # where a missing option is said
    option = lines.index('forbidden_modules = ["app.infra"]')
    assert [d.range.start.line for d in said] == [table, option]
    assert "missing required option 'forbidden_modules'" in said[0].message
    assert (
        "unrecognized option 'forbiden_modules'. Did you mean 'forbidden_modules'?"
        in said[1].message
    )
    assert "\nhint: options of 'forbidden': allow," in said[1].message
    assert {(d.source, d.severity) for d in said} == {("layering", types.DiagnosticSeverity.Error)}
    # The findings of the last run are withdrawn, and the editor is told once.
    assert list(client.diagnostics[domain]) == []
    await _wait_for(lambda: client.messages, "window/showMessage")
    assert len(client.messages) == 1
    assert "configuration error: contracts.toml:" in client.messages[0].message

    # Saved again, still broken: no second message. Fixed: the findings come back.
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=contracts.as_uri())
        )
    )
    contracts.write_text(text, encoding="utf-8")
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=contracts.as_uri())
        )
    )
    await _wait_for(
        lambda: list(client.diagnostics[contracts.as_uri()]) == [], "the error withdrawn"
    )
    await _wait_for(lambda: client.diagnostics[domain], "the findings again")
    assert len(client.messages) == 1


@pytest.mark.asyncio
async def test_the_configuration_is_found_from_the_workspace_root(tmp_path):
    """Started elsewhere (an editor's working directory is its own), the server reads the
    configuration of the root the client names."""
    root = write_project(tmp_path / "project", PACKAGE, CONTRACTS)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    config = ClientServerConfig(server_command=[sys.executable, "-m", "layering", "lsp"])
    client = config.client_factory()
    await client.start_io(*config.server_command, cwd=str(elsewhere))
    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("neovim"),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="project")],
        )
    )
    try:
        domain = (root / "src/app/domain.py").as_uri()
        await _wait_for(lambda: domain in client.diagnostics, "findings")
        assert _lines(client.diagnostics[domain]) == [
            (3, 4, "LY001", types.DiagnosticSeverity.Error)
        ]
    finally:
        await client.shutdown_session()
        await client.stop()


@pytest.mark.asyncio
async def test_an_import_that_breaks_several_pairs_is_one_diagnostic(tmp_path):
    """app.c -> app.x is the one import to remove for both pairs (c -> a, c -> b): one
    diagnostic on it that says both, as the text report says it once."""
    root = write_project(
        tmp_path / "project",
        {
            "src/app/__init__.py": "",
            "src/app/a.py": "",
            "src/app/b.py": "",
            "src/app/c.py": '"""c."""\nfrom app import x\n',
            "src/app/x.py": "import app.a\nimport app.b\nimport app.m\nimport app.n\n",
            "src/app/m.py": "import app.a\n",
            "src/app/n.py": "import app.b\n",
        },
        """
        root_packages = ["app"]
        source_roots = ["src"]

        [[contracts]]
        id = "stack"
        name = "a over b over c"
        type = "layers"
        layers = ["app.a", "app.b", "app.c"]
        """,
    )
    client = await _start(root)
    try:
        c = (root / "src/app/c.py").as_uri()
        await _wait_for(lambda: c in client.diagnostics, "findings")
        assert _lines(client.diagnostics[c]) == [(1, 2, "LY011", types.DiagnosticSeverity.Error)]
        assert client.diagnostics[c][0].message.splitlines() == [
            "app.c imports app.x",
            "breaks 2 pairs: app.c -> app.a, app.c -> app.b",
            "chain: app.c -> app.x -> app.a",
            "contract: a over b over c [stack] (LY011)",
        ]
        assert set(client.diagnostics) == {c}
    finally:
        await client.shutdown_session()
        await client.stop()


@pytest.mark.asyncio
async def test_a_project_without_a_configuration_is_said_in_the_log_only(tmp_path):
    """An editor may start the server in every Python project: where no configuration is found
    from the root up, nothing is published and no message pops up; the log says why."""
    root = write_project(tmp_path / "project", PACKAGE, None)
    client = await _start(root)
    try:
        await _wait_for(
            lambda: any("no configuration" in m.message for m in client.log_messages),
            "the log's line",
        )
        said = [m for m in client.log_messages if "no configuration" in m.message]
        assert said[0].type is types.MessageType.Warning
        assert said[0].message.startswith(
            "layering: configuration error: project: no configuration"
        )
        assert client.diagnostics == {} and client.messages == []
    finally:
        await client.shutdown_session()
        await client.stop()


@pytest.mark.asyncio
async def test_probe_contracts_are_not_run(tmp_path):
    """A save must not run the project's code: a configuration of probe contracts only has
    nothing for the server to check, which the log says (no error on the configuration)."""
    root = write_project(
        tmp_path / "project",
        {**PACKAGE, "src/app/infra.py": "import json\n"},  # run, the probe breaks
        """
        root_packages = ["app"]
        source_roots = ["src"]

        [[contracts]]
        id = "no-json"
        name = "app.infra loads no json"
        type = "probe"
        modules = ["app.infra"]
        forbidden = ["json"]
        """,
    )
    client = await _start(root)
    try:
        await _wait_for(
            lambda: any("nothing to check" in m.message for m in client.log_messages),
            "the log's line",
        )
        assert client.diagnostics == {} and client.messages == []
    finally:
        await client.shutdown_session()
        await client.stop()


def test_saves_during_a_run_make_one_more_run_never_two_at_once():
    from layering.lsp import Runs

    started = threading.Event()
    release = threading.Event()
    log: list[str] = []

    def run() -> None:
        log.append("start")
        started.set()
        release.wait(10)
        log.append("end")

    runs = Runs(run, debounce=0.01)
    runs.request()
    assert started.wait(10)
    for _ in range(5):  # five saves while the first run decides
        runs.request()
    release.set()
    deadline = time.monotonic() + 10
    while log.count("end") < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.2)
    assert log == ["start", "end", "start", "end"]


def test_without_pygls_it_says_what_to_install(tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; sys.modules['pygls'] = None; sys.argv = ['layering', 'lsp']; "
            "from layering.cli import run; run()",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == "layering: error: layering lsp needs pygls: install layering[lsp]\n"
