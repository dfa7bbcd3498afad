"""The probe contract end to end through the CLI, on real little packages in tmp_path."""

from __future__ import annotations

from pathlib import Path

import shutil

import pytest

REPO = Path(__file__).resolve().parents[2]


PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/clean.py": "import json\n",
    "src/app/entry.py": "import json\nfrom app import middle\n",
    "src/app/middle.py": "x = 1\nimport app.heavy\n",
    "src/app/heavy.py": "",
    "src/app/dynamic.py": 'import importlib\nname = "app." + "he" + "avy"\nimportlib.import_module(name)\n',
    "src/app/sub/__init__.py": "import app.heavy\n",
    "src/app/sub/leafmod.py": "",
    "src/app/broken.py": "raise RuntimeError('boom at import')\n",
    "src/app/hangs.py": "import time\nwhile True:\n    time.sleep(1)\n",
    "src/app/exits.py": "import os\nos._exit(3)\n",
    "src/app/floods.py": "import sys\nfor _ in range(20000):\n    print('{\"kind\": \"clean\"}' * 10)\n    sys.stderr.write('noise\\n')\nimport app.heavy\n",
    "src/app/uses_torch.py": "import torch\nfrom torch import nn\n\nclass Model(nn.Module):\n    pass\n",
}


def probe_config(modules, forbidden=("app.heavy",), extra: str = "") -> str:
    return (
        'root_packages = ["app"]\nsource_roots = ["src"]\n\n[[contracts]]\nid = "probe"\nname = "nothing loads heavy"\n'
        f'type = "probe"\nmodules = {list(modules)!r}\nforbidden = {list(forbidden)!r}\ntimeout = 5\n'.replace("'", '"')
        + extra
    )


def run(project, modules, forbidden=("app.heavy",), extra=""):
    project.write({**PACKAGE, "contracts.toml": probe_config(modules, forbidden, extra)})
    result = project.check()
    assert "Traceback (most recent call last)" not in result.stderr
    return result


