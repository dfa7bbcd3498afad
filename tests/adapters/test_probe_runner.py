"""The runtime probe, for real: little packages in a temporary directory, real child interpreters.

Most cases run in one batch per isolation mode (a module-scoped fixture), so the whole file
pays for two batches plus a few small ones; each test then reads the outcome it is about.
"""

from __future__ import annotations

import ast
import dataclasses
import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from probe_support import OTHER_VERSIONS, other_pythons

from layering.adapters import probe_runner
from layering.adapters.probe_runner import run_probes
from layering.domain.probes import (
    LoadedBefore,
    LoadedForbidden,
    ProbeOutcome,
    ProbeOutcomeKind,
    ProbeRequest,
    RuntimeHop,
)

CAN_FORK = hasattr(os, "fork") and os.name == "posix"
MODES = ["spawn", "fork"] if CAN_FORK else ["spawn"]
# What this interpreter loads before any probe runs (a site-packages .pth may import threading):
# a module among them cannot be seen loaded, only reported as loaded before.
STARTUP = frozenset(
    subprocess.run(
        [sys.executable, "-I", "-c", "import sys; print(*sys.modules)"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
)

FILES = {
    "app/__init__.py": "",
    "app/bad.py": "BAD = True\n",
    "app/clean.py": "import json\nx = 1\n",
    "app/top.py": '"""Top."""\nimport os\nimport app.mid\n',
    "app/mid.py": "# the middle\nimport app.bad\n",
    "heavypkg/__init__.py": "import app.bad\n",
    "heavypkg/leaf.py": "x = 1\n",
    "app/uses_sub.py": "x = 0\nimport heavypkg.leaf\n",
    "app/dynamic.py": 'import importlib\nsuffix = "bad"\nmodule = importlib.import_module("app." '
    "+ suffix)\n",
    "app/failing.py": 'x = 1\nraise ValueError("boom-xyz")\n',
    "app/hang.py": "import time\nwhile True:\n    time.sleep(0.05)\n",
    "app/exit3.py": "import os, "
    'sys\nsys.stderr.write("dying-words\\n")\nsys.stderr.flush()\nos._exit(3)\n',
    "app/sysexit4.py": "import sys\nsys.exit(4)\n",
    "app/segv.py": "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n",
    "app/sigkill.py": "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n",
    "app/flood.py": (
        "import os, sys\n"
        'sys.stdout.write("x" * 4_000_000)\n'
        "sys.stdout.flush()\n"
        'os.write(1, b"\\x00\\x00\\x00\\x05{}{}{" * 100_000)\n'
        'sys.stderr.write("y" * 2_000_000)\n'
        "import app.bad\n"
    ),
    "app/torchy.py": textwrap.dedent(
        """
        import torch
        from torch import nn
        import torch.nn.functional as F
        from torch.utils.data import Dataset

        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.linear = nn.Linear(3, 4)

            def forward(self, x):
                return F.relu(self.linear(x))

        @torch.no_grad()
        def infer(model):
            return model

        @torch.jit.script
        def scripted(x):
            return x

        class Data(Dataset, nn.Module):
            pass

        for _ in torch.arange(3):
            raise AssertionError("placeholders iterate as empty")
        Model(); Data()
        assert callable(scripted) and callable(infer)
        if torch.cuda.is_available():
            raise AssertionError("placeholders are false")
        with torch.no_grad():
            pass
        Optional = torch.Tensor | None
        assert not isinstance(1, torch.Tensor)
        """
    ),
    "app/threads.py": (
        "import threading, time\n"
        "threading.Thread(target=lambda: time.sleep(1000)).start()\n"
        "import app.bad\n"
    ),
    "app/forks.py": (
        "import os, time\n"
        "if os.fork() == 0:\n"
        "    time.sleep(1000)\n"
        "    os._exit(0)\n"
        "import app.bad\n"
    ),
    "app/forks_both.py": "import os\nos.fork()\nimport app.bad\n",
    "app/vandal.py": (
        "import sys\n"
        "import app.bad\n"
        'del sys.modules["app.bad"]\n'
        "sys.path[:] = []\n"
        'for name in [n for n in sys.modules if n == "json" or n.startswith("json.")]:\n'
        "    del sys.modules[name]\n"
    ),
    "app/vandal_fail.py": 'import sys\nsys.path[:] = []\nraise KeyError("vandal-key")\n',
    "app/wild.py": "import app.secrets.deep\n",
    "app/secrets/__init__.py": "",
    "app/secrets/deep.py": "",
    "uses_json.py": "import json\n",
    "uses_asyncio.py": "import asyncio\n",
    "uses_logging.py": "import logging\n",
}

TIMEOUT = 1.5


def _cases(root: str) -> dict[str, ProbeRequest]:
    roots = (root,)

    def req(module, forbidden=("app.bad",), stubs=(), timeout=20.0):
        return ProbeRequest(module, tuple(forbidden), tuple(stubs), roots, timeout)

    return {
        "clean": req("app.clean"),
        "chain": req("app.top"),
        "parent_of_probe": req("heavypkg.leaf"),
        "parent_of_import": req("app.uses_sub"),
        "dynamic": req("app.dynamic"),
        "failing": req("app.failing"),
        "hang": req("app.hang", timeout=TIMEOUT),
        "exit3": req("app.exit3"),
        "sysexit4": req("app.sysexit4"),
        "segv": req("app.segv"),
        "sigkill": req("app.sigkill"),
        "flood": req("app.flood"),
        "torchy": req("app.torchy", forbidden=("torch", "torch.nn", "app.bad"), stubs=("torch",)),
        "threads": req("app.threads"),
        "forks": req("app.forks"),
        "forks_both": req("app.forks_both"),
        "vandal": req("app.vandal"),
        "vandal_fail": req("app.vandal_fail"),
        "wild_one": req("app.wild", forbidden=("app.*.deep",)),
        "wild_many": req("app.wild", forbidden=("**.deep",)),
        "covers_sub": req("app.wild", forbidden=("app.secrets",)),
        "itself": req("app.bad"),
    }


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("probe_tree")
    for name, text in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def batches(tree) -> dict[str, dict[str, ProbeOutcome]]:
    cases = _cases(str(tree))
    names = list(cases)
    found = {}
    for mode in MODES:
        start = time.monotonic()
        outcomes = run_probes([cases[n] for n in names], jobs=4, isolation=mode)
        found[mode] = dict(zip(names, outcomes))
        found[mode]["__seconds__"] = time.monotonic() - start  # type: ignore[assignment]
    return found


@pytest.fixture(params=MODES)
def outcomes(request, batches) -> dict[str, ProbeOutcome]:
    return batches[request.param]


def _hops(outcome: ProbeOutcome, module: str) -> tuple[RuntimeHop, ...]:
    [loaded] = [item for item in outcome.loaded if item.module == module]
    return loaded.chain


def test_a_clean_module_is_clean(outcomes):
    assert outcomes["clean"].kind is ProbeOutcomeKind.CLEAN
    assert outcomes["clean"].loaded == ()


def test_a_chain_of_two_imports_names_both_statements(outcomes, tree):
    outcome = outcomes["chain"]
    assert outcome.kind is ProbeOutcomeKind.LOADED
    assert _hops(outcome, "app.bad") == (
        RuntimeHop("app.top", "app.mid", str(tree / "app" / "top.py"), 3),
        RuntimeHop("app.mid", "app.bad", str(tree / "app" / "mid.py"), 2),
    )


def test_loaded_by_the_probed_modules_own_parent_package(outcomes, tree):
    outcome = outcomes["parent_of_probe"]
    assert outcome.kind is ProbeOutcomeKind.LOADED
    assert _hops(outcome, "app.bad") == (
        RuntimeHop("heavypkg", "app.bad", str(tree / "heavypkg" / "__init__.py"), 1),
    )


def test_loaded_by_the_parent_package_of_an_imported_submodule(outcomes, tree):
    outcome = outcomes["parent_of_import"]
    assert outcome.kind is ProbeOutcomeKind.LOADED
    assert _hops(outcome, "app.bad") == (
        RuntimeHop(
            "app.uses_sub", "heavypkg", str(tree / "app" / "uses_sub.py"), 2, via_parent=True
        ),
        RuntimeHop("heavypkg", "app.bad", str(tree / "heavypkg" / "__init__.py"), 1),
    )


def test_import_module_with_a_computed_name_points_at_the_call(outcomes, tree):
    outcome = outcomes["dynamic"]
    assert outcome.kind is ProbeOutcomeKind.LOADED
    assert _hops(outcome, "app.bad") == (
        RuntimeHop("app.dynamic", "app.bad", str(tree / "app" / "dynamic.py"), 3),
    )


def test_an_import_error_carries_the_traceback(outcomes):
    outcome = outcomes["failing"]
    assert outcome.kind is ProbeOutcomeKind.IMPORT_FAILED
    assert "ValueError: boom-xyz" in outcome.detail
    assert "failing.py" in outcome.detail and "Traceback" in outcome.detail


def test_a_hang_times_out_promptly(outcomes):
    outcome = outcomes["hang"]
    assert outcome.kind is ProbeOutcomeKind.TIMED_OUT
    assert TIMEOUT <= outcome.seconds < TIMEOUT + 3
    assert outcomes["__seconds__"] < 15  # type: ignore[operator]


def test_os_exit_during_import_is_a_crash(outcomes):
    outcome = outcomes["exit3"]
    assert outcome.kind is ProbeOutcomeKind.CRASHED
    assert "exited with code 3 before reporting" in outcome.detail
    assert "dying-words" in outcome.detail


def test_sys_exit_during_import_is_a_crash(outcomes):
    outcome = outcomes["sysexit4"]
    assert outcome.kind is ProbeOutcomeKind.CRASHED
    assert "sys.exit(4) during import" in outcome.detail


@pytest.mark.parametrize(("case", "name"), [("segv", "SIGSEGV"), ("sigkill", "SIGKILL")])
def test_a_signal_is_a_crash_that_names_it(outcomes, case, name):
    outcome = outcomes[case]
    assert outcome.kind is ProbeOutcomeKind.CRASHED
    assert f"killed by signal {name}" in outcome.detail


def test_megabytes_of_output_do_not_confuse_the_result(outcomes):
    outcome = outcomes["flood"]
    assert outcome.kind is ProbeOutcomeKind.LOADED
    assert [item.module for item in outcome.loaded] == ["app.bad"]


def test_a_stubbed_dependency_imports_and_is_never_reported(outcomes):
    outcome = outcomes["torchy"]
    assert outcome.kind is ProbeOutcomeKind.CLEAN, outcome.detail
    assert outcome.loaded == ()


def test_a_non_daemon_thread_does_not_hold_the_child(outcomes):
    outcome = outcomes["threads"]
    assert outcome.kind is ProbeOutcomeKind.LOADED
    assert outcome.seconds < 5


@pytest.mark.parametrize("case", ["forks", "forks_both"])
def test_a_module_that_forks_still_gives_one_result(outcomes, case, tree):
    outcome = outcomes[case]
    assert outcome.kind is ProbeOutcomeKind.LOADED
    assert outcome.seconds < 5
    hop = _hops(outcome, "app.bad")[-1]
    assert (hop.importer, hop.line) == (f"app.{case}", 5 if case == "forks" else 3)


def test_a_module_deleted_from_sys_modules_and_a_wiped_sys_path_still_count(outcomes, tree):
    outcome = outcomes["vandal"]
    assert outcome.kind is ProbeOutcomeKind.LOADED
    assert _hops(outcome, "app.bad") == (
        RuntimeHop("app.vandal", "app.bad", str(tree / "app" / "vandal.py"), 2),
    )
    failed = outcomes["vandal_fail"]
    assert failed.kind is ProbeOutcomeKind.IMPORT_FAILED
    assert "vandal-key" in failed.detail


def test_patterns_cover_submodules_and_wildcards(outcomes):
    assert [i.module for i in outcomes["wild_one"].loaded] == ["app.secrets.deep"]
    assert [i.module for i in outcomes["wild_many"].loaded] == ["app.secrets.deep"]
    # Forbidding a package reports the package itself, not each module below it.
    assert [i.module for i in outcomes["covers_sub"].loaded] == ["app.secrets"]
    itself = outcomes["itself"]
    assert itself.kind is ProbeOutcomeKind.LOADED and itself.loaded[0].chain == ()


@pytest.mark.skipif(not CAN_FORK, reason="the fork server needs os.fork")
def test_fork_server_and_fresh_interpreters_agree(batches):
    spawn, fork = batches["spawn"], batches["fork"]
    for name in _cases("x"):
        a, b = spawn[name], fork[name]
        assert (a.module, a.kind, a.loaded, a.detail) == (b.module, b.kind, b.loaded, b.detail), (
            name
        )


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("module", "os; import shutil"),
        ("module", "__import__('os')"),
        ("module", "a..b"),
        ("module", ""),
        ("forbidden", ("x; import shutil",)),
        ("forbidden", ("a.b c",)),
        ("stubs", ("torch nn",)),
        ("stubs", ("torch.*",)),
        ("env", (("BAD NAME", "x"),)),
        ("env", (("X;rm", "x"),)),
        ("env", (("OK", "nul\0byte"),)),
        ("setup", ("django.setup()",)),
        ("setup", ("django:setup; import os",)),
        ("setup", ("django:",)),
        ("python", "relative/bin/python"),
        ("timeout", float("inf")),
        ("timeout", float("nan")),
        ("timeout", 1e7),
        ("timeout", 0),
        ("timeout", True),
    ],
)
def test_names_that_are_not_dotted_never_reach_a_child(monkeypatch, field, value):
    def no_child(*args, **kwargs):
        raise AssertionError("a child was started")

    monkeypatch.setattr(subprocess, "Popen", no_child)
    monkeypatch.setattr(subprocess, "run", no_child)
    fields = {"module": "fine.module", "forbidden": ("ok.pattern",), "stubs": ()}
    fields[field] = value
    good = ProbeRequest("fine.other", ("x",))
    with pytest.raises(ValueError):
        run_probes([good, ProbeRequest(**fields)], isolation="spawn")  # type: ignore[arg-type]


