"""The probe contract end to end through the CLI, on real little packages in tmp_path."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from probe_support import make_venv, other_pythons

REPO = Path(__file__).resolve().parents[2]


PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/clean.py": "import json\n",
    "src/app/entry.py": "import json\nfrom app import middle\n",
    "src/app/middle.py": "x = 1\nimport app.heavy\n",
    "src/app/heavy.py": "",
    "src/app/dynamic.py": 'import importlib\nname = "app." + "he" + '
    '"avy"\nimportlib.import_module(name)\n',
    "src/app/sub/__init__.py": "import app.heavy\n",
    "src/app/sub/leafmod.py": "",
    "src/app/broken.py": "raise RuntimeError('boom at import')\n",
    "src/app/hangs.py": "import time\nwhile True:\n    time.sleep(1)\n",
    "src/app/exits.py": "import os\nos._exit(3)\n",
    "src/app/floods.py": 'import sys\nfor _ in range(20000):\n    print(\'{"kind": "clean"}\' * '
    "10)\n    sys.stderr.write('noise\\n')\nimport app.heavy\n",
    "src/app/uses_torch.py": "import torch\nfrom torch import nn\n\nclass Model(nn.Module):\n    "
    "pass\n",
}


def probe_config(modules, forbidden=("app.heavy",), extra: str = "") -> str:
    return (
        'root_packages = ["app"]\nsource_roots = ["src"]\n\n[[contracts]]\nid = "probe"\nname = '
        '"nothing loads heavy"\n'
        f'type = "probe"\nmodules = {list(modules)!r}\nforbidden = {list(forbidden)!r}\ntimeout = '
        "5\n".replace("'", '"')
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
    assert (
        "  src/app/sub/__init__.py:1: LY020 importing app.sub.leafmod loads app.heavy through its "
        "parent package app.sub\n" in result.stdout
    )


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
    assert (
        "contracts.toml:11: LY032 app.clean no longer loads a forbidden module: remove it from "
        "expect_loaded (it only shrinks)" in result.stdout
    )


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
    assert (
        "LY024 positive control: this contract cannot fail for 'app_heavy_typo', since importing "
        "app_heavy_typo did not complete: "
        f"'app_heavy_typo' is not installed in the interpreter probes run in ({sys.executable}): "
        "check the spelling, "
        "install it there, or point python = (or --python) at the project's environment\n"
    ) in result.stdout


def test_a_failed_positive_control_does_not_hide_a_forbidden_module_seen_loaded(project):
    """One forbidden module is not installed (its control fails), another is loaded: BROKEN
    (exit 1) with the control's error beside the finding, not "could not be decided"."""
    result = run(project, ["app.entry"], forbidden=["app.heavy", "not_installed_here"])
    assert result.returncode == 1, result.stdout + result.stderr
    assert "nothing loads heavy [probe] BROKEN" in result.stdout
    assert "src/app/entry.py:2: LY020 importing app.entry loads app.heavy" in result.stdout
    assert "LY024 positive control: this contract cannot fail for 'not_installed_here'" in (
        result.stdout
    )
    clean = run(project, ["app.clean"], forbidden=["app.heavy", "not_installed_here"])
    assert clean.returncode == 2, clean.stdout  # nothing loaded: the control decides


def test_an_optional_forbidden_module_that_is_absent_counts_as_not_loaded(project):
    optional = 'optional = ["not_installed_here"]\n'
    kept = run(project, ["app.clean"], ["app.heavy", "not_installed_here"], optional)
    assert kept.returncode == 0, kept.stdout + kept.stderr
    assert "nothing loads heavy [probe] KEPT" in kept.stdout
    broken = run(project, ["app.entry"], ["app.heavy", "not_installed_here"], optional)
    assert broken.returncode == 1, broken.stdout
    assert "LY024" not in broken.stdout
    # An optional module that is installed still needs its control to see it loaded.
    installed = run(project, ["app.clean"], ["app.heavy", "decimal"], 'optional = ["decimal"]\n')
    assert installed.returncode == 0, installed.stdout
    wrong = run(project, ["app.clean"], ["app.heavy"], 'optional = ["json"]\n')
    assert wrong.returncode == 2
    assert "optional 'json' is not a forbidden module" in wrong.stderr


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
    assert (
        "forbidden 'torch' overlaps stub 'torch': a stubbed module is never reported loaded"
        in result.stderr
    )


