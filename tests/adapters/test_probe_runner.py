"""The runtime probe, for real: little packages in a temporary directory, real child interpreters.

Most cases run in one batch per isolation mode (a module-scoped fixture), so the whole file
pays for two batches plus a few small ones; each test then reads the outcome it is about.
"""

from __future__ import annotations

import os
import subprocess
import textwrap
import time
from pathlib import Path

import pytest

from layering.adapters import probe_runner
from layering.adapters.probe_runner import run_probes
from layering.domain.probes import ProbeOutcome, ProbeOutcomeKind, ProbeRequest, RuntimeHop

CAN_FORK = hasattr(os, "fork") and os.name == "posix"
MODES = ["spawn", "fork"] if CAN_FORK else ["spawn"]

FILES = {
    "app/__init__.py": "",
    "app/bad.py": "BAD = True\n",
    "app/clean.py": "import json\nx = 1\n",
    "app/top.py": '"""Top."""\nimport os\nimport app.mid\n',
    "app/mid.py": "# the middle\nimport app.bad\n",
    "heavypkg/__init__.py": "import app.bad\n",
    "heavypkg/leaf.py": "x = 1\n",
    "app/uses_sub.py": "x = 0\nimport heavypkg.leaf\n",
    "app/dynamic.py": 'import importlib\nsuffix = "bad"\nmodule = importlib.import_module("app." + suffix)\n',
    "app/failing.py": 'x = 1\nraise ValueError("boom-xyz")\n',
    "app/hang.py": "import time\nwhile True:\n    time.sleep(0.05)\n",
    "app/exit3.py": 'import os, sys\nsys.stderr.write("dying-words\\n")\nsys.stderr.flush()\nos._exit(3)\n',
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
    assert _hops(outcome, "app.bad") == (RuntimeHop("heavypkg", "app.bad", str(tree / "heavypkg" / "__init__.py"), 1),)


def test_loaded_by_the_parent_package_of_an_imported_submodule(outcomes, tree):
    outcome = outcomes["parent_of_import"]
    assert outcome.kind is ProbeOutcomeKind.LOADED
    assert _hops(outcome, "app.bad") == (
        RuntimeHop("app.uses_sub", "heavypkg", str(tree / "app" / "uses_sub.py"), 2, via_parent=True),
        RuntimeHop("heavypkg", "app.bad", str(tree / "heavypkg" / "__init__.py"), 1),
    )


def test_import_module_with_a_computed_name_points_at_the_call(outcomes, tree):
    outcome = outcomes["dynamic"]
    assert outcome.kind is ProbeOutcomeKind.LOADED
    assert _hops(outcome, "app.bad") == (RuntimeHop("app.dynamic", "app.bad", str(tree / "app" / "dynamic.py"), 3),)


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
    assert _hops(outcome, "app.bad") == (RuntimeHop("app.vandal", "app.bad", str(tree / "app" / "vandal.py"), 2),)
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
        assert (a.module, a.kind, a.loaded, a.detail) == (b.module, b.kind, b.loaded, b.detail), name


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
    ],
)
def test_names_that_are_not_dotted_never_reach_a_child(monkeypatch, field, value):
    def no_child(*args, **kwargs):
        raise AssertionError("a child was started")

    monkeypatch.setattr(subprocess, "Popen", no_child)
    fields = {"module": "fine.module", "forbidden": ("ok.pattern",), "stubs": ()}
    fields[field] = value
    good = ProbeRequest("fine.other", ("x",))
    with pytest.raises(ValueError):
        run_probes([good, ProbeRequest(**fields)], isolation="spawn")  # type: ignore[arg-type]


@pytest.mark.skipif(not CAN_FORK, reason="the fork server needs os.fork")
def test_a_module_that_kills_its_fork_server_crashes_alone(tmp_path):
    (tmp_path / "parricide.py").write_text("import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n")
    (tmp_path / "fine.py").write_text("")
    roots = (str(tmp_path),)
    killer, fine = ProbeRequest("parricide", ("x",), (), roots), ProbeRequest("fine", ("x",), (), roots)
    outcomes = run_probes([killer, fine, killer, fine], jobs=1, isolation="fork")
    assert [o.kind for o in outcomes] == [ProbeOutcomeKind.CRASHED, ProbeOutcomeKind.CLEAN] * 2
    assert "fork server failed" in outcomes[0].detail


def test_progress_reports_each_completed_probe(tree):
    seen = []
    requests = [ProbeRequest("app.clean", ("app.bad",), (), (str(tree),))] * 3
    outcomes = run_probes(requests, jobs=2, progress=lambda done, total: seen.append((done, total)))
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
    if forbidden == "threading":
        assert by_module["uses_logging"].kind is ProbeOutcomeKind.LOADED
        assert [h.imported for h in by_module["uses_logging"].loaded[0].chain] == ["logging", "threading"]


@pytest.mark.skipif(not CAN_FORK, reason="the fork server needs os.fork")
def test_a_fork_server_preloads_nothing_the_batch_forbids(tree):
    for forbidden in ("json", "threading", "email.*"):
        config = probe_runner._server_config(_prelude_cases(tree, forbidden), probe_runner.DEFAULT_PRELUDE)
        server = probe_runner._ForkServers(config)
        for slot in server.start(2):
            slot.close()
        pattern = probe_runner.ModulePattern.parse(forbidden)
        assert not [m for m in server.preloaded if pattern.covers(m)]
        if forbidden == "json":
            assert "asyncio" in server.preloaded  # a prelude there is, just without json
        if forbidden == "threading":
            assert server.prelude_problems  # logging & co pull it in: no prelude at all
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