def test_clean_module_keeps_the_contract(project):
    result = run(project, ["app.clean"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "nothing loads heavy [probe] KEPT" in result.stdout


def test_chain_of_two_module_level_imports_is_printed_with_both_lines(project):
    result = run(project, ["app.entry"])
    assert result.returncode == 1
    assert (
        "  src/app/entry.py:2: LY020 importing app.entry loads app.heavy\n"
        "    src/app/entry.py:2: app.entry -> app.middle\n"
        "    src/app/middle.py:2: app.middle -> app.heavy\n"
    ) in result.stdout


def test_load_through_the_parent_package_init_which_the_static_graph_does_not_show(project):
    result = run(project, ["app.sub.leafmod"])
    assert result.returncode == 1
    assert "  src/app/sub/__init__.py:1: LY020 importing app.sub.leafmod loads app.heavy through its parent package app.sub\n" in result.stdout


def test_load_through_importlib_with_a_computed_name(project):
    result = run(project, ["app.dynamic"])
    assert result.returncode == 1
    assert "  src/app/dynamic.py:3: LY020 importing app.dynamic loads app.heavy\n" in result.stdout


def test_import_error_is_an_error_with_the_traceback_never_clean(project):
    result = run(project, ["app.broken"])
    assert result.returncode == 2
    assert "nothing loads heavy [probe] ERROR" in result.stdout
    assert "src/app/broken.py:1: LY021 importing app.broken failed:" in result.stdout
    assert "RuntimeError: boom at import" in result.stdout


def test_hang_times_out_as_an_error(project):
    result = run(project, ["app.hangs"])
    assert result.returncode == 2
    assert "LY022 importing app.hangs timed out" in result.stdout


def test_os_exit_during_import_is_a_crash(project):
    result = run(project, ["app.exits"])
    assert result.returncode == 2
    assert "LY023 importing app.exits crashed the interpreter" in result.stdout
    assert "3" in result.stdout


def test_a_child_that_floods_stdout_cannot_confuse_the_result(project):
    result = run(project, ["app.floods"])
    assert result.returncode == 1
    assert "LY020 importing app.floods loads app.heavy" in result.stdout
    assert "noise" not in result.stdout


def test_stale_expect_loaded_fails_and_says_remove_it(project):
    result = run(project, ["app.clean"], extra='expect_loaded = ["app.clean"]\n')
    assert result.returncode == 1
    assert "contracts.toml:11: LY032 app.clean no longer loads a forbidden module: remove it from expect_loaded (it only shrinks)" in result.stdout


def test_expect_loaded_covers_a_known_load(project):
    result = run(project, ["app.entry", "app.clean"], extra='expect_loaded = ["app.entry"]\n')
    assert result.returncode == 0, result.stdout
    assert "[probe] KEPT" in result.stdout


def test_expect_loaded_does_not_cover_an_import_error(project):
    result = run(project, ["app.broken"], extra='expect_loaded = ["app.broken"]\n')
    assert result.returncode == 2
    assert "LY021 importing app.broken failed" in result.stdout


def test_forbidden_name_that_does_not_exist_fails_the_positive_control(project):
    result = run(project, ["app.clean"], forbidden=["app_heavy_typo"])
    assert result.returncode == 2
    assert "LY024 positive control: importing app_heavy_typo itself was import_failed, not loaded" in result.stdout
    assert "this contract cannot fail" in result.stdout


def test_internal_forbidden_pattern_matching_nothing_is_a_config_error(project):
    result = run(project, ["app.clean"], forbidden=["app.nothing"])
    assert result.returncode == 2
    assert "'app.nothing' in 'forbidden' matches no module" in result.stderr


def test_stubbed_heavy_dependency_is_importable(project):
    result = run(project, ["app.uses_torch"], extra='stub = ["torch"]\n')
    assert result.returncode == 0, result.stdout + result.stderr


def test_missing_heavy_dependency_without_a_stub_is_an_import_error(project):
    result = run(project, ["app.uses_torch"])
    assert result.returncode == 2
    assert "No module named 'torch'" in result.stdout


def test_forbidden_pattern_overlapping_a_stub_is_an_error(project):
    result = run(project, ["app.uses_torch"], forbidden=["torch"], extra='stub = ["torch"]\n')
    assert result.returncode == 2
    assert "forbidden 'torch' overlaps stub 'torch': a stubbed module is never reported loaded" in result.stderr


def test_injection_in_a_module_name_is_rejected_before_any_child(project):
    result = run(project, ["os; import shutil"])
    assert result.returncode == 2
    assert "is not a module pattern" in result.stderr


def test_no_probe_and_probe_only(project):
    project.write(
        {
            **PACKAGE,
            "contracts.toml": probe_config(["app.entry"])
            + '\n[[contracts]]\nid = "static"\nname = "clean imports no heavy"\ntype = "forbidden"\nsource_modules = ["app.clean"]\nforbidden_modules = ["app.heavy"]\n',
        }
    )
    static = project.check("--no-probe")
    assert static.returncode == 0 and "[probe]" not in static.stdout and "[static] KEPT" in static.stdout
    probes = project.check("--probe-only")
    assert probes.returncode == 1 and "[static]" not in probes.stdout and "[probe] BROKEN" in probes.stdout


def test_results_are_reported_in_a_stable_order_whatever_the_jobs(project):
    modules = ["app.sub.leafmod", "app.entry", "app.dynamic", "app.clean"]
    project.write({**PACKAGE, "contracts.toml": probe_config(modules)})
    one = project.check("--jobs", "1")
    two = project.check("--jobs", "2")
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout


@pytest.fixture
def model(project):
    shutil.copytree(REPO / "examples", project.root / "examples", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "contracts.toml", project.root / "contracts.toml")
    return project


def test_seed_history_replays_on_the_model(model):
    """Before the refactor the disaggregated service needs expect_loaded; after it, the entry is stale."""
    service = model.root / "examples/serve/tensorrt_llm/serve/openai_disagg_service.py"
    contracts = model.root / "contracts.toml"
    after_refactor = contracts.read_text()
    expecting = after_refactor.replace(
        'expect_loaded = []   # the expected failure for openai_disagg_service is gone',
        'expect_loaded = ["tensorrt_llm.serve.openai_disagg_service"]',
    )
    assert expecting != after_refactor
    responses_utils = model.root / "examples/serve/tensorrt_llm/serve/responses_utils.py"
    original_service = service.read_text()
    moved = "from tensorrt_llm.serve._base.responses_stream import responses_done_generator"
    assert moved in original_service
    service.write_text(original_service.replace(moved, "from tensorrt_llm.serve.responses_utils import responses_done_generator"))
    responses_utils.write_text(responses_utils.read_text() + "\n\ndef responses_done_generator(*args, **kwargs):\n    pass\n")

    before = model.check("--probe-only", "--contract", "disagg-probe-no-responses-utils")
    assert before.returncode == 1
    assert "LY020 importing tensorrt_llm.serve.openai_disagg_service loads tensorrt_llm.serve.responses_utils" in before.stdout

    contracts.write_text(expecting)
    with_expectation = model.check("--probe-only", "--contract", "disagg-probe-no-responses-utils")
    assert with_expectation.returncode == 0, with_expectation.stdout

    service.write_text(original_service)
    refactored = model.check("--probe-only", "--contract", "disagg-probe-no-responses-utils")
    assert refactored.returncode == 1
    assert "LY032 tensorrt_llm.serve.openai_disagg_service no longer loads a forbidden module: remove it from expect_loaded" in refactored.stdout
