"""Reuse a cached verdict after an edit that left a file's imports as they were.

The verdict and the findings stay true, but the lines a report shows in an edited file may have
moved: each import statement shown there is read again from the source (the n-th statement of
an importer that imports a module is still the n-th), everything else is kept as it was.
"""

from __future__ import annotations

from collections.abc import Iterable

from layering.domain.codes import STATEMENT_CODES
from layering.domain.results import (
    ChainGroup,
    ContractResult,
    CutImport,
    Hop,
    Violation,
    statement_message,
)
from layering.engine.evidence import Evidence


class NotRelocatable(Exception):
    """A shown statement can no longer be found as it was: decide the contract again."""


def relocate(
    results: list[ContractResult], changed: set[str], evidence: Evidence
) -> list[ContractResult] | None:
    """`results` with every statement shown in a `changed` file at its line now, or None when
    that cannot be done with certainty (the run then decides the contracts again)."""
    if not changed:
        return results
    lines = _Relocator(changed, evidence)
    try:
        return [lines.result(result) for result in results]
    except NotRelocatable:
        return None


class _Relocator:
    def __init__(self, changed: set[str], evidence: Evidence) -> None:
        self.changed = changed
        self.evidence = evidence
        self._now: dict[tuple[str, str], list[Hop]] = {}
        self._before: dict[tuple[str, str], set[int]] = {}

    def result(self, result: ContractResult) -> ContractResult:
        self._collect(result)
        return result._replace(
            violations=tuple(sorted(self.violation(v) for v in result.violations)),
            chain_groups=tuple(self.group(g) for g in result.chain_groups),
            cut=tuple(self.hop(h) for h in result.cut),
        )

    def _collect(self, result: ContractResult) -> None:
        """Every line shown for each module pair in a changed file, to number them in order."""
        for violation in self._violations(result):
            if violation.path in self.changed:
                self._before.setdefault((violation.importer, violation.imported), set()).add(
                    violation.line
                )
            for hop in violation.chain:
                self._hop_seen(hop)
        for group in result.chain_groups:
            for chain in [cut.example for cut in group.cut] + list(group.listed):
                for hop in chain:
                    self._hop_seen(hop)
        for hop in result.cut:
            self._hop_seen(hop)

    def _hop_seen(self, hop: Hop) -> None:
        if hop.path in self.changed:
            self._before.setdefault((hop.importer, hop.imported), set()).add(hop.line)

    @staticmethod
    def _violations(result: ContractResult) -> Iterable[Violation]:
        yield from result.violations
        for group in result.chain_groups:
            for cut in group.cut:
                yield from cut.statements

    def _statement_now(self, pair: tuple[str, str], line: int) -> Hop:
        if pair not in self._now:
            importer, imported = pair
            if self._has_unresolved_statement(importer, imported):
                raise NotRelocatable(pair)
            self._now[pair] = self.evidence.statements_in_source(importer, imported)
        before = sorted(self._before.get(pair, ()))
        now = self._now[pair]
        if line not in before or len(now) < len(before) or not now[0].path:
            raise NotRelocatable(pair)
        return now[before.index(line)]

    def _has_unresolved_statement(self, importer: str, imported: str) -> bool:
        """Whether a statement of the pair names an internal module that does not exist
        (`from pkg.gone import x`): the source reads it as an import of `pkg`, grimp reads no
        import at all, so the n-th statement of the source is not grimp's n-th."""
        evidence = self.evidence
        return any(
            f.imported == imported
            and evidence.is_internal(f.module)
            and not evidence.is_module(f.module)
            for f in evidence.facts_of(importer)
        )

    def hop(self, hop: Hop) -> Hop:
        if hop.path not in self.changed:
            return hop
        return self._statement_now((hop.importer, hop.imported), hop.line)

    def violation(self, violation: Violation) -> Violation:
        chain = tuple(self.hop(h) for h in violation.chain)
        if violation.path not in self.changed:
            return violation._replace(chain=chain)
        if violation.code not in STATEMENT_CODES:
            raise NotRelocatable(violation.code)
        said = statement_message(
            violation.importer, violation.imported, violation.names, violation.detail
        )
        if violation.message != said:  # not a statement's finding: it cannot be read again
            raise NotRelocatable(violation.message)
        now = self._statement_now((violation.importer, violation.imported), violation.line)
        message = statement_message(now.importer, now.imported, now.names, violation.detail)
        return violation._replace(
            line=now.line, names=now.names, qualifiers=now.qualifiers, message=message, chain=chain
        )

    def group(self, group: ChainGroup) -> ChainGroup:
        return group._replace(
            cut=tuple(
                CutImport(
                    cut.importer,
                    cut.imported,
                    tuple(
                        sorted((self.violation(v) for v in cut.statements), key=lambda v: v.line)
                    ),
                    cut.chains,
                    tuple(self.hop(h) for h in cut.example),
                )
                for cut in group.cut
            ),
            listed=tuple(tuple(self.hop(h) for h in chain) for chain in group.listed),
        )
