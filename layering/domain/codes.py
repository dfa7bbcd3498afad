"""The stable finding codes, all in one place: each a constant the contract types use, and one
rule each in SARIF, one title each in GitHub annotations.

A code never changes meaning; new kinds of finding get new codes. `LY000` is used only when a
contract fails without a finding to show (it should not happen; it keeps the failure visible).
"""

from __future__ import annotations

NOT_KEPT = "LY000"
DIRECT_IMPORT = "LY001"
INDIRECT_IMPORT = "LY002"
LEAF_IMPORT = "LY003"
CONTAINED_IMPORT = "LY004"
FORBIDDEN_NAME = "LY005"
INTERFACE_IMPORT = "LY006"
UNDECLARED_DEPENDENCY = "LY008"
UNUSED_DEPENDENCY = "LY009"
REEXPORTED_NAME = "LY007"
LAYERS_IMPORT = "LY011"
INDEPENDENCE_IMPORT = "LY012"
SIBLING_CYCLE = "LY013"
PROTECTED_IMPORT = "LY014"
UNDECLARED_LAYER = "LY015"
PRIVATE_MODULE_IMPORT = "LY016"
PLUGIN_CONTRACT_BROKEN = "LY017"
PROBE_LOADED = "LY020"
PROBE_IMPORT_FAILED = "LY021"
PROBE_TIMED_OUT = "LY022"
PROBE_CRASHED = "LY023"
PROBE_CANNOT_FAIL = "LY024"
PROBE_SETUP_FAILED = "LY025"
LOADS_FORBIDDEN = "LY026"
STALE_ALLOWANCE = "LY030"
UNEXPECTEDLY_KEPT = "LY031"
STALE_EXPECTATION = "LY032"
UNREADABLE_SOURCE = "LY040"
INVALID_CONTRACT = "LY041"

RULES: dict[str, tuple[str, str]] = {
    NOT_KEPT: ("contract-not-kept", "A contract was not kept"),
    DIRECT_IMPORT: ("forbidden-direct-import", "A module imports a forbidden module directly"),
    INDIRECT_IMPORT: (
        "forbidden-import-chain",
        "A module imports a forbidden module through a chain of imports",
    ),
    LEAF_IMPORT: ("leaf-import", "A leaf module imports a module it must not"),
    CONTAINED_IMPORT: (
        "contained-import",
        "A contained package imports a module of its enclosing package outside itself",
    ),
    FORBIDDEN_NAME: (
        "forbidden-name",
        "A module takes a forbidden name from a module: by import, attribute, getattr or patch",
    ),
    INTERFACE_IMPORT: (
        "interface-import",
        "A module outside a package imports a module or a name the package does not export",
    ),
    UNDECLARED_DEPENDENCY: (
        "undeclared-dependency",
        "A module imports a third-party package that no declared dependency provides",
    ),
    UNUSED_DEPENDENCY: (
        "unused-dependency",
        "A declared dependency provides no module that the package imports",
    ),
    REEXPORTED_NAME: (
        "name-from-re-export",
        "A module takes a name through a re-export instead of from the module that defines it",
    ),
    LAYERS_IMPORT: ("layers-import", "A lower layer imports a higher layer"),
    INDEPENDENCE_IMPORT: ("independence-import", "Independent modules import each other"),
    SIBLING_CYCLE: ("sibling-import-cycle", "Sibling modules import each other in a cycle"),
    PROTECTED_IMPORT: (
        "protected-import",
        "A protected module is imported from outside its allowed importers",
    ),
    UNDECLARED_LAYER: (
        "undeclared-layer",
        "An exhaustive layers contract does not list a child of its container",
    ),
    PRIVATE_MODULE_IMPORT: (
        "private-module-import",
        "A private module is imported from outside its parent package",
    ),
    PLUGIN_CONTRACT_BROKEN: (
        "plugin-contract-broken",
        "A contract of a type of the user's own (import-linter contract_types) is broken",
    ),
    PROBE_LOADED: (
        "probe-loaded-forbidden",
        "Importing a module at runtime loads a forbidden module",
    ),
    PROBE_IMPORT_FAILED: ("probe-import-failed", "Importing a probed module failed"),
    PROBE_TIMED_OUT: ("probe-timed-out", "Importing a probed module timed out"),
    PROBE_CRASHED: ("probe-crashed", "Importing a probed module crashed the interpreter"),
    PROBE_CANNOT_FAIL: (
        "probe-positive-control-failed",
        "A probe contract cannot fail: its positive control failed, or a forbidden module is "
        "loaded before the probed import",
    ),
    PROBE_SETUP_FAILED: (
        "probe-setup-failed",
        "The setup of a probe contract failed, so no module could be probed",
    ),
    LOADS_FORBIDDEN: (
        "loads-forbidden",
        "Importing a module executes a forbidden module, as its source says",
    ),
    STALE_ALLOWANCE: (
        "stale-allowance",
        "An allowance matches no import (allowances only shrink)",
    ),
    UNEXPECTEDLY_KEPT: (
        "expected-broken-contract-kept",
        'A contract that says expect = "broken" is kept',
    ),
    STALE_EXPECTATION: (
        "stale-expect-loaded",
        "A module in expect_loaded no longer loads a forbidden module",
    ),
    UNREADABLE_SOURCE: (
        "unreadable-source",
        "A source file cannot be read, so the contract cannot be decided",
    ),
    INVALID_CONTRACT: (
        "contract-does-not-fit",
        "A contract does not fit the package (a module it names is missing), so it cannot be "
        "decided",
    ),
}

STATEMENT_CODES = frozenset(
    {
        DIRECT_IMPORT,
        INDIRECT_IMPORT,
        LAYERS_IMPORT,
        INDEPENDENCE_IMPORT,
        SIBLING_CYCLE,
        PROTECTED_IMPORT,
        PRIVATE_MODULE_IMPORT,
    }
)
"""Findings that name one import statement of a module pair (which a cached report can find
again at its line after an edit above it: `engine.relocation`)."""

CONFIG_ERROR = "configuration-error"
"""The rule of a configuration error in SARIF (not a finding: the run could not be made)."""


def rule_name(code: str) -> str:
    return RULES.get(code, (code.lower(), ""))[0]


def rule_description(code: str) -> str:
    return RULES.get(code, ("", f"Finding {code}"))[1] or f"Finding {code}"
