"""The bundled model of tensorrt_llm.serve: every contract kept, and each broken one way at a time.

Each test copies the model into tmp_path, makes one edit, and asserts the exact line the CLI
prints and the exit code.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


SERVE = "examples/serve/tensorrt_llm/serve"


@pytest.fixture
def model(project):
    shutil.copytree(
        REPO / "examples", project.root / "examples", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copy(REPO / "contracts.toml", project.root / "contracts.toml")
    return project


def edit(model, relative: str, old: str, new: str) -> None:
    path = model.root / relative
    text = path.read_text()
    assert old in text, f"{old!r} not in {relative}"
    path.write_text(text.replace(old, new, 1))


def append(model, relative: str, text: str) -> int:
    """Append `text` to a file; return the line number of its first line."""
    path = model.root / relative
    before = path.read_text()
    if not before.endswith("\n"):
        before += "\n"
    path.write_text(before + text)
    return before.count("\n") + 1


def allow_responses_done_generator(model) -> None:
    """The seed's one allowance, as the contract had it before the refactor."""
    path = model.root / "contracts.toml"
    text = path.read_text()
    start = text.index('id = "disagg-no-responses-utils"')
    position = text.index("allow = []", start)
    path.write_text(
        text[:position]
        + 'allow = [{ importer = "tensorrt_llm.serve.openai_disagg_service", module = '
        '"tensorrt_llm.serve.responses_utils", names = ["responses_done_generator"] }]'
        + text[position + len("allow = []") :]
    )


def test_every_contract_is_kept_on_the_model(model):
    result = model.check("--no-probe")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 8 kept, 0 broken; 2 probe contracts skipped." in result.stdout
    assert "BROKEN" not in result.stdout


def test_module_level_import_breaks_the_disaggregated_contract(model):
    line = append(
        model,
        f"{SERVE}/openai_client.py",
        "from tensorrt_llm.serve.responses_utils import ResponsesStreamingProcessor\n",
    )
    result = model.check("--no-probe", "--contract", "disagg-no-responses-utils")
    assert result.returncode == 1
    assert (
        f"  {SERVE}/openai_client.py:{line}: LY001 tensorrt_llm.serve.openai_client imports "
        "tensorrt_llm.serve.responses_utils (ResponsesStreamingProcessor)\n"
    ) in result.stdout


def test_function_level_import_counts(model):
    line = append(
        model,
        f"{SERVE}/router.py",
        "def helper():\n    from tensorrt_llm.serve.responses_utils import "
        "responses_done_generator\n",
    )
    result = model.check("--no-probe", "--contract", "disagg-no-responses-utils")
    assert result.returncode == 1
    assert (
        f"  {SERVE}/router.py:{line + 1}: LY001 tensorrt_llm.serve.router imports "
        "tensorrt_llm.serve.responses_utils (responses_done_generator) [function-level]\n"
    ) in result.stdout


def test_from_package_import_submodule_is_an_import_of_the_submodule(model):
    line = append(
        model,
        f"{SERVE}/openai_disagg_service.py",
        "from tensorrt_llm.serve import responses_utils\n",
    )
    result = model.check("--no-probe", "--contract", "disagg-no-responses-utils")
    assert result.returncode == 1
    assert (
        f"  {SERVE}/openai_disagg_service.py:{line}: LY001 "
        "tensorrt_llm.serve.openai_disagg_service imports "
        "tensorrt_llm.serve.responses_utils\n"
    ) in result.stdout


def test_relative_parent_import_of_a_submodule_breaks_the_leaf(model):
    line = append(model, f"{SERVE}/_base/responses_stream.py", "from .. import openai_server\n")
    result = model.check("--no-probe", "--contract", "responses-stream-leaf")
    assert result.returncode == 1
    assert (
        f"  {SERVE}/_base/responses_stream.py:{line}: LY003 "
        "tensorrt_llm.serve._base.responses_stream imports "
        "tensorrt_llm.serve.openai_server\n"
    ) in result.stdout


