"""Output to pipes and terminals: a closed pipe ends the run quietly; colour and cursor codes
only on a terminal, and no colour when NO_COLOR is set."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from reliability_support import HEADER, forbidden

ESCAPE = re.compile(rb"\x1b\[[0-9;]*[A-Za-z]")
COLOUR = re.compile(rb"\x1b\[[0-9;]*m")


def broken_tree(imports: int) -> dict[str, str]:
    return {
        "src/app/__init__.py": "",
        "src/app/a.py": "import json\n",
        "src/app/b.py": "".join(f"from app import a as a{i}\n" for i in range(imports)),
        "contracts.toml": HEADER + forbidden("app.b", "app.a", indirect=True),
    }


def env_without_colour_settings() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}


def test_closed_pipe_ends_the_run_quietly(project):
    project.write(broken_tree(5000))  # far more output than a pipe buffer holds
    command = f'{sys.executable} -m layering check | head -2; echo "status=${{PIPESTATUS[0]}}" >&2'
    result = subprocess.run(
        ["bash", "-c", command],
        cwd=project.root,
        capture_output=True,
        text=True,
        timeout=120,
        env=env_without_colour_settings(),
    )
    assert result.stdout == "Configuration: contracts.toml\nforbidden #1 [f] BROKEN\n"
    status = re.search(r"status=(\d+)", result.stderr)
    assert status and int(status.group(1)) in (0, 1), result.stderr
    assert result.stderr.strip() == status.group(0), (
        result.stderr
    )  # nothing else: no traceback, no "Exception ignored"


def test_pipes_get_no_escape_codes(project):
    project.write(broken_tree(3))
    for args in ((), ("--no-probe",), ("--config", "missing.toml")):
        result = subprocess.run(
            [sys.executable, "-m", "layering", "check", *args],
            cwd=project.root,
            capture_output=True,
            timeout=120,
            env={**env_without_colour_settings(), "TERM": "xterm-256color"},
        )
        assert result.returncode in (1, 2)
        assert b"\x1b" not in result.stdout + result.stderr, result


def run_in_terminal(cwd, env: dict[str, str], *args: str) -> tuple[int, bytes]:
    """Run `layering check` with stdin, stdout and stderr on a pseudo-terminal.

    `subprocess` starts the child (fork and exec in one step, safe in a threaded pytest), with
    the terminal's far end as all three streams and as its controlling terminal.
    """
    pty = pytest.importorskip("pty")
    controller, terminal = pty.openpty()
    child = subprocess.Popen(
        [sys.executable, "-m", "layering", "check", *args],
        cwd=cwd,
        env=env,
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        start_new_session=True,
    )
    os.close(terminal)
    output = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        output += chunk
    code = child.wait(timeout=60)
    os.close(controller)
    return code, output


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_terminal_gets_colour(project):
    project.write(broken_tree(1))
    code, output = run_in_terminal(
        project.root, {**env_without_colour_settings(), "TERM": "xterm"}
    )
    assert code == 1
    assert COLOUR.search(output), output


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
@pytest.mark.parametrize(
    "setting", [{"NO_COLOR": "1"}, {"NO_COLOR": "anything"}, {"TERM": "dumb"}]
)
def test_no_color_and_dumb_terminal_get_no_colour(project, setting):
    project.write(broken_tree(1))
    code, output = run_in_terminal(
        project.root, {**env_without_colour_settings(), "TERM": "xterm", **setting}, "--no-probe"
    )
    assert code == 1
    assert b"BROKEN" in output
    assert not COLOUR.search(output), output


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_no_color_terminal_gets_no_escape_codes_at_all(project):
    project.write(broken_tree(1))
    code, output = run_in_terminal(
        project.root,
        {**env_without_colour_settings(), "TERM": "xterm", "NO_COLOR": "1"},
        "--no-probe",
    )
    assert code == 1
    assert not ESCAPE.search(output), output
