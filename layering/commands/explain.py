"""`layering explain IMPORTER IMPORTED`: why one module (or package) imports another.

The question is asked as a contract would ask it, a `forbidden` one from IMPORTER to IMPORTED
with chains, so the answer is what a report of that contract shows: the chains, shortest
first, each hop a located statement with its names and marks, and the imports that cut them.
"""

from __future__ import annotations

import dataclasses

from layering.commands.check import check_settings
from layering.domain.errors import ConfigError, Problem, UsageError, closest_module
from layering.domain.patterns import is_within
from layering.domain.results import Explanation, Verdict
from layering.engine.config import ContractSpec, Settings
from layering.engine.evidence import Evidence
from layering.engine.plan import RunPlan


def explain(
    settings: Settings, importer: str, imported: str, chains: int, use_cache: bool = True
) -> Explanation:
    """Why `importer` imports `imported`, listing `chains` chains beyond the cut's examples."""
    _require_modules(settings, importer, imported)
    question = ContractSpec(
        index=0,
        options={
            "name": f"{importer} imports {imported}",
            "type": "forbidden",
            "source_modules": [importer],
            "forbidden_modules": [imported],
        },
        line=0,
        option_lines={},
    )
    report = check_settings(
        dataclasses.replace(settings, contracts=(question,)),
        chains=chains,
        use_cache=use_cache,
        cache_results=False,
    )
    result = report.results[0]
    if result.verdict is Verdict.ERROR:
        raise ConfigError([Problem(settings.path, 0, v.message) for v in result.violations])
    return Explanation(importer, imported, result.chain_groups, report.warnings)


def _require_modules(settings: Settings, importer: str, imported: str) -> None:
    """Both must be modules: the importer of the package, the imported one of the package or
    an external package's top level; neither may contain the other."""
    evidence = Evidence(settings, RunPlan(keeps_cache=False))
    modules = evidence.modules
    for role, module in (("IMPORTER", importer), ("IMPORTED", imported)):
        if module in modules or (
            role == "IMPORTED" and not evidence.is_internal(module) and "." not in module
        ):
            continue
        where = ", ".join(settings.root_packages)
        close = closest_module(module, modules)
        raise UsageError(
            role,
            f"'{module}' is not a module of {where}."
            + (
                f" Did you mean '{close}'?"
                if close
                else " Name a module or package, as `import` does."
            ),
        )
    if is_within(importer, imported) or is_within(imported, importer):
        raise UsageError(
            "IMPORTER",
            f"'{importer}' and '{imported}' overlap: one contains the other; name two modules neither of which lies in the other",
        )