def test_a_fifth_name_from_executor_utils_breaks_the_leaf_at_its_own_line(model):
    path = model.root / SERVE / "_base/responses_stream.py"
    lines = path.read_text().splitlines(keepends=True)
    position = next(i for i, text in enumerate(lines) if text.strip() == "RequestError,")
    lines.insert(position + 1, "    RequestOutput,\n")
    path.write_text("".join(lines))
    result = model.check("--no-probe", "--contract", "responses-stream-leaf")
    assert result.returncode == 1
    assert result.stdout.count(" LY003 ") == 1
    assert (
        f"  {SERVE}/_base/responses_stream.py:{position + 2}: LY003 "
        "tensorrt_llm.serve._base.responses_stream imports "
        "tensorrt_llm.executor.utils (RequestOutput)\n"
    ) in result.stdout


def test_a_stale_allowance_breaks_its_contract_and_says_remove_it(model):
    allow_responses_done_generator(model)
    result = model.check("--no-probe", "--contract", "disagg-no-responses-utils")
    assert result.returncode == 1
    line = next(
        i
        for i, t in enumerate((model.root / "contracts.toml").read_text().splitlines(), 1)
        if t.startswith("allow = [{ importer")
    )
    assert (
        f"  contracts.toml:{line}: LY030 allowance 'tensorrt_llm.serve.openai_disagg_service -> "
        "tensorrt_llm.serve.responses_utils (responses_done_generator)' matches no import: "
        "remove it (allowances only shrink)\n"
    ) in result.stdout


def test_the_seed_before_the_refactor_needs_the_allowance(model):
    """Before the refactor, openai_disagg_service took responses_done_generator from
    responses_utils."""
    line = append(
        model,
        f"{SERVE}/openai_disagg_service.py",
        "from tensorrt_llm.serve.responses_utils import responses_done_generator\n",
    )
    broken = model.check("--no-probe", "--contract", "disagg-no-responses-utils")
    assert broken.returncode == 1
    assert f"openai_disagg_service.py:{line}: LY001" in broken.stdout
    allow_responses_done_generator(model)
    kept = model.check("--no-probe", "--contract", "disagg-no-responses-utils")
    assert kept.returncode == 0, kept.stdout
    append(
        model,
        f"{SERVE}/openai_disagg_service.py",
        "from tensorrt_llm.serve.responses_utils import ResponsesStreamingProcessor\n",
    )
    other_name = model.check("--no-probe", "--contract", "disagg-no-responses-utils")
    assert other_name.returncode == 1
    assert "responses_utils (ResponsesStreamingProcessor)" in other_name.stdout
    assert "responses_done_generator" not in other_name.stdout


def test_expect_broken_on_a_kept_contract_fails_and_says_remove_it(model):
    edit(
        model,
        "contracts.toml",
        'id = "api-endpoints-contained"',
        'id = "api-endpoints-contained"\nexpect = "broken"',
    )
    result = model.check("--no-probe", "--contract", "api-endpoints-contained")
    assert result.returncode == 1
    assert "KEPT (expected broken)" in result.stdout
    line = next(
        i
        for i, t in enumerate((model.root / "contracts.toml").read_text().splitlines(), 1)
        if t.startswith('expect = "broken"')
    )
    assert (
        f'  contracts.toml:{line}: LY031 contract is kept but says expect = "broken": remove the '
        "expectation\n" in result.stdout
    )


def test_endpoint_package_importing_the_api_package_is_a_violation(model):
    line = append(
        model,
        f"{SERVE}/api/ops/system/router.py",
        "from tensorrt_llm.serve import api\nfrom tensorrt_llm.serve.api.ops import system\n",
    )
    result = model.check("--no-probe", "--contract", "api-endpoints-contained")
    assert result.returncode == 1
    assert (
        f"  {SERVE}/api/ops/system/router.py:{line}: LY004 "
        "tensorrt_llm.serve.api.ops.system.router imports "
        "tensorrt_llm.serve.api, outside its package tensorrt_llm.serve.api.ops.system\n"
    ) in result.stdout
    assert f"router.py:{line + 1}:" not in result.stdout


