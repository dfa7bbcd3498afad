"""`layering check` takes `lint-imports`' command line, so that a CI line changes only its
program name: several configuration files in one run (positional or `--config` more than once),
`--contract` (with `PATH:ID`), `--cache-dir`, `--no-cache`, `--verbose`, `--show-timings`,
`--debug` and `--no-logo`; the exit code is `lint-imports`' for every verdict."""

from __future__ import annotations

import pytest
from importlinter_configs import COMPARES_COMMAND_LINE, LINT_IMPORTS, SHOP, write_config

FORBIDDEN = (
    "no-infra",
    {
        "name": "Domain without infra",
        "type": "forbidden",
        "source_modules": "shop.domain",
        "forbidden_modules": "shop.infra",
    },
)
INDEPENDENT = (
    "gui-apart",
    {"name": "GUI apart", "type": "independence", "modules": ["shop.gui", "shop.plugins"]},
)


@pytest.fixture
def two_files(project, tmp_path):
    """One configuration with a broken contract, one with a kept one, in files of their own."""
    project.write(SHOP)
    (tmp_path / "broken").mkdir()
    (tmp_path / "kept").mkdir()
    write_config(tmp_path / "broken", ".importlinter", {"root_package": "shop"}, [FORBIDDEN])
    write_config(tmp_path / "kept", ".importlinter", {"root_package": "shop"}, [INDEPENDENT])
    return "broken/.importlinter", "kept/.importlinter"


def _lint_imports(tmp_path, *args):
    import subprocess

    return subprocess.run(
        [LINT_IMPORTS, "--no-logo", *args], cwd=tmp_path, capture_output=True, text=True
    )


@pytest.mark.parametrize("how", ["positional", "--config"])
def test_several_configurations_are_checked_in_one_run(project, tmp_path, two_files, how):
    broken, kept = two_files
    arguments = [broken, kept] if how == "positional" else ["--config", broken, "--config", kept]
    theirs = _lint_imports(tmp_path, "--no-cache", broken, kept)
    ours = project.check("--no-cache", *arguments)
    assert ours.returncode == 1, ours.stdout + ours.stderr
    assert theirs.returncode == 1 or not COMPARES_COMMAND_LINE, theirs.stdout + theirs.stderr
    first, second = ours.stdout.split("\n\nConfiguration: ")
    assert first.startswith(
        "Configuration: broken/.importlinter\nDomain without infra [no-infra] BROKEN\n"
    )
    assert first.endswith("\nContracts: 0 kept, 1 broken.")  # each report as it would be alone
    assert second == (
        "kept/.importlinter\nGUI apart [gui-apart] KEPT\n\nContracts: 1 kept, 0 broken.\n"
    )
    assert ours.stdout.index("broken/.importlinter") < ours.stdout.index("kept/.importlinter")
    only_kept = project.check("--no-cache", kept, kept)  # a file named twice is checked once
    assert only_kept.returncode == 0 and only_kept.stdout.count("Configuration: ") == 1


def test_contract_picks_contracts_across_the_files(project, tmp_path, two_files):
    broken, kept = two_files
    ours = project.check("--no-cache", broken, kept, "--contract", "gui-apart")
    theirs = _lint_imports(tmp_path, "--no-cache", broken, kept, "--contract", "gui-apart")
    assert ours.returncode == 0, ours.stdout + ours.stderr
    assert theirs.returncode == 0 or not COMPARES_COMMAND_LINE, theirs.stdout + theirs.stderr
    assert (
        ours.stdout.count("Configuration: ") == 1 and "GUI apart [gui-apart] KEPT" in ours.stdout
    )
    qualified = project.check("--no-cache", broken, kept, "--contract", f"{broken}:no-infra")
    assert qualified.returncode == 1 and "Configuration: broken/.importlinter" in qualified.stdout
    unknown = project.check("--no-cache", broken, kept, "--contract", "nope")
    assert unknown.returncode == 2 and unknown.stderr == (
        "layering: error: argument --contract: 'nope' names no contract of the 2 configurations\n"
    )


def test_lint_imports_options_are_accepted(project, tmp_path, two_files):
    broken, _ = two_files
    options = ("--verbose", "--show-timings", "--debug", "--no-logo")
    theirs = _lint_imports(tmp_path, *options, "--cache-dir", "ilcache", broken)
    ours = project.check(*options, "--cache-dir", "lycache", broken)
    assert ours.returncode == 1, ours.stdout + ours.stderr
    assert theirs.returncode == 1 or not COMPARES_COMMAND_LINE, theirs.stdout + theirs.stderr
    assert "Domain without infra [no-infra] BROKEN" in ours.stdout
    assert "layering: checking broken/.importlinter\n" in ours.stderr
    assert "layering: broken/.importlinter: 1 contract checked in " in ours.stderr
    assert (tmp_path / "lycache").is_dir() and not (
        tmp_path / "broken" / ".layering_cache"
    ).exists()
    uncached = project.check("--no-cache", "--cache-dir", "other", broken)
    assert uncached.returncode == 1 and not (tmp_path / "other").exists()  # --no-cache wins


def test_a_machine_format_takes_one_configuration(project, tmp_path, two_files):
    result = project.check("--format", "json", *two_files)
    assert result.returncode == 2
    assert result.stderr == (
        "layering: error: argument --format: json reports one configuration: check each of the 2 "
        "in a run of its own\n"
    )
