"""The editor's front door: `layering lsp`, a language server over standard input and output.

Built on pygls (the `layering[lsp]` extra), and imported only by that command. After the
client's `initialized`, and after each `textDocument/didSave`, the server checks the static
contracts of the configuration found from the workspace root (as `layering check` finds it
from its working directory), with the cache, in a thread of its own, and publishes:

* each finding of a contract that is not kept as a diagnostic on its file's line (the whole
  line), Error, or Warning for a contract with `severity = "warn"`; `source` "layering", `code`
  the finding's LY code;
* an empty list for each file that had diagnostics and has none now;
* a configuration that cannot be used: its problems as diagnostics on the configuration's lines
  (the findings of the last run are withdrawn: they may no longer hold), and one
  `window/showMessage` until its problems change; no configuration from the root up (a
  project without contracts): a `window/logMessage` only.

Saves that come while a run decides are gathered into one more run after it (never two runs at
once): the diagnostics always end as the files on disk last stood. Probe contracts are left
out: they run the project's code, which an editor's save must not start.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from layering.domain.errors import ConfigError
from layering.domain.version import VERSION
from layering.reporting.diagnostics import (
    Diagnostic,
    error_diagnostics,
    error_summary,
    report_diagnostics,
)

DEBOUNCE = 0.05
"""Seconds of quiet after a save before a run starts (an editor's "save all" is many saves)."""


def file_uri(path: str) -> str:
    return Path(os.path.abspath(path)).as_uri()


class Runs:
    """One run at a time in a thread of its own: a request while one runs makes one more run
    after it, however many requests come."""

    def __init__(self, run: Callable[[], None], debounce: float = DEBOUNCE) -> None:
        self._run = run
        self._debounce = debounce
        self._wanted = threading.Condition()
        self._pending = False
        self._last_request = 0.0
        self._thread = threading.Thread(target=self._loop, name="layering-runs", daemon=True)
        self._thread.start()

    def request(self) -> None:
        with self._wanted:
            self._pending = True
            self._last_request = time.monotonic()
            self._wanted.notify()

    def _loop(self) -> None:
        while True:
            with self._wanted:
                while not self._pending:
                    self._wanted.wait()
                while (quiet := time.monotonic() - self._last_request) < self._debounce:
                    self._wanted.wait(self._debounce - quiet)
                self._pending = False
            self._run()


class LayeringServer(LanguageServer):
    """The server's state: where to look for the configuration, what was published."""

    def __init__(self) -> None:
        super().__init__("layering", VERSION)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.root = os.getcwd()
        self.published: set[str] = set()
        self.error_shown: tuple[Any, ...] | None = None
        self.runs: Runs | None = None

    def start_runs(self) -> None:
        self.loop = asyncio.get_running_loop()
        folders = self.workspace.folders
        root = self.workspace.root_path or next(
            (p for p in (_path_of(f.uri) for f in folders.values()) if p), None
        )
        if root:
            self.root = root
        self.runs = Runs(self.check)
        self.runs.request()

    # --- a run, in the runs' thread --------------------------------------------------------

    def check(self) -> None:
        from layering.commands.check import ProbeSelection, check_settings
        from layering.engine.config import locate_settings

        started = time.perf_counter()
        try:
            settings = locate_settings(None, start=self.root)
            report = check_settings(settings, probes=ProbeSelection.STATIC)
        except ConfigError as error:
            by_file = error_diagnostics(error)
            if _only_probes(error):
                by_file = {}
            self.publish(by_file)
            if not by_file:
                # No configuration from the root up (a project without contracts: an editor
                # may start the server for every Python project), or none but probe contracts:
                # nothing to show in the files, said in the log only.
                self.send(
                    self.window_log_message,
                    types.LogMessageParams(
                        type=types.MessageType.Warning,
                        message="layering: nothing to check: every contract is a probe contract, "
                        "which the language server does not run (layering check runs them)"
                        if _only_probes(error)
                        else error_summary(error),
                    ),
                )
                return
            problems = tuple(error.problems)
            if problems != self.error_shown:
                self.error_shown = problems
                self.send(self.window_show_message, _show(error_summary(error)))
            return
        except Exception as error:  # said to the editor; the server goes on
            self.send(
                self.window_show_message,
                types.ShowMessageParams(
                    type=types.MessageType.Error,
                    message=f"layering: the check could not be made: {type(error).__name__}: "
                    f"{error}",
                ),
            )
            return
        self.error_shown = None
        self.publish(report_diagnostics(report))
        for warning in report.warnings:
            self.send(
                self.window_log_message,
                types.LogMessageParams(type=types.MessageType.Warning, message=warning),
            )
        self.send(
            self.window_log_message,
            types.LogMessageParams(
                type=types.MessageType.Info,
                message=f"layering: {len(report.results)} "
                f"contract{'s' if len(report.results) != 1 else ''} "
                f"checked in {time.perf_counter() - started:.2f} s",
            ),
        )

    def publish(self, by_file: dict[str, list[Diagnostic]]) -> None:
        """Diagnostics for each file of `by_file`, and none for the files published before."""
        now = {file_uri(path): found for path, found in by_file.items()}
        for uri in sorted(self.published - set(now)):
            self.send(self.text_document_publish_diagnostics, _published(uri, []))
        for uri, found in now.items():
            self.send(self.text_document_publish_diagnostics, _published(uri, found))
        self.published = set(now)

    def send(self, notify: Callable[[Any], None], params: Any) -> None:
        """Send a notification from the runs' thread through the server's event loop."""
        if self.loop is None:
            notify(params)
        else:
            self.loop.call_soon_threadsafe(notify, params)


def _only_probes(error: ConfigError) -> bool:
    """Whether the configuration is refused only because a static run leaves out all of its
    contracts (every one a probe contract)."""
    return len(error.problems) == 1 and error.problems[0].message.startswith(
        "no static contract to check"
    )


def _path_of(uri: str) -> str | None:
    from pygls.uris import to_fs_path

    return to_fs_path(uri)


def _show(message: str) -> types.ShowMessageParams:
    return types.ShowMessageParams(type=types.MessageType.Error, message=message)


def _published(uri: str, found: list[Diagnostic]) -> types.PublishDiagnosticsParams:
    return types.PublishDiagnosticsParams(
        uri=uri, diagnostics=[_diagnostic(diagnostic) for diagnostic in found]
    )


def _diagnostic(diagnostic: Diagnostic) -> types.Diagnostic:
    line = max(diagnostic.line - 1, 0)
    return types.Diagnostic(
        range=types.Range(
            start=types.Position(line=line, character=0),
            end=types.Position(line=line + 1, character=0),
        ),
        message=diagnostic.message,
        severity=types.DiagnosticSeverity.Warning
        if diagnostic.warns
        else types.DiagnosticSeverity.Error,
        code=diagnostic.code,
        source="layering",
    )


def make_server() -> LayeringServer:
    server = LayeringServer()

    @server.feature(types.INITIALIZED)
    def initialized(ls: LayeringServer, params: types.InitializedParams) -> None:
        ls.start_runs()

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: LayeringServer, params: types.DidSaveTextDocumentParams) -> None:
        if ls.runs is not None:
            ls.runs.request()

    return server


def serve() -> int:
    """Serve over standard input and output until the client says exit."""
    make_server().start_io()
    return 0
