"""`layering.check(config={...}, base_dir=...)`: a contracts.toml given as a dict, for code that
generates contracts: the same verdicts as the file, its problems at key paths."""

from __future__ import annotations

import sys

import pytest

import layering

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/a.py": "from app import b\n",
    "src/app/b.py": "import json\n",
    "src/app/c.py": "",
}

CONTRACTS = """\
root_packages = ["app"]
source_roots = ["src"]
cache_dir = false

[[contracts]]
id = "c-alone"
name = "c imports nothing of the app"
type = "forbidden"
source_modules = ["app.c"]
forbidden_modules = ["app.a", "app.b"]

[[contracts]]
id = "a-not-b"
name = "a does not import b"
type = "forbidden"
source_modules = ["app.a"]
forbidden_modules = ["app.b"]
allow = ["app.c -> app.b"]
"""


def config(**changes):
    """The dict of CONTRACTS, with `changes` to its second contract."""
    document = tomllib.loads(CONTRACTS)
    document["contracts"][1].update(changes)
    return document


def test_a_dict_gets_the_verdicts_of_the_same_file(project, monkeypatch):
    project.write({**PACKAGE, "contracts.toml": CONTRACTS})
    monkeypatch.chdir(project.root)
    from_file = layering.check("contracts.toml")
    from_dict = layering.check(config=tomllib.loads(CONTRACTS), base_dir=str(project.root))
    assert from_dict.exit_code == from_file.exit_code == 1
    assert [(r.contract_id, r.verdict) for r in from_dict.results] == [
        (r.contract_id, r.verdict) for r in from_file.results
    ]
    assert [v.message for v in from_dict.results[1].violations] == [
        v.message for v in from_file.results[1].violations
    ]


def test_a_stale_allowance_is_reported_at_its_key_path(project):
    project.write(PACKAGE)
    report = layering.check(config=config(), base_dir=str(project.root))
    stale = [v for v in report.results[1].violations if "matches no import" in v.message]
    assert stale[0].path == "contracts[1].allow[0]"
    assert "contracts[1].allow[0]: LY030 allowance 'app.c -> app.b' matches no import" in str(
        report
    )
    assert report.results[1].source_path == "contracts[1]"


def test_paths_of_the_dict_are_relative_to_base_dir(project, tmp_path, monkeypatch):
    project.write(PACKAGE)
    monkeypatch.chdir(tmp_path.parent)
    kept = config(forbidden_modules=["app.c"], allow=[])
    report = layering.check(config=kept, base_dir=str(project.root))
    assert report.exit_code == 0, report


def test_a_misspelt_source_module_is_an_error_at_its_key_path(project):
    project.write(PACKAGE)
    with pytest.raises(layering.ConfigError) as error:
        layering.check(config=config(source_modules=["app.z"]), base_dir=str(project.root))
    assert str(error.value).startswith(
        "contracts[1].source_modules[0]: error: contract 'a does not import b': 'app.z' in "
        "'source_modules' matches no module in the package app."
    )


def test_every_problem_of_the_dict_is_named_at_once_by_key(project):
    project.write(PACKAGE)
    bad = config(id="c-alone", forbiden_modules=["app.b"])
    bad["exclude_typechecking_imports"] = True
    with pytest.raises(layering.ConfigError) as error:
        layering.check(config=bad, base_dir=str(project.root))
    assert [(p.path, p.line) for p in error.value.problems] == [
        ("contracts[1].forbiden_modules", 0),
        ("contracts[1].id", 0),
        ("exclude_typechecking_imports", 0),
    ]
    text = str(error.value)
    assert "unrecognized option 'forbiden_modules'. Did you mean 'forbidden_modules'?" in text
    assert "duplicate contract id 'c-alone' (first used on contracts[0].id)" in text
    assert "Did you mean 'exclude_type_checking_imports'?" in text


@pytest.mark.parametrize(
    ("bad", "expected"),
    [
        (
            {"root_packages": ["app"], "contracts": {"id": "x"}},
            "contracts: error: 'contracts' must be a list of dicts, one per contract",
        ),
        (
            {"root_packages": ["app"], "contracts": [{"type": "forbidden", "allow": [None]}]},
            "contracts[0].allow[0]: error: None is not a string, number, boolean, list or dict",
        ),
        (["app"], "config: error: the configuration must be a dict, got list"),
    ],
)
def test_what_toml_cannot_hold_is_an_error_at_its_key_path(project, bad, expected):
    project.write(PACKAGE)
    with pytest.raises(layering.ConfigError) as error:
        layering.check(config=bad, base_dir=str(project.root))
    assert str(error.value).startswith(expected)


def test_a_tuple_reads_as_a_list(project):
    project.write(PACKAGE)
    report = layering.check(
        config=config(forbidden_modules=("app.c",), allow=()), base_dir=str(project.root)
    )
    assert report.exit_code == 0, report
