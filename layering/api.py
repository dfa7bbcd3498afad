"""The Python API for hand-written tests and generated contracts: `layering.check(...)`."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from layering.commands.check import ProbeSelection, check_settings
from layering.domain.errors import ConfigError
from layering.domain.results import RunReport
from layering.engine.config import locate_settings
from layering.engine.config_mapping import located_by_key, report_by_key, settings_from_mapping


class CheckedReport(RunReport):
    """A run's report that prints as the text report, so that `assert report.exit_code == 0,
    report` shows the violations (pytest shows an assertion message's repr)."""

    def __str__(self) -> str:
        from layering.reporting import text

        return text.render(self).rstrip("\n")

    __repr__ = __str__


def check(
    config: str | os.PathLike[str] | Mapping[str, Any] | None = None,
    *,
    contracts: Sequence[str] = (),
    probes: bool = True,
    use_cache: bool = True,
    jobs: int | None = None,
    start: str = ".",
    chains: int = 0,
    base_dir: str | None = None,
) -> RunReport:
    """Check the contracts of `config`: a configuration file, or found from `start` upwards
    when None; or a dict with the structure of a contracts.toml, whose paths (`source_roots`,
    `cache_dir`) are relative to `base_dir` (default: the working directory).

    `contracts` limits the run to those ids; `probes=False` skips probe contracts; `chains`
    lists that many chains of a broken graph contract beyond one example per import to cut. Raises
    `layering.ConfigError` when the run cannot be made (for a dict, each problem at its key
    path, e.g. `contracts[1].source_modules`); `report.exit_code` is the CLI's.
    """
    if config is None or isinstance(config, (str, os.PathLike)):
        if base_dir is not None:
            raise TypeError("base_dir is for a configuration given as a dict")
        settings = locate_settings(None if config is None else os.fspath(config), start)
    else:
        settings = settings_from_mapping(config, base_dir if base_dir is not None else ".")
    selection = ProbeSelection.ALL if probes else ProbeSelection.STATIC
    try:
        report = check_settings(
            settings, contracts, selection, use_cache=use_cache, jobs=jobs, chains=chains
        )
    except ConfigError as error:
        if not settings.mapping_digest:
            raise
        raise located_by_key(settings, error) from None
    if settings.mapping_digest:
        report = report_by_key(settings, report)
    return CheckedReport(*report)
