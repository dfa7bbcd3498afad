"""`interface`: outside a package, import only what it exports (its `__all__`, read statically,
or `public = [...]`).

Each test runs the real CLI on a small package shaped as Django builds `django.db.models`: an
`__all__` summed from a submodule's `__all__` and literals.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from report_support import run_layering, write_files

MODELS_INIT = """\
from app.db.models import signals
from app.db.models.fields import *  # NOQA
from app.db.models.fields import __all__ as fields_all
from app.db.models import enums
from app.db.models.base import Model, _registry

__all__ = fields_all + enums.__all__ + ["Model"]
__all__ += ["signals"]
"""

PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/db/__init__.py": "",
    "src/app/db/models/__init__.py": MODELS_INIT,
    "src/app/db/models/fields/__init__.py": (
        '__all__ = ("CharField", "IntegerField")\nCharField = IntegerField = object\n'
    ),
    "src/app/db/models/fields/related.py": "ForeignKey = object\n",
    "src/app/db/models/enums.py": '__all__ = ["Choices"]\nChoices = object\n',
    "src/app/db/models/base.py": "Model = object\n_registry = {}\n",
    "src/app/db/models/signals.py": "post_save = object\n",
    "src/app/db/models/sql/__init__.py": "",
    "src/app/db/models/sql/query.py": "from app.db.models import base\nQuery = object\n",
    "src/app/web/__init__.py": "",
    "src/app/web/views.py": (
        "from typing import TYPE_CHECKING\n"
        "\n"
        "from app.db import models\n"
        "from app.db.models import Model, CharField, Choices, signals\n"
        "from app.db.models import _registry, base\n"
        "from app.db.models.fields.related import ForeignKey\n"
        "import app.db.models.sql.query\n"
        "from app.db.models.signals import post_save\n"
        "from app.db.models import *\n"
        "\n"
        "if TYPE_CHECKING:\n"
        "    from app.db.models.sql.query import Query\n"
        "\n"
        "\n"
        "def f():\n"
        "    from app.db.models.base import Model as M\n"
    ),
}

HEADER = 'root_packages = ["app"]\nsource_roots = ["src"]\n'

CONTRACT = """
[[contracts]]
id = "models-interface"
name = "Outside app.db.models, only its public names"
type = "interface"
modules = ["app.db.models"]
"""

TODAY = [
    "src/app/web/views.py:5: LY006 app.web.views imports app.db.models (_registry), not exported "
    "by app.db.models",
    "src/app/web/views.py:5: LY006 app.web.views imports app.db.models.base, not exported by "
    "app.db.models",
    "src/app/web/views.py:6: LY006 app.web.views imports app.db.models.fields.related "
    "(ForeignKey), not exported by app.db.models",
    "src/app/web/views.py:7: LY006 app.web.views imports app.db.models.sql.query, not exported by "
    "app.db.models",
    "src/app/web/views.py:12: LY006 app.web.views imports app.db.models.sql.query (Query), not "
    "exported by app.db.models [TYPE_CHECKING]",
    "src/app/web/views.py:16: LY006 app.web.views imports app.db.models.base (Model), not "
    "exported by app.db.models [function-level]",
]


def _project(tmp_path: Path, contract: str = CONTRACT, files: dict[str, str] | None = None):
    return write_files(tmp_path, {**PACKAGE, **(files or {}), "contracts.toml": HEADER + contract})


def _findings(stdout: str) -> list[str]:
    return [line.strip() for line in stdout.splitlines() if ": LY0" in line]


def test_imports_past_the_surface_are_located_findings_with_their_names(tmp_path):
    run = run_layering(_project(tmp_path), "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    assert _findings(run.stdout) == TODAY
    assert (
        "app.db.models: 6 import statements in 1 module reach past its surface; what they take, "
        "most first: .base 2, .sql.query 2, .fields.related 1, _registry 1"
    ) in run.stdout


def test_a_package_that_keeps_to_its_surface_is_kept(tmp_path):
    views = (
        "from app.db.models import Model, CharField, Choices, signals\nfrom app.db.models.signals "
        "import post_save\n"
    )
    run = run_layering(
        _project(tmp_path, files={"src/app/web/views.py": views}), "check", "--no-cache"
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "KEPT" in run.stdout


def test_public_replaces_all_and_a_public_submodule_covers_what_lies_under_it(tmp_path):
    contract = CONTRACT + 'public = ["Model", "CharField", "Choices", "signals", "sql", "base"]\n'
    run = run_layering(_project(tmp_path, contract), "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    assert _findings(run.stdout) == [
        "src/app/web/views.py:5: LY006 app.web.views imports app.db.models (_registry), not "
        "exported by app.db.models",
        "src/app/web/views.py:6: LY006 app.web.views imports app.db.models.fields.related "
        "(ForeignKey), not exported by app.db.models",
    ]


def test_a_dotted_public_submodule_is_public_and_its_parent_is_not(tmp_path):
    contract = (
        CONTRACT + 'public = ["Model", "CharField", "Choices", "signals", "fields.related"]\n'
    )
    views = (
        "from app.db.models.fields.related import ForeignKey\n"
        "from app.db.models.fields import related\n"
        "from app.db.models.fields import CharField\n"
    )
    run = run_layering(
        _project(tmp_path, contract, {"src/app/web/views.py": views}), "check", "--no-cache"
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert _findings(run.stdout) == [
        "src/app/web/views.py:3: LY006 app.web.views imports app.db.models.fields (CharField), "
        "not exported by app.db.models",
    ]


def test_the_package_itself_and_its_submodules_import_freely(tmp_path):
    run = run_layering(_project(tmp_path), "check", "--no-cache")
    assert "app.db.models.sql.query imports" not in run.stdout  # `from app.db.models import base`


@pytest.mark.parametrize(
    ("init", "line", "reason"),
    [
        (
            '__all__ = ["Model"]\nif True:\n    __all__ += ["extra"]\n',
            3,
            "__all__ is bound here in a way not read statically",
        ),
        (
            "import os\n\n__all__ = sorted(os.environ)\n",
            3,
            "__all__ is not built of string literals and other modules' __all__",
        ),
        (
            'names = ["Model"]\n__all__ = names\n',
            2,
            "'names' is not another module's __all__ imported here",
        ),
        ('__all__ = ["Model", 1]\n', 1, "an entry of __all__ is not a string literal"),
    ],
)
def test_an_all_that_cannot_be_read_statically_is_a_located_error(tmp_path, init, line, reason):
    root = _project(tmp_path, files={"src/app/db/models/__init__.py": init})
    run = run_layering(root, "check", "--no-cache")
    assert run.returncode == 2, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    assert (
        "contracts.toml:8: error: contract 'Outside app.db.models, only its public names': the "
        "public "
        "names of 'app.db.models' cannot be read from its __all__ "
        f"(src/app/db/models/__init__.py:{line}: {reason})"
    ) in run.stderr
    assert 'hint: list them: public = ["Name", "submodule", ...]' in run.stderr
    with_public = CONTRACT + 'public = ["Model"]\n'
    run = run_layering(_project(tmp_path, with_public), "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr


def test_an_unreadable_all_of_a_module_it_adds_is_located_there(tmp_path):
    files = {"src/app/db/models/enums.py": "__all__ = []\n__all__.extend(x for x in 'ab')\n"}
    run = run_layering(_project(tmp_path, files=files), "check", "--no-cache")
    assert run.returncode == 2, run.stdout + run.stderr
    assert "(src/app/db/models/enums.py:2: __all__ is not built of" in run.stderr


def test_a_package_without_all_asks_for_public(tmp_path):
    run = run_layering(
        _project(tmp_path, files={"src/app/db/models/__init__.py": "X = 1\n"}), "check"
    )
    assert run.returncode == 2, run.stdout + run.stderr
    assert "(src/app/db/models/__init__.py: 'app.db.models' defines no __all__)" in run.stderr


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (
            'public = "all"',
            """contracts.toml:8: error: contract 'Outside app.db.models, only its public names', option 'public': expected "__all__" or a list""",
        ),
        ("public = []", "option 'public': expected a list of at least one name or submodule"),
        ('public = ["a b"]', "option 'public': 'a b' is not a name or a submodule"),
        (
            'public = ["Model", "fields.nope"]',
            "option 'public': 'fields.nope' is neither a name 'app.db.models' defines nor one of "
            "its submodules",
        ),
        ('modules = ["app.db.modls"]', "'app.db.modls' in 'modules' matches no module"),
    ],
)
def test_a_bad_option_is_a_located_error(tmp_path, option, message):
    contract = CONTRACT.replace('modules = ["app.db.models"]\n', "") + option + "\n"
    if not option.startswith("modules"):
        contract += 'modules = ["app.db.models"]\n'
    run = run_layering(_project(tmp_path, contract), "check", "--no-cache")
    assert run.returncode == 2, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    assert message in run.stderr


def test_a_misspelt_public_name_is_an_error_at_its_entry(tmp_path):
    init = "from app.db.models.base import Model\nfrom app.db.models import signals\n"
    contract = CONTRACT + 'public = [\n  "Model",\n  "Modle",\n  "signals",\n]\n'
    root = _project(tmp_path, contract, {"src/app/db/models/__init__.py": init})
    run = run_layering(root, "check", "--no-cache")
    assert run.returncode == 2, run.stdout + run.stderr
    assert run.stderr.splitlines()[0] == (
        "contracts.toml:11: error: contract 'Outside app.db.models, only its public names', "
        "option "
        "'public': 'Modle' is neither a name 'app.db.models' defines nor one of its submodules"
    )
    assert len(run.stderr.splitlines()) == 2, run.stderr  # the hint; no other entry


def test_allow_excuses_imports_name_by_name_and_a_stale_one_says_remove_it(tmp_path):
    contract = CONTRACT + (
        "allow = [\n"
        '  { importer = "app.web.views", module = "app.db.models", names = ["_registry"] },\n'
        '  "app.web.views -> app.db.models.base",\n'
        '  "app.web.views -> app.db.models.sql.query",\n'
        '  "app.web.views -> app.db.models.fields.related",\n'
        '  "app.web.views -> app.db.models.signals",\n'
        "]\n"
    )
    run = run_layering(_project(tmp_path, contract), "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    assert _findings(run.stdout) == [
        "contracts.toml:14: LY030 allowance 'app.web.views -> app.db.models.signals' matches no "
        "import: "
        "remove it (allowances only shrink)"
    ]


def test_an_allowance_needs_its_importer(tmp_path):
    contract = CONTRACT + 'allow = ["app.db.models.base"]\n'
    run = run_layering(_project(tmp_path, contract), "check", "--no-cache")
    assert run.returncode == 2, run.stdout + run.stderr
    assert "contracts.toml:9: error:" in run.stderr
    assert "write 'importer -> module'" in run.stderr


@pytest.mark.parametrize(
    ("scope", "left_out"),
    [
        ('function_level = "ignore"', 16),
        ('type_checking = "ignore"', 12),
    ],
)
def test_the_scope_options_leave_those_statements_out(tmp_path, scope, left_out):
    run = run_layering(_project(tmp_path, CONTRACT + scope + "\n"), "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    assert _findings(run.stdout) == [f for f in TODAY if f":{left_out}:" not in f]


def test_uses_on_the_package_imported_whole_reach_past_it_too(tmp_path):
    views = (
        "from unittest import mock\n"
        "from app.db import models\n"
        "import app.db.models as m\n"
        "\n"
        "\n"
        "def f():\n"
        "    models.Model, models.signals.post_save\n"
        "    return models.base.Model, getattr(m, '_registry')\n"
        "\n"
        "\n"
        "@mock.patch('app.db.models.sql.query.Query')\n"
        "def test(query):\n"
        "    pass\n"
    )
    run = run_layering(
        _project(tmp_path, files={"src/app/web/views.py": views}), "check", "--no-cache"
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert _findings(run.stdout) == [
        "src/app/web/views.py:8: LY006 app.web.views imports app.db.models (_registry), not "
        "exported by app.db.models [getattr, function-level]",
        "src/app/web/views.py:8: LY006 app.web.views imports app.db.models.base (Model), not "
        "exported by app.db.models [attribute, function-level]",
        "src/app/web/views.py:11: LY006 app.web.views imports app.db.models.sql.query (Query), "
        "not exported by app.db.models [patch]",
    ]
    assert "3 uses in 1 module reach past its surface" in run.stdout


def test_typing_only_allow_lets_an_import_only_annotations_need_pass(tmp_path):
    views = (
        "from __future__ import annotations\n"
        "from app.db.models.base import Model\n"
        "from app.db.models.sql.query import Query\n"
        "\n"
        "def f(m: Model) -> None:\n"
        "    Query()\n"
    )
    files = {"src/app/web/views.py": views}
    counted = run_layering(_project(tmp_path, files=files), "check", "--no-cache")
    assert len(_findings(counted.stdout)) == 2, counted.stdout
    contract = CONTRACT + 'typing_only = "allow"\n'
    run = run_layering(_project(tmp_path, contract, files), "check", "--no-cache")
    assert run.returncode == 1, run.stdout + run.stderr
    assert _findings(run.stdout) == [
        "src/app/web/views.py:3: LY006 app.web.views imports app.db.models.sql.query (Query), not "
        "exported by app.db.models"
    ]


def test_unchecked_modules_are_never_the_importer_of_a_finding(tmp_path):
    contract = CONTRACT + 'unchecked = ["app.web"]\n'
    run = run_layering(_project(tmp_path, contract), "check", "--no-cache")
    assert run.returncode == 0, run.stdout + run.stderr


def test_severity_warn_reports_and_passes(tmp_path):
    run = run_layering(_project(tmp_path, CONTRACT + 'severity = "warn"\n'), "check", "--no-cache")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "WARN" in run.stdout
    assert _findings(run.stdout) == TODAY


# A contract with chains beside it, so that the run keeps and reuses its cache.
WITH_CHAINS = (
    CONTRACT
    + """
