"""Every mistake on the command line is one line on stderr that names the argument, exit 2:
never a traceback, never a usage block to read past, never said under the configuration's path
(the configuration is not what is wrong)."""

from __future__ import annotations

from pathlib import Path

import pytest
from frontdoors_support import KEPT, run_cli, write_project

MISTAKES = [
    (("src/app/a.py",), "argument PATH: src/app/a.py is Python source, not a configuration"),
    (("--config", "src/app/a.py"), "argument --config: src/app/a.py is Python source"),
    (("nope.toml",), "argument PATH: nope.toml does not exist"),
    (("src",), "argument PATH: src is a directory: name the configuration file in it"),
    (
        ("--contract", "src/app/a.py"),
        "argument --contract: 'src/app/a.py' names no contract of contracts.toml.",
    ),
    (("--contract", "nope"), "argument --contract: 'nope' names no contract of contracts.toml."),
    (("--chains", "x"), "argument --chains: takes a number of chains or 'all'"),
    (("--jobs", "x"), "argument --jobs: invalid int value: 'x'"),
]


@pytest.mark.parametrize(("arguments", "said"), MISTAKES, ids=[" ".join(a) for a, _ in MISTAKES])
def test_an_argument_mistake_is_one_line_naming_the_argument(
    tmp_path: Path, arguments: tuple[str, ...], said: str
) -> None:
    project = write_project(tmp_path / "project", KEPT)
    run = run_cli(project, *arguments)
    assert run.returncode == 2, run.stdout + run.stderr
    assert run.stdout == ""
    assert run.stderr.count("\n") == 1 and run.stderr.endswith("\n"), run.stderr
    assert run.stderr.startswith("layering"), run.stderr
    assert said in run.stderr, run.stderr
    assert "Traceback" not in run.stderr and "contracts.toml:" not in run.stderr
