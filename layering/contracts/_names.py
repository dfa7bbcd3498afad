"""Name-level targets, shared by `forbidden` (`forbidden_names`) and `leaf` (tables in `within`).

A target `{ module = "pkg.mod", names = ["NAME", "_*"] }` is taken by each statement that
imports one of the names from the module and by each use of one on the module imported whole
(`mod.NAME`, `getattr(mod, "NAME")`, a patch of `pkg.mod.NAME`): one finding per statement,
or per line of use. Chains do not apply: a name is taken directly or not at all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from layering.contracts._common import OptionError, statement_violations
from layering.domain.facts import ImportFact
from layering.domain.name_targets import NameTarget, is_name_pattern
from layering.domain.patterns import ModulePattern, is_within
from layering.domain.results import Violation

if TYPE_CHECKING:
    from layering.contracts._common import Contract
    from layering.domain.module_classes import ModuleClasses
    from layering.engine.evidence import Evidence


def parse_name_target(value: Any) -> NameTarget:
    """A `{ module = "...", names = [...] }` table."""
    if not isinstance(value, dict):
        raise OptionError(
            f'a name-level target is a table {{ module = "...", names = [...] }}, got {value!r}'
        )
    unknown = sorted(set(value) - {"module", "names"})
    if unknown:
        raise OptionError(
            f"unknown key {unknown[0]!r} in a name-level target (keys: module, names)"
        )
    if "module" not in value or "names" not in value:
        raise OptionError("a name-level target needs 'module' and 'names'")
    if not isinstance(value["module"], str):
        raise OptionError(f"'module' must be a module name, got {value['module']!r}")
    try:
        module = ModulePattern.parse(value["module"])
    except ValueError as error:
        raise OptionError(str(error)) from None
    names = value["names"]
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise OptionError(f"'names' must list at least one name, got {names!r}")
    for name in names:
        if not is_name_pattern(name):
            raise OptionError(f"{name!r} is not a name (names take '*' for any characters: '_*')")
    return NameTarget(module, tuple(names))


def parse_name_targets(value: Any) -> tuple[NameTarget, ...]:
    """`forbidden_names`: a list of name-level tables, at least one."""
    if not isinstance(value, list) or not value:
        raise OptionError(
            f'expected a list of {{ module = "...", names = [...] }} tables, got {value!r}'
        )
    return tuple(parse_name_target(v) for v in value)


def split_modules_and_names(
    value: Any, classes: ModuleClasses | None = None
) -> tuple[tuple[ModulePattern, ...], tuple[NameTarget, ...]]:
    """A list that mixes module patterns (strings; classes of modules too, given `classes`)
    and name-level tables, as `leaf`'s `within`."""
    entries = value if isinstance(value, list) else [value]
    if not entries:
        raise OptionError("expected at least one module")
    modules, targets = [], []
    for entry in entries:
        if isinstance(entry, str) and entry:
            try:
                modules.append(ModulePattern.parse(entry, classes))
            except ValueError as error:
                raise OptionError(str(error)) from None
        elif isinstance(entry, dict):
            targets.append(parse_name_target(entry))
        else:
            raise OptionError(
                f"expected module patterns or {{ module, names }} tables, got {entry!r}"
            )
    return tuple(modules), tuple(targets)


def redundant_targets(
    contract: Contract,
    option: str,
    modules: Iterable[ModulePattern],
    targets: tuple[NameTarget, ...],
    as_packages: bool,
) -> None:
    """A name-level target inside a module the contract already covers whole adds nothing: an
    error."""
    for target in targets:
        for pattern in modules:
            if target.module.has_wildcard:
                continue
            covered = (
                pattern.covers(target.module.text)
                if as_packages
                else pattern.matches(target.module.text)
            )
            if covered:
                contract.problem(
                    option,
                    f"contract '{contract.name}': the names of '{target.module}' in '{option}' "
                    f"are already covered by '{pattern}'",
                    hint="remove the name-level target, or the module pattern",
                )


def require_target_modules(
    contract: Contract, evidence: Evidence, option: str, targets: tuple[NameTarget, ...]
) -> None:
    contract.require_matches(evidence, option, tuple(t.module for t in targets), external_ok=True)


