"""Differential property: on packages without dynamic imports, the `loads` verdict of every module
is the probe's, which imports it for real.

The generated packages hold every import form (absolute, relative, `from package import
submodule`, aliases, multi-line) in every place (module level, functions, `if TYPE_CHECKING:`,
`try`, class bodies), import cycles included, and a few standard-library imports (`json` may be
the forbidden one). The probe runs children, so this property draws
a third of the profile's examples."""

from __future__ import annotations

import json
import tempfile

from hypothesis import given, note, settings
from hypothesis import strategies as st
from property_trees import ROOT, trees

from layering.commands.check import check_settings
from layering.engine.config import locate_settings


@settings(max_examples=max(5, settings.default.max_examples // 3))
@given(tree=trees(), data=st.data())
def test_loads_verdict_equals_the_probe_verdict_module_by_module(tree, data):
    inner = [m for m in tree.modules if m != ROOT]
    forbidden = data.draw(
        st.sampled_from([*inner, "json"]), label="forbidden"
    )  # json: an external package
    modules = json.dumps([m for m in tree.modules if m != forbidden])
    options = f'modules = {modules}\nforbidden = ["{forbidden}"]\n'
    config = (
        f'root_packages = ["{ROOT}"]\nsource_roots = ["src"]\ncache_dir = false\n'
        f'\n[[contracts]]\nid = "static"\ntype = "loads"\n{options}'
        f'\n[[contracts]]\nid = "runtime"\ntype = "probe"\n{options}'
    )
    with tempfile.TemporaryDirectory() as scratch:
        report = check_settings(locate_settings(tree.write(scratch, config)), use_cache=False)
    static, runtime = report.results
    note("\n".join(f"{m}: {tree.source(m)!r}" for m in tree.modules))
    note(
        "\n".join(
            v.render() + "".join(f"\n  {h.render()}" for h in v.chain)
            for r in report.results
            for v in r.violations
        )
    )
    assert {item.key: item.verdict for item in static.items} == {
        item.key: item.verdict for item in runtime.items if not item.key.startswith("control:")
    }