def test_injection_in_a_module_name_is_rejected_before_any_child(project):
    result = run(project, ["os; import shutil"])
    assert result.returncode == 2
    assert "is not a module pattern" in result.stderr


def test_no_probe_and_probe_only(project):
    project.write(
        {
            **PACKAGE,
            "contracts.toml": probe_config(["app.entry"])
            + '\n[[contracts]]\nid = "static"\nname = "clean imports no heavy"\ntype = '
            '"forbidden"\nsource_modules = ["app.clean"]\nforbidden_modules = ["app.heavy"]\n',
        }
    )
    static = project.check("--no-probe")
    assert (
        static.returncode == 0
        and "[probe]" not in static.stdout
        and "[static] KEPT" in static.stdout
    )
    probes = project.check("--probe-only")
    assert (
        probes.returncode == 1
        and "[static]" not in probes.stdout
        and "[probe] BROKEN" in probes.stdout
    )


def test_results_are_reported_in_a_stable_order_whatever_the_jobs(project):
    modules = ["app.sub.leafmod", "app.entry", "app.dynamic", "app.clean"]
    project.write({**PACKAGE, "contracts.toml": probe_config(modules)})
    one = project.check("--jobs", "1")
    two = project.check("--jobs", "2")
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout


@pytest.fixture
def model(project):
    shutil.copytree(
        REPO / "examples", project.root / "examples", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copy(REPO / "contracts.toml", project.root / "contracts.toml")
    return project


def test_seed_history_replays_on_the_model(model):
    """Before the refactor the disaggregated service needs expect_loaded; after it, the entry is
    stale."""
    service = model.root / "examples/serve/tensorrt_llm/serve/openai_disagg_service.py"
    contracts = model.root / "contracts.toml"
    after_refactor = contracts.read_text()
    expecting = after_refactor.replace(
        "expect_loaded = []   # the expected failure for openai_disagg_service is gone",
        'expect_loaded = ["tensorrt_llm.serve.openai_disagg_service"]',
    )
    assert expecting != after_refactor
    responses_utils = model.root / "examples/serve/tensorrt_llm/serve/responses_utils.py"
    original_service = service.read_text()
    moved = "from tensorrt_llm.serve._base.responses_stream import responses_done_generator"
    assert moved in original_service
    service.write_text(
        original_service.replace(
            moved, "from tensorrt_llm.serve.responses_utils import responses_done_generator"
        )
    )
    responses_utils.write_text(
        responses_utils.read_text()
        + "\n\ndef responses_done_generator(*args, **kwargs):\n    pass\n"
    )

    before = model.check("--probe-only", "--contract", "disagg-probe-no-responses-utils")
    assert before.returncode == 1
    assert (
        "LY020 importing tensorrt_llm.serve.openai_disagg_service loads "
        "tensorrt_llm.serve.responses_utils" in before.stdout
    )

    contracts.write_text(expecting)
    with_expectation = model.check("--probe-only", "--contract", "disagg-probe-no-responses-utils")
    assert with_expectation.returncode == 0, with_expectation.stdout

    service.write_text(original_service)
    refactored = model.check("--probe-only", "--contract", "disagg-probe-no-responses-utils")
    assert refactored.returncode == 1
    assert (
        "LY032 tensorrt_llm.serve.openai_disagg_service no longer loads a forbidden module: "
        "remove it from expect_loaded" in refactored.stdout
    )


# --------------------------------------------------------------------------- the interpreter, env
# and setup

ONLY_IN_THE_VENV = {
    "onlyhere/__init__.py": "from onlyhere import engine\n",
    "onlyhere/engine.py": "x = 1\nimport onlyhere.heavy\n",
    "onlyhere/heavy.py": "",
}

PROJECT_FILES = {
    "src/app/uses_onlyhere.py": "x = 1\nimport onlyhere\n",
    "src/app/configured.py": (
        "import os\n"
        'if os.environ.get("APP_SETTINGS") != "app.settings_test":\n'
        '    raise RuntimeError("APP_SETTINGS is not set")\n'
        "import app.heavy\n"
    ),
    "src/app/boot.py": "def start():\n    import app.plugins.one\n\n\ndef start_all():\n    "
    "import app.plugins.one, app.plugins.two\n",
    "src/app/plugins/__init__.py": "",
    "src/app/plugins/one.py": "",
    "src/app/plugins/two.py": "",
    "src/app/uses_one.py": "import app.plugins.one\n",
    "src/app/uses_two.py": "import app.plugins.one\nimport app.plugins.two\n",
    "src/app/needs_dep.py": "import not_installed_dep_xyz\n",
}


def run_with(project, modules, forbidden, extra="", *args):
    project.write(
        {**PACKAGE, **PROJECT_FILES, "contracts.toml": probe_config(modules, forbidden, extra)}
    )
    result = project.check(*args)
    assert "Traceback (most recent call last)" not in result.stderr
    return result


def _no_enum_words(text: str) -> None:
    for word in ("import_failed", "setup_failed", "timed_out", "ProbeOutcomeKind"):
        assert word not in text


def test_probes_run_in_the_interpreter_that_python_names(project, tmp_path):
    venv_python = make_venv(tmp_path / "venv", ONLY_IN_THE_VENV)
    here = run_with(project, ["app.uses_onlyhere"], ["onlyhere.heavy"])
    assert here.returncode == 2
    assert (
        "src/app/uses_onlyhere.py:1: LY021 importing app.uses_onlyhere failed: 'onlyhere' is not "
        "installed in the "
        f"interpreter probes run in ({sys.executable}): install it there, point python = (or "
        "--python) at the "
        "project's environment, or add it to stub\n"
    ) in here.stdout
    assert (
        "LY024 positive control: this contract cannot fail for 'onlyhere.heavy', since importing "
        "onlyhere.heavy did not complete: 'onlyhere' is not installed" in here.stdout
    )
    _no_enum_words(here.stdout)

    there = project.check("--python", str(venv_python))
    assert there.returncode == 1, there.stdout + there.stderr
    assert (
        "nothing loads heavy [probe] BROKEN\n"
        "  python: venv/bin/python\n"
        "  src/app/uses_onlyhere.py:2: LY020 importing app.uses_onlyhere loads onlyhere.heavy\n"
        "    src/app/uses_onlyhere.py:2: app.uses_onlyhere -> onlyhere\n"
        "    venv-packages/onlyhere/__init__.py:1: onlyhere -> onlyhere.engine\n"
        "    venv-packages/onlyhere/engine.py:2: onlyhere.engine -> onlyhere.heavy\n"
    ) in there.stdout


def test_python_in_the_configuration_is_relative_to_it_and_may_be_another_version(
    project, tmp_path
):
    version, python = min(other_pythons().items(), default=("", sys.executable))
    make_venv(tmp_path / "venv", ONLY_IN_THE_VENV, python=python)
    run_with(project, ["app.uses_onlyhere"], ["onlyhere.heavy"], 'python = "venv/bin/python"\n')
    result = project.check("--format", "json", cwd=tmp_path / "src")
    assert result.returncode == 1, result.stdout + result.stderr
    document = json.loads(result.stdout)
    [contract] = document["contracts"]
    assert contract["probe"] == {"python": "venv/bin/python", "env": {}, "setup": []}
    assert [v["imported"] for v in contract["violations"]] == ["onlyhere.heavy"]
    assert [hop["path"] for hop in contract["violations"][0]["chain"]] == [
        "src/app/uses_onlyhere.py",
        "venv-packages/onlyhere/__init__.py",
        "venv-packages/onlyhere/engine.py",
    ]


def test_env_reaches_the_child_and_is_shown_in_the_header(project):
    without = run_with(project, ["app.configured"], ["app.heavy"])
    assert without.returncode == 2
    assert "RuntimeError: APP_SETTINGS is not set" in without.stdout
    result = run_with(
        project,
        ["app.configured"],
        ["app.heavy"],
        'env = { APP_SETTINGS = "app.settings_test" }\n',
    )
    assert result.returncode == 1, result.stdout
    assert (
        "nothing loads heavy [probe] BROKEN\n"
        "  env: APP_SETTINGS=app.settings_test\n"
        "  src/app/configured.py:4: LY020 importing app.configured loads app.heavy\n"
    ) in result.stdout
    document = json.loads(project.check("--format", "json").stdout)
    assert document["contracts"][0]["probe"] == {
        "python": "",
        "env": {"APP_SETTINGS": "app.settings_test"},
        "setup": [],
    }


def test_what_setup_loads_is_not_blamed_on_the_probed_module(project):
    modules, forbidden = ["app.uses_one", "app.uses_two"], ["app.plugins.*"]
    without = run_with(project, modules, forbidden)
    assert "LY020 importing app.uses_one loads app.plugins.one" in without.stdout
    result = run_with(project, modules, forbidden, 'setup = ["app.boot:start"]\n')
    assert result.returncode == 1, result.stdout
    assert (
        "nothing loads heavy [probe] BROKEN\n"
        "  setup: app.boot:start\n"
        "  src/app/uses_two.py:2: LY020 importing app.uses_two loads app.plugins.two\n"
        "\n"
    ) in result.stdout


def test_a_forbidden_module_setup_already_loads_is_an_error(project):
    result = run_with(
        project, ["app.uses_two"], ["app.plugins.one", "app.heavy"], 'setup = ["app.boot:start"]\n'
    )
    assert result.returncode == 2, result.stdout
    assert (
        "  contracts.toml:9: LY024 forbidden 'app.plugins.one' is already loaded by setup "
        "'app.boot:start', before any "
        "probed import, so this contract cannot fail for it: remove it from forbidden, or use a "
        "setup that does not load it\n"
        "    src/app/boot.py:2: app.boot -> app.plugins.one\n"
    ) in result.stdout
    every = run_with(
        project, ["app.uses_two"], ["app.plugins.*"], 'setup = ["app.boot:start_all"]\n'
    )
    assert every.returncode == 2
    assert (
        "LY024 forbidden 'app.plugins.*' (app.plugins.one) is already loaded by setup "
        "'app.boot:start_all'" in every.stdout
    )


def test_a_forbidden_module_loaded_at_interpreter_start_is_an_error_not_a_finding(project):
    result = run_with(project, ["app.clean"], ["os", "app.heavy"])
    assert result.returncode == 2
    assert (
        "contracts.toml:9: LY024 forbidden 'os' is already loaded when the interpreter starts"
        in result.stdout
    )
    assert "loads os" not in result.stdout


def test_a_probed_module_that_setup_loads_cannot_fail(project):
    result = run_with(
        project, ["app.plugins.one", "app.uses_two"], ["app.heavy"], 'setup = ["app.boot:start"]\n'
    )
    assert result.returncode == 2
    assert (
        "  contracts.toml:8: LY024 app.plugins.one is already loaded by setup 'app.boot:start', "
        "before the probe imports it, "
        "so probing it cannot fail: remove it from modules, or use a setup that does not load it\n"
    ) in result.stdout


def test_a_failing_setup_is_located_at_the_setup_line(project):
    result = run_with(project, ["app.clean"], ["app.heavy"], 'setup = ["app.broken"]\n')
    assert result.returncode == 2
    assert (
        "  contracts.toml:11: LY025 setup 'app.broken' failed, so no module could be probed: "
        "RuntimeError: boom at import\n" in result.stdout
    )
    assert 'src/app/broken.py", line 1, in <module>' in result.stdout
    assert result.stdout.count("LY025") == 1  # once per contract, not once per probe
    _no_enum_words(result.stdout)


def test_a_control_whose_dependency_is_missing_says_what_to_do(project):
    result = run_with(project, ["app.clean"], ["app.needs_dep"])
    assert result.returncode == 2
    assert (
        "LY024 positive control: this contract cannot fail for 'app.needs_dep', since importing "
        "app.needs_dep did not complete: "
        "'not_installed_dep_xyz' is not installed in the interpreter probes run in "
        f"({sys.executable}): install it "
        "there, point python = (or --python) at the project's environment, or add it to stub\n"
    ) in result.stdout
    _no_enum_words(result.stdout)
    stubbed = run_with(
        project, ["app.clean"], ["app.needs_dep"], 'stub = ["not_installed_dep_xyz"]\n'
    )
    assert stubbed.returncode == 0, stubbed.stdout


FORMATS = ("text", "json", "github", "sarif")


def _config_error(
    project, timeout_line: str, *args: str, forbidden=("app.heavy",)
) -> dict[str, str]:
    """Each format's output (stdout + stderr) for a probe contract whose timeout line is
    `timeout_line`."""
    project.write(
        {
            **PACKAGE,
            "contracts.toml": probe_config(["app.clean"], forbidden).replace(
                "timeout = 5\n", timeout_line
            ),
        }
    )
    outputs = {}
    for format in FORMATS:
        result = project.check("--format", format, *args)
        output = result.stdout + result.stderr
        assert result.returncode == 2, (format, output)
        assert "Traceback" not in output, format
        outputs[format] = output
    json_errors = json.loads(project.check("--format", "json", *args).stdout)["errors"]
    assert json_errors, outputs["json"]
    return outputs


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            "timeout = inf\n",
            "contracts.toml:10: error: contract 'nothing loads heavy', option 'timeout': expected "
            "a number of seconds above 0 and at most 3600 (one hour), got inf",
        ),
        (
            "timeout = nan\n",
            "option 'timeout': expected a number of seconds above 0 and at most 3600 (one hour), "
            "got nan",
        ),
        (
            "timeout = 1e7\n",
            "option 'timeout': expected a number of seconds above 0 and at most 3600 (one hour), "
            "got 10000000.0",
        ),
        (
            'python = "nope/bin/python"\n',
            "contracts.toml:10: error: contract 'nothing loads heavy', option 'python': "
            "'nope/bin/python' does not exist",
        ),
    ],
)
def test_a_bad_timeout_or_interpreter_is_a_located_error_in_every_format(project, extra, message):
    outputs = _config_error(project, extra)
    assert message in outputs["text"]
    assert message.split(": error: ")[-1] in outputs["json"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            'env = { "BAD NAME" = "x" }\n',
            "option 'env': 'BAD NAME' is not an environment variable name",
        ),
        (
            'env = { PYTHONPATH = "src" }\n',
            "option 'env': PYTHONPATH would be ignored: probes run Python in isolated mode (-I)",
        ),
        (
            "env = { LEVEL = 1 }\n",
            "option 'env': the value of LEVEL must be a string (TOML quotes), got 1",
        ),
        ('env = "LEVEL=1"\n', "option 'env': expected a table of variables"),
        (
            'setup = ["django.setup()"]\n',
            """option 'setup': 'django.setup()' is not "module:callable" or "module" (e.g. "django:setup")""",
        ),
        ('setup = ["app.boot:"]\n', """option 'setup': 'app.boot:' is not "module:callable" """),
    ],
)
def test_bad_env_and_setup_are_located_errors(project, extra, message):
    project.write({**PACKAGE, "contracts.toml": probe_config(["app.clean"], ["app.heavy"], extra)})
    result = project.check()
    assert result.returncode == 2, result.stdout
    assert "contracts.toml:11: error: contract 'nothing loads heavy', " + message in result.stderr