def name_findings(
    evidence: Evidence,
    importers: Iterable[str],
    targets: tuple[NameTarget, ...],
    code: str,
    excused: Callable[[ImportFact], bool],
) -> list[Violation]:
    """Each statement (or line of use) of `importers` that takes a target name, not excused."""
    violations = []
    for importer in importers:
        taken = [
            *_from_statements(evidence, importer, targets),
            *(
                f
                for f in _name_uses(evidence, importer, targets)
                if any(t.takes(f) for t in targets)
            ),
        ]
        violations.extend(statement_violations([f for f in taken if not excused(f)], code))
    return violations


def _name_uses(
    evidence: Evidence, importer: str, targets: tuple[NameTarget, ...]
) -> tuple[ImportFact, ...]:
    """The uses of names on modules in `importer`, read only where one could take a target name.

    Such a use spells the name (`.NAME`, `"NAME"`, `"pkg.mod.NAME"`) and starts from a name an
    import binds on the way to the target's module (`import a.b` binds `a`; `from a import b`
    binds `a.b`) or from a string that spells the module; a file that can hold none is not
    parsed a second time.
    """
    pieces = {max(name.split("*"), key=len) for t in targets for name in t.names}
    modules = {t.module.text for t in targets}
    reachable = any(t.module.has_wildcard for t in targets) or any(
        is_within(module, fact.module.partition(".")[0] if fact.name is None else fact.dotted)
        for fact in evidence.facts_of(importer)
        for module in modules
    )

    return evidence.name_uses_of(
        importer, _SpellsATarget(tuple(sorted(pieces)), tuple(sorted(modules)), reachable)
    )


class _SpellsATarget(NamedTuple):
    """A text that spells a piece of a target name and, unless an import of the file reaches
    a target's module, a target's module too: only such a file can use a target name."""

    pieces: tuple[str, ...]
    modules: tuple[str, ...]
    reachable: bool

    @property
    def key(self) -> tuple[object, ...]:
        return tuple(self)

    def __call__(self, text: str) -> bool:
        return any(piece in text for piece in self.pieces) and (
            self.reachable or any(module in text for module in self.modules)
        )


def _from_statements(
    evidence: Evidence, importer: str, targets: tuple[NameTarget, ...]
) -> list[ImportFact]:
    """The names import statements take; a star import takes the public names it would bind."""
    taken = []
    for fact in evidence.facts_of(importer):
        if fact.name == "*" and any(t.module.matches(fact.module) for t in targets):
            defined = evidence.defined_names(fact.module) or frozenset()
            for name in sorted(n for n in defined if not n.startswith("_")):
                named = fact._replace(name=name)
                if any(t.takes(named) for t in targets):
                    taken.append(named)
        elif any(t.takes(fact) for t in targets):
            taken.append(fact)
    return taken


def stale_target_notes(
    contract: Contract, evidence: Evidence, option: str, targets: tuple[NameTarget, ...]
) -> list[str]:
    """A note for each target whose module (internal, read statically) does not define some of
    its names: an import of one fails today, so the rule may be kept so they do not come back,
    or retired, or it names something misspelt. Not a failure."""
    where = (
        f"{contract.settings.display_path(contract.settings.path)}:{contract.spec.line_of(option)}"
    )
    notes = []
    for target in targets:
        modules = evidence.expand(target.module)
        defined = [evidence.defined_names(m) for m in modules]
        known = [d for d in defined if d is not None]
        if not modules or len(known) < len(defined):
            continue
        undefined = target.undefined(frozenset().union(*known))
        if not undefined:
            continue
        listed = ", ".join(f"'{n}'" for n in undefined)
        count = (
            f" ({len(undefined)} of its {len(target.names)} names)"
            if len(target.names) > 1
            else ""
        )
        notes.append(
            f"{where}: contract '{contract.name}': '{target.module}' does not define "
            f"{listed}{count}; "
            "a note, not a failure: keep the rule so they do not come back, retire it, or fix a "
            "misspelt name"
        )
    return notes