@pytest.mark.skipif(not CAN_FORK, reason="the fork server needs os.fork")
def test_a_module_that_kills_its_fork_server_crashes_alone(tmp_path):
    (tmp_path / "parricide.py").write_text(
        "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n"
    )
    (tmp_path / "fine.py").write_text("")
    roots = (str(tmp_path),)
    killer, fine = (
        ProbeRequest("parricide", ("x",), (), roots),
        ProbeRequest("fine", ("x",), (), roots),
    )
    outcomes = run_probes([killer, fine, killer, fine], jobs=1, isolation="fork")
    assert [o.kind for o in outcomes] == [ProbeOutcomeKind.CRASHED, ProbeOutcomeKind.CLEAN] * 2
    assert "fork server failed" in outcomes[0].detail


def test_progress_reports_each_completed_probe(tree):
    seen = []
    requests = [ProbeRequest("app.clean", ("app.bad",), (), (str(tree),))] * 3
    outcomes = run_probes(
        requests, jobs=2, progress=lambda done, total: seen.append((done, total))
    )
    assert [o.kind for o in outcomes] == [ProbeOutcomeKind.CLEAN] * 3
    assert seen == [(1, 3), (2, 3), (3, 3)]


# --------------------------------------------------------------------------- the prelude


def _prelude_cases(tree: Path, forbidden: str) -> list[ProbeRequest]:
    roots = (str(tree),)
    return [
        ProbeRequest("uses_json", (forbidden,), (), roots),
        ProbeRequest("uses_asyncio", (forbidden,), (), roots),
        ProbeRequest("uses_logging", (forbidden,), (), roots),
        ProbeRequest("app.clean", (forbidden,), (), roots),
    ]


