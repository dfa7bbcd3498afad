"""`layering lsp` after a save: the time from a `textDocument/didSave` notification to the
`textDocument/publishDiagnostics` that answers it, over a real exchange with the server on its
standard input and output (JSON-RPC with Content-Length framing, below).

The workspace is a copy of the corpus's Python files (`<scratch>/lsp/<corpus>/`) with workload
c's contracts as its `contracts.toml`; one untimed `layering check` warms its cache, and the
server's own first check follows `initialized`. Each round then saves a file that has
diagnostics, alternately with d1's body edit and as it was (imports unchanged both ways), and
sends `didSave`: the answer is the first `publishDiagnostics` for that file; the whole check is
done at the `window/logMessage` that follows its diagnostics ("... checked in ..."). Both times
include the server's debounce (50 ms of quiet after a save). The server's peak RSS over the
session comes from `wait4` when it exits.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import queue
import resource
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote, urlparse

from . import source_edits
from .env import Env
from .processes import log, one_line, run, tail
from .projects import copy_package, corpus_project, layering_config

LSP_CORPORA = ("django", "homeassistant")
TIMEOUT = 300.0  # seconds for any one answer (the first check of Home Assistant included)


class LspError(Exception):
    pass


class LspClient:
    """A minimal client: requests and notifications out, every message in on a reader thread,
    stamped with the time it was read."""

    def __init__(self, cmd: list[str], cwd: Path, env: dict):
        self.stderr = tempfile.TemporaryFile()
        self.floor_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # as `Run.floor_kb`
        self.proc = subprocess.Popen(
            cmd,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
        )
        self.inbox: queue.Queue[tuple[float, dict | None]] = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.proc.stdout
        while True:
            length = None
            while line := stream.readline():
                if not line.strip():
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            if not line or length is None:
                self.inbox.put((time.perf_counter(), None))
                return
            body = stream.read(length)
            self.inbox.put((time.perf_counter(), json.loads(body)))

    def send(self, message: dict) -> float:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return time.perf_counter()

    def notify(self, method: str, params: dict | None = None) -> float:
        return self.send({"method": method, "params": params or {}})

    def request(self, method: str, params: dict | None = None) -> dict:
        self.next_id += 1
        ident = self.next_id
        self.send({"id": ident, "method": method, "params": params or {}})
        return self.wait_for(lambda m: m.get("id") == ident and "method" not in m)[1]

    def wait_for(self, wanted: Callable[[dict], bool]) -> tuple[float, dict]:
        """The next message `wanted` accepts, and when it was read; requests from the server
        (registrations, progress) are answered with null on the way."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            try:
                stamp, message = self.inbox.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise LspError(f"no answer in {TIMEOUT:.0f} s") from None
            if message is None:
                raise LspError("the server closed its output")
            if "id" in message and "method" in message:
                self.send({"id": message["id"], "result": None})
            if wanted(message):
                return stamp, message
            if message.get("method") == "window/showMessage":
                raise LspError("the server says: " + message["params"]["message"])

    def close(self) -> int:
        """Shut the server down; its peak RSS (KiB)."""
        try:
            self.request("shutdown")
            self.notify("exit")
        except (LspError, OSError):
            self.proc.kill()
        killer = threading.Timer(30, self.proc.kill)
        killer.start()
        try:
            _, status, usage = os.wait4(self.proc.pid, 0)
        finally:
            killer.cancel()
        self.proc.returncode = os.waitstatus_to_exitcode(status)
        return int(usage.ru_maxrss)

    def stderr_tail(self) -> str:
        self.stderr.seek(0)
        return one_line(tail(self.stderr.read().decode("utf-8", "replace"), 6))


def is_publish(message: dict, uri: str | None = None) -> bool:
    return message.get("method") == "textDocument/publishDiagnostics" and (
        uri is None or message["params"]["uri"] == uri
    )


def check_done(message: dict) -> bool:
    return (
        message.get("method") == "window/logMessage"
        and " checked in " in (message["params"]["message"])
    )


