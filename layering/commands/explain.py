"""`layering explain IMPORTER IMPORTED`: why one module (or package) imports another.

The question is asked as a contract would ask it, a `forbidden` one from IMPORTER to IMPORTED
with chains, so the answer is what a report of that contract shows: the chains, shortest
first, each hop a located statement with its names and marks, and the imports that cut them.
"""

from __future__ import annotations

import dataclasses

from layering.commands.check import check_settings
from layering.domain.errors import ConfigError, Problem, UsageError, closest_module
from layering.domain.import_scope import TYPING_ONLY_MARK
from layering.domain.patterns import ModulePattern, is_within
from layering.domain.results import (
    ChainGroup,
    ContractCount,
    CutImport,
    Explanation,
    Hop,
    Verdict,
    Violation,
)
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
    kept: list[object] = []
    report = check_settings(
        dataclasses.replace(settings, contracts=(question,)),
        chains=chains,
        use_cache=use_cache,
        cache_results=False,
        kept=kept,
    )
    result = report.results[0]
    if result.verdict is Verdict.ERROR:
        raise ConfigError([Problem(settings.path, 0, v.message) for v in result.violations])
    evidence = kept[0]
    assert isinstance(evidence, Evidence)
    groups = tuple(_TypingOnlyMarks(evidence).group(g) for g in result.chain_groups)
    counted = sum(group.chains for group in groups)
    return Explanation(
        importer,
        imported,
        groups,
        report.warnings,
        _contracts_counting_otherwise(settings, importer, imported, counted, use_cache),
    )


# The options of a forbidden contract that leave chains out of what it counts, and what each
# does, for `_contracts_counting_otherwise`'s reasons.
_LEAVING_OUT = {
    "type_checking": ("ignore", 'leaves out TYPE_CHECKING imports (type_checking = "ignore")'),
    "function_level": ("ignore", 'leaves out imports in functions (function_level = "ignore")'),
    "typing_only": ("allow", 'allows typing-only imports (typing_only = "allow")'),
    "as_packages": (
        False,
        "counts the named modules alone, not their submodules (as_packages = false)",
    ),
}


def _contracts_counting_otherwise(
    settings: Settings, importer: str, imported: str, counted: int, use_cache: bool
) -> tuple[ContractCount, ...]:
    """The configuration's forbidden contracts (with chains) that ask this question, from a
    module covering `importer` to one covering `imported`, and count other than `counted`
    chains between the two, each with why: what the contract excuses or leaves out."""
    counts = []
    for spec in settings.contracts:
        options = spec.options
        if options.get("type") != "forbidden" or options.get("allow_indirect_imports"):
            continue
        if not (
            _covered(options.get("source_modules"), importer)
            and _covered(options.get("forbidden_modules"), imported)
        ):
            continue
        narrowed = dataclasses.replace(
            spec,
            options={
                **{k: v for k, v in options.items() if k not in ("expect", "severity")},
                "source_modules": [importer],
                "forbidden_modules": [imported],
            },
        )
        try:
            report = check_settings(
                dataclasses.replace(settings, contracts=(narrowed,)),
                use_cache=use_cache,
                cache_results=False,
            )
        except ConfigError:
            continue
        result = report.results[0]
        if result.verdict is Verdict.ERROR:
            continue
        chains = sum(group.chains for group in result.chain_groups)
        if chains == counted:
            continue
        reasons = []
        if result.allowances_used:
            excused = "the rest" if chains else "them"
            reasons.append(f"its allowances excuse {excused} ({result.allowances_used} in use)")
        if result.ignored_imports:
            reasons.append(f"its ignore_imports take out {result.ignored_imports} imports")
        reasons.extend(
            said for key, (value, said) in _LEAVING_OUT.items() if options.get(key) == value
        )
        if options.get("unchecked"):
            reasons.append("its unchecked modules are never the importer of a finding")
        label = options.get("id") or options.get("name") or f"#{spec.index + 1}"
        counts.append(ContractCount(str(label), chains, tuple(reasons)))
    return tuple(counts)


def _covered(patterns: object, module: str) -> bool:
    """Whether a pattern of the option names `module` or a package holding it."""
    entries = patterns if isinstance(patterns, list) else [patterns]
    for entry in entries:
        if not isinstance(entry, str):
            continue
        try:
            if ModulePattern.parse(entry.strip()).covers(module):
                return True
        except ValueError:
            continue
    return False


class _TypingOnlyMarks:
    """Marks each statement of an explanation that only annotations not evaluated at run time
    need (`typing-only`): a contract with `typing_only = "allow"` allows it."""

    def __init__(self, evidence: Evidence) -> None:
        self.evidence = evidence

    def group(self, group: ChainGroup) -> ChainGroup:
        return group._replace(
            cut=tuple(self._cut(c) for c in group.cut),
            listed=tuple(self._chain(chain) for chain in group.listed),
        )

    def _cut(self, cut: CutImport) -> CutImport:
        return cut._replace(
            statements=tuple(self._statement(v) for v in cut.statements),
            example=self._chain(cut.example),
        )

    def _statement(self, violation: Violation) -> Violation:
        marked = violation._replace(chain=self._chain(violation.chain))
        if not self._typing_only(violation.importer, violation.imported, violation.line):
            return marked
        return marked._replace(qualifiers=(*violation.qualifiers, TYPING_ONLY_MARK))

    def _chain(self, chain: tuple[Hop, ...]) -> tuple[Hop, ...]:
        return tuple(
            hop._replace(qualifiers=(*hop.qualifiers, TYPING_ONLY_MARK))
            if self._typing_only(hop.importer, hop.imported, hop.line)
            else hop
            for hop in chain
        )

    def _typing_only(self, importer: str, imported: str, line: int) -> bool:
        """Whether every name of the statement at `line` is typing-only."""
        facts = self.evidence.facts_between(importer, imported)
        first = {f.first_line for f in facts if f.line == line}
        statement = [f for f in facts if f.first_line in first]
        return bool(statement) and all(self.evidence.is_typing_only(f) for f in statement)


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
            f"'{importer}' and '{imported}' overlap: one contains the other; name two modules "
            "neither of which lies in the other",
        )