@pytest.mark.skipif(not CAN_FORK, reason="the fork server needs os.fork")
@pytest.mark.parametrize("forbidden", ["json", "asyncio", "threading", "json.decoder"])
def test_the_prelude_never_hides_a_forbidden_standard_library_module(tree, forbidden):
    requests = _prelude_cases(tree, forbidden)
    fork = run_probes(requests, jobs=2, isolation="fork")
    spawn = run_probes(requests, jobs=2, isolation="spawn")
    assert [(o.kind, o.loaded) for o in fork] == [(o.kind, o.loaded) for o in spawn]
    by_module = {o.module: o for o in fork}
    top = forbidden.split(".")[0]
    importer = {"json": "uses_json", "asyncio": "uses_asyncio"}.get(top)
    if importer:
        outcome = by_module[importer]
        assert outcome.kind is ProbeOutcomeKind.LOADED
        assert outcome.loaded[0].module == forbidden
        assert outcome.loaded[0].chain[0].importer == importer
    if forbidden == "threading" and "threading" in STARTUP:
        outcome = by_module["uses_logging"]
        assert [item.module for item in outcome.forbidden_before] == ["threading"], outcome
    elif forbidden == "threading":
        assert by_module["uses_logging"].kind is ProbeOutcomeKind.LOADED
        assert [h.imported for h in by_module["uses_logging"].loaded[0].chain] == [
            "logging",
            "threading",
        ]


