"""`layering` leaves without tearing the interpreter down once its output is out, except while
a profiler watches it: `python -m cProfile -o FILE -m layering check` must still write FILE,
with the run's own functions in it."""

from __future__ import annotations

import pstats
import subprocess
import sys

from report_support import SHOP, shop_config, write_files


def test_a_profiled_run_writes_its_profile(tmp_path):
    root = write_files(tmp_path, {**SHOP, "contracts.toml": shop_config(["layers"])})
    profile = tmp_path / "run.prof"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "cProfile",
            "-o",
            str(profile),
            "-m",
            "layering",
            "check",
            "--no-probe",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "Contracts: 0 kept, 1 broken." in run.stdout, (
        run.stdout + run.stderr
    )  # cProfile exits 0 whatever the run said
    functions = {name for _, _, name in pstats.Stats(str(profile)).stats}
    assert "check_settings" in functions


def test_an_unwatched_run_prints_all_of_its_report(tmp_path):
    root = write_files(tmp_path, {**SHOP, "contracts.toml": shop_config(["layers"])})
    run = subprocess.run(
        [sys.executable, "-m", "layering", "check", "--no-probe"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 1, run.stderr
    assert run.stdout.rstrip().endswith("Contracts: 0 kept, 1 broken."), run.stdout