def test_a_wildcard_outside_the_root_packages_is_an_error_not_a_crash(project):
    outputs = _config_error(project, "timeout = 5\n", forbidden=("torch.*",))
    assert (
        "'torch.*' in 'forbidden' matches no module of the root packages, and outside them a "
        "wildcard cannot be expanded" in outputs["text"]
    )


def test_a_python_option_that_cannot_run_probes_is_refused_before_any_probe(project):
    outputs = _config_error(project, "timeout = 5\n", "--python", "nope/python")
    assert "layering: error: argument --python: 'nope/python' does not exist" in outputs["text"]
    static_contract = (
        '\n[[contracts]]\nname = "clean imports no heavy"\ntype = "forbidden"\nsource_modules = '
        '["app.clean"]\nforbidden_modules = ["app.heavy"]\n'
    )
    project.write({"contracts.toml": probe_config(["app.clean"]) + static_contract})
    static = project.check("--python", "nope/python", "--no-probe")
    assert static.returncode == 0, static.stderr  # no probe runs, so no interpreter is needed


def test_a_root_package_installed_only_where_python_names_is_found_there(project, tmp_path):
    """A configuration of probe contracts about a package installed in the project's
    environment, not beside the configuration nor in layering's own: `--python` names where it
    is, for `check` and `audit` alike."""
    venv_python = make_venv(tmp_path / "venv", ONLY_IN_THE_VENV)
    project.write(
        {
            "project/contracts.toml": 'root_packages = ["onlyhere"]\ncache_dir = '
            "false\n\n[[contracts]]\n"
            'id = "p"\nname = "engine never loads heavy"\ntype = "probe"\nmodules = '
            '["onlyhere.engine"]\n'
            'forbidden = ["onlyhere.heavy"]\n'
        }
    )
    here = project.check(cwd=tmp_path / "project")
    assert here.returncode == 2 and "root package 'onlyhere' not found" in here.stderr
    there = project.check("--python", str(venv_python), cwd=tmp_path / "project")
    assert there.returncode == 1, there.stdout + there.stderr
    assert "engine never loads heavy [p] BROKEN\n" in there.stdout
    assert "LY020 importing onlyhere.engine loads onlyhere.heavy" in there.stdout
    audit = project.layering("audit", "--python", str(venv_python), cwd=tmp_path / "project")
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert "the probe and the source agree" in audit.stdout