@pytest.mark.skipif(not CAN_FORK, reason="the fork server needs os.fork")
def test_a_fork_server_preloads_nothing_the_batch_forbids(tree):
    for forbidden in ("json", "threading", "email.*"):
        config = probe_runner._server_config(
            _prelude_cases(tree, forbidden), probe_runner.DEFAULT_PRELUDE
        )
        server = probe_runner._ForkServers(
            config, probe_runner._Interpreter(sys.executable, dict(probe_runner.CHILD_ENVIRONMENT))
        )
        for slot in server.start(2):
            slot.close()
        pattern = probe_runner.ModulePattern.parse(forbidden)
        assert not [m for m in server.preloaded if pattern.covers(m)]
        if forbidden == "json":
            assert "asyncio" in server.preloaded  # a prelude there is, just without json
        if forbidden == "threading" and "threading" not in STARTUP:
            assert server.prelude_problems  # logging & co pull it in: a prelude without them
            assert "threading" not in server.preloaded


@pytest.mark.skipif(not CAN_FORK, reason="the fork server needs os.fork")
def test_a_source_root_that_shadows_a_standard_module_wins_in_both_modes(tmp_path):
    (tmp_path / "json.py").write_text("import shadow_marker\n")
    (tmp_path / "shadow_marker.py").write_text("")
    (tmp_path / "wants_json.py").write_text("import json\n")
    request = ProbeRequest("wants_json", ("shadow_marker",), (), (str(tmp_path),))
    for mode in MODES:
        [outcome] = run_probes([request], isolation=mode)
        assert outcome.kind is ProbeOutcomeKind.LOADED, mode
        assert [h.imported for h in outcome.loaded[0].chain] == ["json", "shadow_marker"], mode


