"""`typing_only = "allow"`: an import only annotations that are not evaluated at run time need
is allowed, without a `TYPE_CHECKING` guard; where they are evaluated, it counts.

Each test runs the real CLI on a small package, in every output format, cached and not (an
edit of a function body that starts using the name at run time included), and `explain`
marks such a statement `typing-only`.
"""

from __future__ import annotations

import json

import pytest
from report_support import run_layering, write_files

PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/models.py": "class Model: ...\n",
    "src/app/views.py": "from app import services\n",
    # Annotations are not evaluated: typing-only.
    "src/app/services.py": (
        "from __future__ import annotations\n"
        "\n"
        "from app.models import Model\n"
        "\n"
        "\n"
        "def save(model: Model) -> Model:\n"
        "    return model\n"
    ),
    # A string annotation: typing-only, without the __future__ import.
    "src/app/forms.py": 'from app.models import Model\n\n\ndef clean(model: "Model") -> None: '
    "...\n",
    # Evaluated when the function is defined: it counts.
    "src/app/admin.py": "from app.models import Model\n\n\ndef register(model: Model) -> None: "
    "...\n",
}

HEADER = 'root_packages = ["app"]\nsource_roots = ["src"]\n'

DIRECT = """
[[contracts]]
id = "no-models-direct"
name = "Only the admin imports the models"
type = "forbidden"
source_modules = ["app.services", "app.forms", "app.admin"]
forbidden_modules = ["app.models"]
allow_indirect_imports = true
"""

CHAINS = """
[[contracts]]
id = "views-no-models"
name = "The views do not reach the models"
type = "forbidden"
source_modules = ["app.views"]
forbidden_modules = ["app.models"]
"""

LEAF = """
[[contracts]]
id = "forms-leaf"
name = "The forms import nothing of the models"
type = "leaf"
modules = ["app.forms", "app.services"]
within = ["app.models"]
"""

LAYERS = """
[[contracts]]
id = "layers"
name = "Models above services"
type = "layers"
layers = ["app.models", "app.services"]
"""

ALLOW = 'typing_only = "allow"\n'


def _project(tmp_path, *contracts: str, files: dict[str, str] | None = None):
    return write_files(
        tmp_path, {**PACKAGE, **(files or {}), "contracts.toml": HEADER + "".join(contracts)}
    )


def _findings(stdout: str) -> list[str]:
    return [line.strip() for line in stdout.splitlines() if ": LY0" in line]


def test_by_default_a_typing_only_import_counts(tmp_path):
    run = run_layering(_project(tmp_path, DIRECT), "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    assert len(_findings(run.stdout)) == 3


def test_allowed_typing_only_imports_and_the_evaluated_one_that_counts(tmp_path):
    run = run_layering(_project(tmp_path, DIRECT + ALLOW), "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    assert _findings(run.stdout) == [
        "src/app/admin.py:1: LY001 app.admin imports app.models (Model)"
    ]


def test_a_chain_through_a_typing_only_import_is_no_chain(tmp_path):
    broken = run_layering(_project(tmp_path, CHAINS), "check", "--no-cache")
    assert broken.returncode == 1, broken.stdout + broken.stderr
    run = run_layering(_project(tmp_path, CHAINS + ALLOW), "check", "--no-cache")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "[views-no-models] KEPT" in run.stdout


def test_leaf_and_an_import_linter_type_allow_them_too(tmp_path):
    run = run_layering(_project(tmp_path, LEAF + ALLOW, LAYERS + ALLOW), "check", "--no-cache")
    assert run.returncode == 0, run.stdout + run.stderr
    counted = run_layering(_project(tmp_path, LEAF, LAYERS), "check", "--no-cache")
    assert counted.returncode == 1
    assert "src/app/services.py:3: LY011 app.services imports app.models (Model)" in counted.stdout


@pytest.mark.parametrize("format", ["text", "json", "github", "sarif"])
def test_every_format_is_the_same_cached_and_not(tmp_path, format):
    root = _project(tmp_path, DIRECT + ALLOW, CHAINS + ALLOW, LEAF + ALLOW, LAYERS + ALLOW)
    runs = [run_layering(root, "check", "--format", format) for _ in range(2)]
    fresh = run_layering(root, "check", "--format", format, "--no-cache")
    assert (tmp_path / ".layering_cache").is_dir()
    assert fresh.returncode == 1, fresh.stdout + fresh.stderr
    for run in runs:
        assert (run.returncode, run.stdout) == (fresh.returncode, fresh.stdout)
    assert "app/services.py" not in fresh.stdout
    assert "app/admin.py" in fresh.stdout


def test_a_cached_verdict_follows_a_body_edit_that_uses_the_name_at_run_time(tmp_path):
    root = _project(tmp_path, CHAINS + ALLOW)
    assert run_layering(root, "check").returncode == 0
    services = root / "src/app/services.py"
    services.write_text(services.read_text().replace("return model", "return Model()"))
    cached, fresh = run_layering(root, "check"), run_layering(root, "check", "--no-cache")
    assert (cached.returncode, cached.stdout) == (fresh.returncode, fresh.stdout)
    assert fresh.returncode == 1
    assert "src/app/services.py:3: LY002 app.services imports app.models (Model)" in fresh.stdout


def test_explain_marks_a_typing_only_statement(tmp_path):
    root = _project(tmp_path, CHAINS)
    run = run_layering(root, "explain", "app.views", "app.models")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "src/app/services.py:3: app.services -> app.models (Model) [typing-only]" in run.stdout
    assert 'a contract with typing_only = "allow" allows it' in run.stdout
    document = json.loads(
        run_layering(root, "explain", "app.views", "app.models", "--format", "json").stdout
    )
    assert "typing-only" in document["cut"][0]["qualifiers"]
    evaluated = run_layering(root, "explain", "app.admin", "app.models")
    assert "typing-only" not in evaluated.stdout


def test_a_wrong_value_is_a_located_error(tmp_path):
    root = _project(tmp_path, DIRECT + 'typing_only = "ignore"\n')
    run = run_layering(root, "check")
    assert run.returncode == 2, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    line = (HEADER + DIRECT).count("\n") + 1
    assert f"contracts.toml:{line}:" in run.stderr
    assert 'typing_only takes "count" or "allow", got \'ignore\'' in run.stderr
