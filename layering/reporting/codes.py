"""The stable finding codes: one rule each in SARIF, one title each in GitHub annotations.

A code never changes meaning; new kinds of finding get new codes. `LY000` is used only when a
contract fails without a finding to show (it should not happen; it keeps the failure visible).
"""

from __future__ import annotations

RULES: dict[str, tuple[str, str]] = {
    "LY000": ("contract-not-kept", "A contract was not kept"),
    "LY001": ("forbidden-direct-import", "A module imports a forbidden module directly"),
    "LY002": ("forbidden-import-chain", "A module imports a forbidden module through a chain of imports"),
    "LY003": ("leaf-import", "A leaf module imports a module it must not"),
    "LY004": ("contained-import", "A contained package imports a module of its enclosing package outside itself"),
    "LY005": ("forbidden-name", "A module takes a forbidden name from a module: by import, attribute, getattr or patch"),
    "LY011": ("layers-import", "A lower layer imports a higher layer"),
    "LY012": ("independence-import", "Independent modules import each other"),
    "LY013": ("sibling-import-cycle", "Sibling modules import each other in a cycle"),
    "LY014": ("protected-import", "A protected module is imported from outside its allowed importers"),
    "LY015": ("undeclared-layer", "An exhaustive layers contract does not list a child of its container"),
    "LY016": ("private-module-import", "A private module is imported from outside its parent package"),
    "LY017": ("plugin-contract-broken", "A contract of a type of the user's own (import-linter contract_types) is broken"),
    "LY020": ("probe-loaded-forbidden", "Importing a module at runtime loads a forbidden module"),
    "LY021": ("probe-import-failed", "Importing a probed module failed"),
    "LY022": ("probe-timed-out", "Importing a probed module timed out"),
    "LY023": ("probe-crashed", "Importing a probed module crashed the interpreter"),
    "LY024": ("probe-positive-control-failed", "A probe contract cannot fail: its positive control failed, or a forbidden module is loaded before the probed import"),
    "LY025": ("probe-setup-failed", "The setup of a probe contract failed, so no module could be probed"),
    "LY026": ("loads-forbidden", "Importing a module executes a forbidden module, as its source says"),
    "LY030": ("stale-allowance", "An allowance matches no import (allowances only shrink)"),
    "LY031": ("expected-broken-contract-kept", 'A contract that says expect = "broken" is kept'),
    "LY032": ("stale-expect-loaded", "A module in expect_loaded no longer loads a forbidden module"),
    "LY040": ("unreadable-source", "A source file cannot be read, so the contract cannot be decided"),
    "LY041": ("contract-does-not-fit", "A contract does not fit the package (a module it names is missing), so it cannot be decided"),
}

CONFIG_ERROR = "configuration-error"


def rule_name(code: str) -> str:
    return RULES.get(code, (code.lower(), ""))[0]


def rule_description(code: str) -> str:
    return RULES.get(code, ("", f"Finding {code}"))[1] or f"Finding {code}"