# --------------------------------------------------------------------------- env, setup, start-up

SETUP_FILES = {
    "plugins/__init__.py": "",
    "plugins/one.py": "",
    "plugins/two.py": "",
    "boot.py": "def start():\n    import plugins.one\n",
    "failing_boot.py": "def start():\n    raise ValueError('boot-failed-xyz')\n",
    "missing_boot.py": "import not_installed_anywhere_xyz\n",
    "uses_one.py": "import plugins.one\n",
    "uses_two.py": "import plugins.one\nimport plugins.two\n",
    "needs_env.py": (
        "import os\n"
        'if os.environ.get("PROBE_FLAVOUR") != "mint":\n'
        '    raise RuntimeError("PROBE_FLAVOUR is not mint")\n'
        "import plugins.two\n"
    ),
    "sees_secrets.py": 'import os\nif "LAYERING_TEST_SECRET" in os.environ:\n    import '
    "plugins.two\n",
}


def _setup_cases(root: str, python: str = "") -> dict[str, ProbeRequest]:
    def req(module, forbidden=("plugins.one", "plugins.two"), setup=(), env=(), fallbacks=()):
        return ProbeRequest(
            module,
            tuple(forbidden),
            (),
            (root,),
            20.0,
            python,
            tuple(env),
            tuple(setup),
            tuple(fallbacks),
        )

    return {
        "setup_only": req("uses_one", setup=("boot:start",)),
        "setup_then_new": req("uses_two", setup=("boot:start",)),
        "module_loaded_by_setup": req(
            "plugins.one", forbidden=("plugins.two",), setup=("boot:start",)
        ),
        "module_only_setup": req("uses_one", setup=("boot",)),
        "startup": req("uses_one", forbidden=("os", "plugins.two")),
        "env_set": req("needs_env", env=(("PROBE_FLAVOUR", "mint"),)),
        "env_unset": req("needs_env"),
        "no_inherited_env": req("sees_secrets"),
        "setup_fails": req("uses_one", setup=("failing_boot:start",)),
        "setup_misses": req("uses_one", setup=("missing_boot", "boot:start")),
        "fallback": req(
            "plugins.one",
            forbidden=("plugins.*",),
            setup=("boot:start",),
            fallbacks=("plugins.one", "plugins.two"),
        ),
    }