def test_a_grpc_import_outside_the_allow_list_breaks(model):
    line = append(model, f"{SERVE}/openai_server.py", "import grpc.aio\n")
    result = model.check("--no-probe", "--contract", "grpc-allowlist")
    assert result.returncode == 1
    assert (
        f"  {SERVE}/openai_server.py:{line}: LY001 tensorrt_llm.serve.openai_server imports "
        "grpc.aio\n" in result.stdout
    )
    assert "neither installed here nor imported" not in result.stdout


MOVED = "moved-out-of-responses-utils"
RESPONSES_UTILS = "tensorrt_llm.serve.responses_utils"


def moved_findings(result) -> list[str]:
    return [line for line in result.stdout.splitlines() if " LY005 " in line]


@pytest.mark.parametrize(
    ("file", "text", "offset", "found"),
    [
        (
            "openai_client.py",
            f"from {RESPONSES_UTILS} import guard_responses_stream, rejected_responses_stream\n",
            0,
            f"tensorrt_llm.serve.openai_client imports {RESPONSES_UTILS} (guard_responses_stream)",
        ),
        (
            "router.py",
            f"def helper():\n    from {RESPONSES_UTILS} import responses_done_generator\n",
            1,
            f"tensorrt_llm.serve.router imports {RESPONSES_UTILS} (responses_done_generator) "
            "[function-level]",
        ),
        (
            "disagg_app.py",
            f"import {RESPONSES_UTILS} as ru\n\nKEEPALIVE = "
            "ru.keep_responses_stream_alive\nREJECT = ru.rejected_responses_stream\n",
            2,
            f"tensorrt_llm.serve.disagg_app imports {RESPONSES_UTILS} "
            "(keep_responses_stream_alive) [attribute]",
        ),
    ],
    ids=["module-level-import", "function-level-import", "attribute-through-an-alias"],
)
def test_a_moved_name_taken_from_the_old_module_breaks_the_moved_names_rule(
    model, file, text, offset, found
):
    line = append(model, f"{SERVE}/{file}", text)
    result = model.check("--no-probe", "--contract", MOVED)
    assert result.returncode == 1
    assert moved_findings(result) == [f"  {SERVE}/{file}:{line + offset}: LY005 {found}"]


def test_monkeypatching_a_moved_name_on_the_old_module_in_a_test_file_is_a_patch(model):
    """The seed: such a patch no longer reaches the keepalive; patch _base.responses_stream."""
    (model.root / SERVE / "test_keepalive.py").write_text(
        "from tensorrt_llm.serve import responses_utils\n"
        "\n"
        "\n"
        "def test_keepalive(monkeypatch):\n"
        '    monkeypatch.setattr(responses_utils, "RESPONSES_STREAM_KEEPALIVE_INTERVAL_S", 0.01)\n'
    )
    result = model.check("--no-probe", "--contract", MOVED)
    assert result.returncode == 1
    assert moved_findings(result) == [
        f"  {SERVE}/test_keepalive.py:5: LY005 tensorrt_llm.serve.test_keepalive imports "
        f"{RESPONSES_UTILS} (RESPONSES_STREAM_KEEPALIVE_INTERVAL_S) [patch, function-level]"
    ]


def test_names_that_stay_in_responses_utils_may_still_be_taken_from_it(model):
    append(
        model,
        f"{SERVE}/router.py",
        f"from {RESPONSES_UTILS} import rejected_responses_stream\nimport {RESPONSES_UTILS} as "
        "ru\nX = ru.ResponsesStreamingProcessor\n",
    )
    result = model.check("--no-probe", "--contract", MOVED)
    assert result.returncode == 0, result.stdout


