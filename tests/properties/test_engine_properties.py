"""Properties of the engine on generated packages, run in-process for speed.

Every generated package is real Python (every module defines X and Y; every import resolves),
checked with forbidden (direct and through chains), leaf (with module- and name-level
allowances) and contained contracts.
"""

from __future__ import annotations

import os
import tempfile
from collections import Counter

from hypothesis import given, note
from hypothesis import strategies as st
from property_trees import ROOT, configs, imported_by_line, trees

from layering.commands.check import check_settings
from layering.domain.errors import ConfigError
from layering.domain.results import RunReport, Verdict
from layering.engine.config import locate_settings

IMPORT_CODES = {"LY001", "LY002", "LY003", "LY004"}


def decide(
    tree,
    config: str,
    *,
    skip=None,
    order_seed: int = 0,
    use_cache: bool = False,
    directory: str | None = None,
) -> RunReport | None:
    """The report for `tree` under `config`; None if the configuration is refused (ConfigError).
    Any other exception fails the property."""
    with tempfile.TemporaryDirectory() as scratch:
        root = directory or scratch
        path = tree.write(root, config, skip=skip, order_seed=order_seed)
        try:
            return check_settings(locate_settings(path), use_cache=use_cache)
        except ConfigError as error:
            note(f"ConfigError: {error}")
            return None


def _check(path: str, use_cache: bool) -> RunReport | None:
    try:
        return check_settings(locate_settings(path), use_cache=use_cache)
    except ConfigError:
        return None


def shape(report: RunReport | None) -> object:
    """What must be the same across runs: every finding as reported, chains included (layering
    picks the alphabetically first of equally short chains, so reports do not vary)."""
    if report is None:
        return None
    return [(r.contract_id, r.verdict, r.violations) for r in report.results]


def import_pairs(report: RunReport | None) -> set:
    if report is None:
        return set()
    return {
        (r.contract_id, v.importer, v.imported)
        for r in report.results
        for v in report_violations(r)
    }


def _direct_pairs(report: RunReport) -> set:
    """The import pairs of the findings that no chain group holds (direct imports)."""
    return {
        (r.contract_id, v.importer, v.imported)
        for r in report.results
        if not r.chain_groups
        for v in report_violations(r)
    }


def report_violations(result):
    return [v for v in result.violations if v.code in IMPORT_CODES]


@given(tree=trees(), data=st.data())
def test_violations_point_at_real_import_statements(tree, data):
    config, _ = data.draw(configs(tree))
    note(config)
    with tempfile.TemporaryDirectory() as root:
        path = tree.write(root, config)
        try:
            report = check_settings(locate_settings(path), use_cache=False)
        except ConfigError:
            return
        files = {tree.path(m).replace(os.sep, "/"): m for m in tree.modules}
        for result in report.results:
            assert result.verdict is not Verdict.ERROR, (
                result
            )  # every generated file is valid Python
            for violation in report_violations(result):
                hops = violation.chain or ()
                located = [(h.path, h.line, h.importer, h.imported) for h in hops] or [
                    (violation.path, violation.line, violation.importer, violation.imported)
                ]
                for hop_path, line, importer, imported in located:
                    assert hop_path in files, (hop_path, violation)
                    module = files[hop_path]
                    assert module == importer, (module, violation)
                    found = imported_by_line(
                        os.path.join(root, hop_path), module, line, module in tree.packages
                    )
                    assert found is not None, (
                        f"{hop_path}:{line} holds no import statement ({violation})"
                    )
                    targets = {imported} | ({f"{violation.imported}"} if not hops else set())
                    assert found & targets, (
                        f"{hop_path}:{line} imports {sorted(found)}, not {imported} ({violation})"
                    )


@given(tree=trees(), data=st.data())
def test_removing_an_import_statement_never_adds_a_violation(tree, data):
    slots = tree.statement_slots()
    if not slots:
        return
    config, _ = data.draw(configs(tree))
    slot = data.draw(st.sampled_from(slots))
    note(f"{config}\nremoving {slot}: {tree.statements[slot[0]][slot[1]]}")
    before = decide(tree, config)
    after = decide(tree, config, skip=slot)
    if before is None or after is None:
        return
    # A cut may move (the one nearest the targets can change as chains go), never grow; the
    # chains only go; a direct finding only goes.
    assert _direct_pairs(after) <= _direct_pairs(before)
    groups_before = {
        (r.contract_id, g.source, g.target): g for r in before.results for g in r.chain_groups
    }
    for result in after.results:
        for group in result.chain_groups:
            old_group = groups_before.get((result.contract_id, group.source, group.target))
            assert old_group is not None, group
            assert group.chains <= old_group.chains and len(group.cut) <= len(old_group.cut), (
                old_group,
                group,
            )
    for old, new in zip(before.results, after.results):
        if old.verdict is Verdict.KEPT:
            # Only a stale allowance (LY030) can appear: the import it excused has gone.
            assert all(v.code == "LY030" for v in new.violations), new


@given(tree=trees(), data=st.data())
def test_name_level_allowance_hides_only_the_names_it_lists(tree, data):
    inner = [m for m in tree.modules if m != ROOT]
    leaf = data.draw(st.sampled_from(inner))
    module = data.draw(st.sampled_from(inner))
    name = data.draw(st.sampled_from(["X", "Y"]))
    base = (
        f'root_packages = ["{ROOT}"]\nsource_roots = ["src"]\n\n[[contracts]]\nid = "leaf"\ntype '
        f'= "leaf"\nmodules = ["{leaf}"]\nwithin = ["{ROOT}"]\n'
    )
    allowed = base + f'allow = [{{ module = "{module}", names = ["{name}"] }}]\n'
    note(allowed)
    without = decide(tree, base)
    with_allowance = decide(tree, allowed)
    assert without is not None and with_allowance is not None
    before, after = _imported_names(without.results[0]), _imported_names(with_allowance.results[0])
    for importer, imported, hidden_name in before - after:
        assert hidden_name == name, (
            f"the allowance of {module}.{name} hid {imported} ({hidden_name}) in {importer}"
        )
        assert module in (imported, imported.rpartition(".")[0]), (module, imported)
    assert not after - before


def _imported_names(result) -> Counter:
    """Every (importer, imported, name) the findings name, statement by statement."""
    return Counter(
        (v.importer, v.imported, name)
        for v in report_violations(result)
        if v.code != "LY030"
        for name in (v.names or (None,))
    )


@given(tree=trees(), data=st.data())
def test_verdicts_do_not_depend_on_file_order_or_cache(tree, data):
    config, _ = data.draw(configs(tree))
    seed = data.draw(st.integers(0, 1000))
    note(config)
    reference = shape(decide(tree, config))
    assert shape(decide(tree, config, order_seed=seed)) == reference
    with tempfile.TemporaryDirectory() as root:
        path = tree.write(root, config)
        cold = shape(_check(path, use_cache=True))
        warm = shape(_check(path, use_cache=True))
    assert cold == reference
    assert warm == reference