@dataclasses.dataclass
class LspResult:
    answers: list[float] = dataclasses.field(default_factory=list)  # to the saved file's
    checks: list[float] = dataclasses.field(default_factory=list)  # to the check's end
    saved: str = ""
    diagnostics: int = 0  # of the saved file, in the last round
    files: int = 0  # with diagnostics, after the first check
    peak_kb: int | None = None
    peak_floor_kb: int = 0
    error: str | None = None


def saved_file(published: dict[str, int]) -> Path | None:
    """The first file (by path) with diagnostics and a function to edit."""
    for uri in sorted(u for u, count in published.items() if count):
        path = Path(unquote(urlparse(uri).path))
        if path.suffix == ".py":
            if source_edits.editable_function(ast.parse(path.read_bytes())):
                return path
    return None


def time_lsp(env: Env, corpus: str, cdir: Path, rounds: int) -> LspResult:
    project = copy_package(corpus_project(corpus, cdir), env.scratch / "lsp" / corpus)
    (project.root / "contracts.toml").write_text(layering_config(project, "c"))
    result = LspResult()
    if env.layering_install_error:
        result.error = "layering failed: " + env.layering_install_error
        return result
    warm = run([env.exe("layering"), "check"], project.root, env.env)
    if warm.rc not in (0, 1):
        result.error = f"layering check failed (exit {warm.rc}): " + one_line(tail(warm.err, 6))
        return result
    log(f"{corpus}: layering lsp, {rounds} saves")
    client = LspClient([env.exe("layering"), "lsp"], project.root, env.env)
    try:
        exchange(client, project.root, rounds, result)
    except (LspError, OSError) as error:
        result.error = f"layering lsp: {error}; stderr: {client.stderr_tail()}"
    finally:
        result.peak_kb, result.peak_floor_kb = client.close(), client.floor_kb
    if result.error:
        log("  " + result.error)
    else:
        ms = sorted(round(t * 1000) for t in result.answers)
        log(f"  answers (ms): {ms}, {result.diagnostics} diagnostics in {result.saved}")
    return result


def exchange(client: LspClient, root: Path, rounds: int, result: LspResult) -> None:
    uri = root.resolve().as_uri()
    client.request(
        "initialize",
        {
            "processId": os.getpid(),
            "rootUri": uri,
            "workspaceFolders": [{"uri": uri, "name": root.name}],
            "capabilities": {"textDocument": {"publishDiagnostics": {}}},
        },
    )
    client.notify("initialized")
    published: dict[str, int] = {}
    while True:  # the first check: its diagnostics, then its log line
        _, message = client.wait_for(lambda m: is_publish(m) or check_done(m))
        if check_done(message):
            break
        published[message["params"]["uri"]] = len(message["params"]["diagnostics"])
    result.files = sum(1 for count in published.values() if count)
    path = saved_file(published)
    if path is None:
        raise LspError("no file with diagnostics and a function to edit after the first check")
    result.saved = str(path.relative_to(root))
    original = path.read_bytes()
    source_edits.edit_function_body(path)
    edited = path.read_bytes()
    path.write_bytes(original)
    file_uri = path.resolve().as_uri()
    client.notify(
        "textDocument/didOpen",
        {
            "textDocument": {
                "uri": file_uri,
                "languageId": "python",
                "version": 1,
                "text": original.decode("utf-8", "replace"),
            }
        },
    )
    try:
        for r in range(rounds):
            path.write_bytes(edited if r % 2 == 0 else original)
            os.sync()
            sent = client.notify("textDocument/didSave", {"textDocument": {"uri": file_uri}})
            answered, message = client.wait_for(lambda m: is_publish(m, file_uri))
            result.diagnostics = len(message["params"]["diagnostics"])
            done, _ = client.wait_for(check_done)
            result.answers.append(answered - sent)
            result.checks.append(done - sent)
    finally:
        path.write_bytes(original)