def test_the_moved_names_the_old_module_no_longer_defines_are_a_note_not_a_failure(model):
    result = model.check("--no-probe", "--contract", MOVED, "--format", "json")
    assert result.returncode == 0
    line = next(
        i
        for i, t in enumerate((model.root / "contracts.toml").read_text().splitlines(), 1)
        if t.startswith("forbidden_names")
    )
    notes = [
        w
        for w in json.loads(result.stdout)["warnings"]
        if MOVED in w or "moved stream lifecycle" in w
    ]
    assert len(notes) == 1
    assert notes[0].startswith(
        f"contracts.toml:{line}: contract 'The moved stream lifecycle is taken from "
        "serve/_base/responses_stream, never from responses_utils': "
    )
    assert (
        "'tensorrt_llm.serve.responses_utils' does not define 'STREAM_TERMINATION_ENGINE_ERROR', "
        in notes[0]
    )
    assert (
        "'STREAM_TERMINATION_CONTEXT_LENGTH_EXCEEDED'" not in notes[0]
    )  # imported back by responses_utils itself
    assert (
        "(12 of its 13 names); a note, not a failure: keep the rule so they do not come back, "
        "retire it, or fix a misspelt name" in notes[0]
    )
    text = model.check("--no-probe", "--contract", MOVED)
    assert f"layering: warning: {notes[0]}\n" in text.stderr
    assert "[moved-out-of-responses-utils] KEPT\n" in text.stdout


def test_a_chain_into_a_server_shows_the_import_to_cut_with_its_chain(model):
    line = append(
        model, f"{SERVE}/_base/routing.py", "from tensorrt_llm.serve import http_fleet\n"
    )
    result = model.check("--no-probe", "--contract", "base-no-servers-no-api")
    assert result.returncode == 1
    targets = (
        "tensorrt_llm.serve.openai_server, tensorrt_llm.serve.openai_disagg_server, "
        "tensorrt_llm.serve.api"
    )
    assert result.stdout.splitlines()[2:7] == [
        f"  1 chain from tensorrt_llm.serve._base to {targets}; removing this import keeps the "
        "contract:",
        f"  {SERVE}/http_fleet.py:47: LY002 tensorrt_llm.serve.http_fleet imports "
        "tensorrt_llm.serve.openai_server (OpenAIServer) [function-level]",
        "    the chain:",
        f"      {SERVE}/_base/routing.py:{line}: tensorrt_llm.serve._base.routing -> "
        "tensorrt_llm.serve.http_fleet",
        f"      {SERVE}/http_fleet.py:47: tensorrt_llm.serve.http_fleet -> "
        "tensorrt_llm.serve.openai_server (OpenAIServer) [function-level]",
    ]


def test_two_routes_into_the_servers_need_two_imports_cut(model):
    first = append(
        model, f"{SERVE}/_base/routing.py", "from tensorrt_llm.serve import http_fleet\n"
    )
    append(
        model, f"{SERVE}/_base/latency_logger.py", "from tensorrt_llm.serve import disagg_app\n"
    )
    result = model.check("--no-probe", "--contract", "base-no-servers-no-api", "--format", "json")
    (contract,) = json.loads(result.stdout)["contracts"]
    assert [(g["chains"], g["cut"]) for g in contract["chain_groups"]] == [(2, 2)]
    assert sorted(
        (c["importer"], c["imported"], c["path"], c["lines"]) for c in contract["cut"]
    ) == [
        (
            "tensorrt_llm.serve.disagg_app",
            "tensorrt_llm.serve.openai_disagg_server",
            f"{SERVE}/disagg_app.py",
            [9],
        ),
        (
            "tensorrt_llm.serve.http_fleet",
            "tensorrt_llm.serve.openai_server",
            f"{SERVE}/http_fleet.py",
            [47],
        ),
    ]
    assert (
        contract["cut"][1]["chain"][0]["line"] == first
        or contract["cut"][0]["chain"][0]["line"] == first
    )


RECORDED_SERVE_INIT = "from .openai_server import OpenAIServer\n\n__all__ = ['OpenAIServer']\n"
"""serve/__init__.py as recorded before the refactor (commit 06255cb): one eager import, line 1."""