@pytest.fixture(scope="module")
def setup_tree(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("setup_tree")
    for name, text in SETUP_FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def setup_batches(setup_tree) -> dict[str, dict[str, ProbeOutcome]]:
    os.environ["LAYERING_TEST_SECRET"] = "must-not-reach-the-child"
    try:
        cases = _setup_cases(str(setup_tree))
        return {
            mode: dict(zip(cases, run_probes(list(cases.values()), jobs=2, isolation=mode)))
            for mode in MODES
        }
    finally:
        del os.environ["LAYERING_TEST_SECRET"]


@pytest.fixture(params=MODES)
def set_up(request, setup_batches) -> dict[str, ProbeOutcome]:
    return setup_batches[request.param]


def test_what_setup_loads_is_never_blamed_on_the_module(set_up, setup_tree):
    outcome = set_up["setup_only"]
    assert outcome.kind is ProbeOutcomeKind.CLEAN, outcome.detail
    assert outcome.loaded == ()
    hop = RuntimeHop("boot", "plugins.one", str(setup_tree / "boot.py"), 2)
    assert outcome.forbidden_before == (LoadedBefore("plugins.one", "boot:start", (hop,)),)
    assert outcome.module_before is None


def test_a_load_after_setup_is_reported_from_the_module_alone(set_up, setup_tree):
    outcome = set_up["setup_then_new"]
    assert outcome.kind is ProbeOutcomeKind.LOADED
    assert outcome.loaded == (
        LoadedForbidden(
            "plugins.two",
            (RuntimeHop("uses_two", "plugins.two", str(setup_tree / "uses_two.py"), 2),),
        ),
    )
    assert [item.module for item in outcome.forbidden_before] == ["plugins.one"]


def test_a_probed_module_that_setup_loaded_is_reported_as_such(set_up):
    before = set_up["module_loaded_by_setup"].module_before
    assert before is not None and (before.module, before.setup) == ("plugins.one", "boot:start")
    module_only = set_up["module_only_setup"]  # setup = ["boot"] imports boot, calls nothing
    assert module_only.kind is ProbeOutcomeKind.LOADED and module_only.forbidden_before == ()


def test_a_request_already_loaded_by_setup_imports_its_first_fallback_that_is_not(set_up):
    outcome = set_up["fallback"]
    assert (outcome.imported, outcome.kind, outcome.module_before) == (
        "plugins.two",
        ProbeOutcomeKind.LOADED,
        None,
    )
    assert [item.module for item in outcome.loaded] == ["plugins.two"]


def test_modules_loaded_at_interpreter_start_are_set_apart(set_up):
    outcome = set_up["startup"]
    assert outcome.kind is ProbeOutcomeKind.CLEAN
    assert outcome.forbidden_before == (LoadedBefore("os", ""),)


def test_env_reaches_the_child_and_nothing_else_of_ours_does(set_up):
    assert set_up["env_set"].kind is ProbeOutcomeKind.LOADED, set_up["env_set"].detail
    unset = set_up["env_unset"]
    assert unset.kind is ProbeOutcomeKind.IMPORT_FAILED
    assert "RuntimeError: PROBE_FLAVOUR is not mint" in unset.detail
    assert set_up["no_inherited_env"].kind is ProbeOutcomeKind.CLEAN


def test_a_failing_setup_is_reported_with_its_entry_and_traceback(set_up):
    failed = set_up["setup_fails"]
    assert (failed.kind, failed.failed_setup, failed.missing) == (
        ProbeOutcomeKind.SETUP_FAILED,
        "failing_boot:start",
        "",
    )
    assert "failing_boot.py" in failed.detail and "ValueError: boot-failed-xyz" in failed.detail
    missing = set_up["setup_misses"]
    assert (missing.kind, missing.failed_setup, missing.missing) == (
        ProbeOutcomeKind.SETUP_FAILED,
        "missing_boot",
        "not_installed_anywhere_xyz",
    )


@pytest.mark.skipif(not CAN_FORK, reason="the fork server needs os.fork")
def test_fork_server_and_fresh_interpreters_agree_on_env_and_setup(setup_batches):
    spawn, fork = setup_batches["spawn"], setup_batches["fork"]
    for name in spawn:
        a, b = spawn[name], fork[name]
        assert (
            a.kind,
            a.loaded,
            a.detail,
            a.missing,
            a.failed_setup,
            a.forbidden_before,
            a.module_before,
        ) == (
            b.kind,
            b.loaded,
            b.detail,
            b.missing,
            b.failed_setup,
            b.forbidden_before,
            b.module_before,
        ), name


# --------------------------------------------------------------------------- other interpreters

PORTABLE_CASES = (
    "clean",
    "chain",
    "parent_of_probe",
    "parent_of_import",
    "dynamic",
    "failing",
    "torchy",
    "vandal",
    "wild_many",
    "itself",
    "sysexit4",
)


def _comparable(outcome: ProbeOutcome) -> tuple:
    return (
        outcome.kind,
        outcome.loaded,
        outcome.missing,
        outcome.failed_setup,
        outcome.forbidden_before,
        outcome.module_before,
    )


@pytest.mark.parametrize("version", OTHER_VERSIONS)
def test_the_child_runs_under_other_python_versions_with_the_same_outcomes(
    version, tree, setup_tree, batches, setup_batches
):
    python = other_pythons().get(version)
    if python is None:
        pytest.skip(f"no Python {version} here")
    main = _cases(str(tree))
    here = {name: batches[MODES[-1]][name] for name in PORTABLE_CASES}
    requests = [dataclasses.replace(main[name], python=python) for name in PORTABLE_CASES]
    set_up_here = setup_batches[MODES[-1]]
    set_up_there = _setup_cases(str(setup_tree), python)
    for mode in MODES:
        outcomes = run_probes(requests + list(set_up_there.values()), jobs=2, isolation=mode)
        there = dict(zip(PORTABLE_CASES, outcomes))
        for name in PORTABLE_CASES:
            assert _comparable(there[name]) == _comparable(here[name]), (
                mode,
                name,
                there[name].detail,
            )
        for name, outcome in zip(set_up_there, outcomes[len(requests) :]):
            assert _comparable(outcome) == _comparable(set_up_here[name]), (
                mode,
                name,
                outcome.detail,
            )
        assert "boom-xyz" in there["failing"].detail


@pytest.mark.skipif(not other_pythons(), reason="no other Python version here")
def test_one_batch_runs_each_request_in_its_own_interpreter(tmp_path):
    (tmp_path / "which.py").write_text(
        'import importlib, sys\nimportlib.import_module("marker_%d_%d" % sys.version_info[:2])\n'
    )
    markers = [f"marker_{v.replace('.', '_')}" for v in ("3.10", "3.11", "3.12", "3.13", "3.14")]
    for marker in markers:
        (tmp_path / f"{marker}.py").write_text("")
    pythons = ["", *other_pythons().values()]
    requests = [
        ProbeRequest("which", tuple(markers), (), (str(tmp_path),), 20.0, python)
        for python in pythons
    ]
    outcomes = run_probes(requests, jobs=2)
    seen = [outcome.loaded[0].module for outcome in outcomes]
    expected = [f"marker_{sys.version_info[0]}_{sys.version_info[1]}"] + [
        f"marker_{v.replace('.', '_')}" for v in other_pythons()
    ]
    assert seen == expected


def test_the_child_file_imports_nothing_of_layering():
    tree_ = ast.parse(Path(probe_runner.CHILD_SCRIPT).read_text(encoding="utf-8"))
    imported = {
        alias.name
        for node in ast.walk(tree_)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    imported |= {node.module for node in ast.walk(tree_) if isinstance(node, ast.ImportFrom)}
    assert imported <= {"marshal", "os", "sys", "select", "time", "traceback", "gc"}, imported


# --------------------------------------------------------------------------- choosing the
# interpreter


def test_find_interpreter_keeps_a_venv_path_and_checks_it_once(tmp_path):
    link = tmp_path / "bin" / "python"
    link.parent.mkdir()
    link.symlink_to(sys.executable)
    assert probe_runner.find_interpreter("bin/python", str(tmp_path)) == str(link)  # not resolved
    assert str(link) in probe_runner._INTERPRETER_VERSIONS


@pytest.mark.parametrize(
    ("setup", "reason"),
    [
        ("missing", "does not exist"),
        ("directory", "is a directory, not an interpreter"),
        ("not_executable", "is not executable"),
        ("not_python", "is not a Python interpreter that runs here (it said: -I -B -c"),
        ("too_old", "is Python 3.8; probes run in Python 3.10 or newer"),
        ("bare_name", "is not found on PATH"),
    ],
)
def test_an_interpreter_that_cannot_run_probes_is_refused_with_the_reason(tmp_path, setup, reason):
    target = tmp_path / "python"
    if setup == "directory":
        target.mkdir()
    elif setup == "not_executable":
        target.write_text("#!/bin/sh\n")
    elif setup == "not_python":
        target.write_text('#!/bin/sh\necho "$@"\n')
        target.chmod(0o755)
    elif setup == "too_old":
        target.write_text("#!/bin/sh\nprintf 3.8\n")
        target.chmod(0o755)
    text = "no-such-python-xyz" if setup == "bare_name" else "./python"
    with pytest.raises(probe_runner.InterpreterUnusable, match=re.escape(reason)):
        probe_runner.find_interpreter(text, str(tmp_path))


@pytest.mark.skipif(not CAN_FORK, reason="the fork server needs os.fork")
# With a thread left running, the server refuses to fork after its one run: each child runs it.
@pytest.mark.parametrize(
    ("entry", "runs"), [("counted:start", 1), ("counted:start_with_thread", 1 + 4)]
)
def test_a_fork_server_runs_a_setup_once_unless_it_leaves_threads(tmp_path, entry, runs):
    (tmp_path / "counted.py").write_text(
        "import os, threading, time\n"
        "def start():\n"
        '    with open(os.environ["COUNT_FILE"], "a") as file:\n'
        '        file.write("x")\n'
        "    import plugins.one\n"
        "def start_with_thread():\n"
        "    start()\n"
        "    threading.Thread(target=time.sleep, args=(60,), daemon=True).start()\n"
    )
    for name, text in SETUP_FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    count = tmp_path / "count"
    env = (("COUNT_FILE", str(count)),)
    requests = [
        ProbeRequest(
            module, ("plugins.one", "plugins.two"), (), (str(tmp_path),), 20.0, "", env, (entry,)
        )
        for module in ("uses_one", "uses_two", "uses_one", "uses_two")
    ]
    outcomes = run_probes(requests, jobs=2, isolation="fork")
    assert count.read_text() == "x" * runs
    assert [o.kind for o in outcomes] == [ProbeOutcomeKind.CLEAN, ProbeOutcomeKind.LOADED] * 2
    assert all(o.forbidden_before and o.forbidden_before[0].setup == entry for o in outcomes)
