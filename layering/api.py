"""The Python API for hand-written tests: `layering.check(...)`."""

from __future__ import annotations

from collections.abc import Sequence

from layering.commands.check import ProbeSelection, check_settings
from layering.domain.results import RunReport
from layering.engine.config import locate_settings


class CheckedReport(RunReport):
    """A run's report that prints as the text report, so that `assert report.exit_code == 0,
    report` shows the violations (pytest shows an assertion message's repr)."""

    def __str__(self) -> str:
        from layering.reporting import text

        return text.render(self).rstrip("\n")

    __repr__ = __str__


def check(
    config: str | None = None,
    *,
    contracts: Sequence[str] = (),
    probes: bool = True,
    use_cache: bool = True,
    jobs: int | None = None,
    start: str = ".",
    chains: int = 0,
) -> RunReport:
    """Check the contracts of `config` (found from `start` upwards when None).

    `contracts` limits the run to those ids; `probes=False` skips probe contracts; `chains`
    lists that many chains of a broken graph contract beyond one example per import to cut. Raises
    `layering.ConfigError` when the run cannot be made; `report.exit_code` is the CLI's.
    """
    settings = locate_settings(config, start)
    selection = ProbeSelection.ALL if probes else ProbeSelection.STATIC
    report = check_settings(
        settings, contracts, selection, use_cache=use_cache, jobs=jobs, chains=chains
    )
    return CheckedReport(*report)