DISAGGREGATED = (
    "disagg_coordinator",
    "openai_client",
    "openai_disagg_service",
    "openai_service",
    "router",
)


def line_of(model, relative: str, statement: str) -> int:
    lines = (model.root / relative).read_text().splitlines()
    return lines.index(statement) + 1


def chains(stdout: str, code: str) -> dict[str, list[str]]:
    """Importing module -> its chain as `path:line: importer -> imported`, names left out."""
    found: dict[str, list[str]] = {}
    current = None
    for line in stdout.splitlines():
        if line.startswith("  ") and not line.startswith("    "):
            current = (
                line.split(f" {code} importing ")[1].split()[0]
                if f" {code} importing " in line
                else None
            )
            if current:
                found[current] = []
        elif line.startswith("    ") and current:
            found[current].append(line.strip().split(" (")[0])
    return found


def test_loads_sees_the_eager_serve_init_statically_where_the_probe_does(model):
    """The seed's history: the recorded serve/__init__.py loads openai_server, and with it
    responses_utils, into every disaggregated module; the loads contract names the chain the
    probe records (recorded at serve/__init__.py:1 -> openai_server.py:68 ->
    postprocess_handlers.py:5; the model keeps the statements, not their line numbers)."""
    (model.root / SERVE / "__init__.py").write_text(RECORDED_SERVE_INIT)
    static = model.check("--no-probe", "--contract", "disagg-loads-no-responses-utils")
    runtime = model.check("--contract", "disagg-probe-no-responses-utils")
    assert static.returncode == 1, static.stdout + static.stderr
    assert runtime.returncode == 1, runtime.stdout + runtime.stderr
    server = line_of(
        model, f"{SERVE}/openai_server.py", "from tensorrt_llm.serve.postprocess_handlers import ("
    )
    handlers = line_of(
        model,
        f"{SERVE}/postprocess_handlers.py",
        "from tensorrt_llm.serve.responses_utils import ResponsesStreamingProcessor",
    )
    expected = [
        f"{SERVE}/__init__.py:1: tensorrt_llm.serve -> tensorrt_llm.serve.openai_server",
        f"{SERVE}/openai_server.py:{server}: tensorrt_llm.serve.openai_server -> "
        "tensorrt_llm.serve.postprocess_handlers",
        f"{SERVE}/postprocess_handlers.py:{handlers}: tensorrt_llm.serve.postprocess_handlers -> "
        "tensorrt_llm.serve.responses_utils",
    ]
    modules = [f"tensorrt_llm.serve.{name}" for name in DISAGGREGATED]
    assert chains(static.stdout, "LY026") == {module: expected for module in modules}
    assert chains(runtime.stdout, "LY020") == {module: expected for module in modules}
    for module in modules:
        assert (
            f"  {SERVE}/__init__.py:1: LY026 importing {module} loads "
            "tensorrt_llm.serve.responses_utils "
            "through its parent package tensorrt_llm.serve\n"
        ) in static.stdout


def test_loads_is_kept_with_the_lazy_serve_init(model):
    result = model.check("--no-probe", "--contract", "disagg-loads-no-responses-utils")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "[disagg-loads-no-responses-utils] KEPT" in result.stdout


def test_the_audit_finds_loads_enough_for_the_models_probes(model):
    """Every probe of the model is reproduced from the source, before the refactor and after."""
    expected = (
        "contract                         modules  agree  runtime only  source only  errors  "
        "loads alone\n"
        "disagg-probe-no-responses-utils        5      5             0            0       0  "
        "loads is enough\n"
        "disagg-server-probe-control            1      1             0            0       0  "
        "loads is enough\n"
    )
    after = model.layering("audit", "--format", "table")
    assert (after.returncode, after.stdout) == (0, expected), after.stderr
    (model.root / SERVE / "__init__.py").write_text(RECORDED_SERVE_INIT)
    before = model.layering("audit", "--format", "table")
    assert (before.returncode, before.stdout) == (0, expected), before.stderr