[[contracts]]
id = "web-no-sql"
name = "The web does not import the SQL layer"
type = "forbidden"
source_modules = ["app.web"]
forbidden_modules = ["app.db.models.sql"]
"""
)


def _interface_findings(stdout: str) -> list[str]:
    return [f for f in _findings(stdout) if ": LY006 " in f]


def test_a_cached_verdict_follows_an_edit_of_all_in_the_package_and_in_a_module_it_adds(
    tmp_path,
):
    root = _project(tmp_path, WITH_CHAINS)
    first = run_layering(root, "check")
    assert _interface_findings(first.stdout) == TODAY
    assert (root / ".layering_cache").is_dir()
    assert run_layering(root, "check").stdout == first.stdout
    init = root / "src/app/db/models/__init__.py"
    init.write_text(MODELS_INIT.replace('["signals"]', '["signals", "base", "sql"]'))
    cached = run_layering(root, "check")
    assert _interface_findings(cached.stdout) == [
        TODAY[0],
        "src/app/web/views.py:6: LY006 app.web.views imports app.db.models.fields.related "
        "(ForeignKey), not exported by app.db.models",
    ]
    fields = root / "src/app/db/models/fields/__init__.py"
    fields.write_text('__all__ = ["CharField", "IntegerField", "_registry"]\n')
    cached = run_layering(root, "check")
    fresh = run_layering(root, "check", "--no-cache")
    assert (cached.returncode, cached.stdout) == (fresh.returncode, fresh.stdout)
    assert _interface_findings(cached.stdout) == [
        "src/app/web/views.py:6: LY006 app.web.views imports app.db.models.fields.related "
        "(ForeignKey), not exported by app.db.models",
    ]


@pytest.mark.parametrize("format", ["text", "json", "github", "sarif"])
def test_every_format_reports_the_findings_the_same_cached_and_not(tmp_path, format):
    root = _project(tmp_path)
    runs = [run_layering(root, "check", "--format", format) for _ in range(2)]
    fresh = run_layering(root, "check", "--format", format, "--no-cache")
    assert fresh.returncode == 1, fresh.stdout + fresh.stderr
    for run in runs:
        assert (run.returncode, run.stdout) == (fresh.returncode, fresh.stdout)
    if format == "json":
        (contract,) = json.loads(fresh.stdout)["contracts"]
        assert contract["verdict"] == "broken"
        located = [(v["path"], v["line"], v["code"]) for v in contract["violations"]]
        assert located == [("src/app/web/views.py", int(f.split(":")[1]), "LY006") for f in TODAY]
        assert contract["violations"][0]["names"] == ["_registry"]
    elif format == "sarif":
        results = json.loads(fresh.stdout)["runs"][0]["results"]
        assert [r["ruleId"] for r in results] == ["LY006"] * len(TODAY)
        lines = [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results]
        assert lines == [int(f.split(":")[1]) for f in TODAY]
    elif format == "github":
        errors = [line for line in fresh.stdout.splitlines() if line.startswith("::error")]
        assert len(errors) == len(TODAY)
        assert all("file=src/app/web/views.py" in line for line in errors)


def test_baseline_excuses_todays_findings_and_prune_removes_them_once_gone(tmp_path):
    root = _project(tmp_path)
    assert run_layering(root, "baseline").returncode == 0
    config = (root / "contracts.toml").read_text()
    assert (
        '{importer = "app.web.views", module = "app.db.models", names = ["_registry"]}' in config
    )
    assert run_layering(root, "check").returncode == 0
    views = root / "src/app/web/views.py"
    views.write_text(PACKAGE["src/app/web/views.py"] + "from app.db.models import _hidden\n")
    run = run_layering(root, "check")
    assert _findings(run.stdout) == [
        "src/app/web/views.py:17: LY006 app.web.views imports app.db.models (_hidden), not "
        "exported by app.db.models"
    ]
    views.write_text("from app.db.models import Model\n")
    assert run_layering(root, "check").returncode == 1  # every entry is stale now
    pruned = run_layering(root, "prune")
    assert pruned.returncode == 0, pruned.stdout + pruned.stderr
    assert "app.web.views" not in (root / "contracts.toml").read_text()
    assert run_layering(root, "check").returncode == 0


DJANGO = Path(
    os.environ.get(
        "LAYERING_DJANGO_CORPUS",
        Path(__file__).resolve().parents[2] / ".bench_scratch" / "corpora" / "django",
    )
)


@pytest.mark.skipif(
    not (DJANGO / "django/db/models/__init__.py").is_file(), reason="no Django checkout"
)
def test_django_db_models_is_broken_today_with_located_findings(tmp_path):
    config = (
        'root_packages = ["django"]\n'
        f"source_roots = [{json.dumps(str(DJANGO))}]\n" + CONTRACT.replace("app.db", "django.db")
    )
    (tmp_path / "contracts.toml").write_text(config)
    run = run_layering(tmp_path, "check", "--no-cache", "--format", "json")
    assert run.returncode == 1, run.stdout + run.stderr
    (contract,) = json.loads(run.stdout)["contracts"]
    violations = contract["violations"]
    assert len(violations) > 20
    for violation in violations:
        assert violation["code"] == "LY006"
        assert not violation["importer"].startswith("django.db.models")
        path = Path(violation["path"])
        path = path if path.is_absolute() else tmp_path / path
        lines = path.read_text(encoding="utf-8").splitlines()
        # the line of the statement's first name, or of the statement itself
        window = "\n".join(lines[max(violation["line"] - 6, 0) : violation["line"]])
        if "attribute" in violation["qualifiers"]:  # models.base.ModelBase
            reached = violation["imported"].rpartition(".")[2]
            assert f"models.{reached}." in lines[violation["line"] - 1], violation
        else:
            assert "django.db.models" in window or "from ." in window, violation
        taken = violation["imported"]
        assert taken.startswith("django.db.models"), violation
        if taken != "django.db.models":
            assert not taken.startswith("django.db.models.signals"), violation  # in __all__
    places = {(v["importer"], v["imported"], tuple(v["names"])) for v in violations}
    assert ("django.db.backends.base.schema", "django.db.models.sql", ("Query",)) in places
    assert not any(i == "django.db.models" and n == ("Model",) for _, i, n in places)
