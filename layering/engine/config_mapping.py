"""A configuration given as a Python mapping, for code that generates contracts
(`layering.check(config={...}, base_dir=...)`): the structure of a contracts.toml, read by the
same code as the file.

The readers locate every problem by line, and a mapping has none: each key and each entry of a
list gets a line number of its own, and `Settings.key_paths` says which key path it stands for
(`contracts[1].source_modules`, `exclude[0]`). What the run reports at those numbers is then
said at the key path instead (`located_by_key`).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import re
from collections.abc import Iterator, Mapping
from typing import Any

from layering.adapters.hashing import blake2b
from layering.domain.errors import ConfigError, Problem
from layering.domain.results import ContractResult, ItemResult, RunReport, Violation
from layering.engine.config import LAYERING, ContractSpec, Settings, read_settings

CONFIG_NAME = "config"
"""What the configuration is called where a file's name would stand: the argument's name."""

_TOML_VALUES = "a string, number, boolean, list or dict, as contracts.toml holds"


def settings_from_mapping(config: Mapping[str, Any], base_dir: str) -> Settings:
    """The settings `config` gives, read as a contracts.toml in `base_dir` would be (paths in it
    are relative to `base_dir`); a ConfigError at key paths when it cannot be read."""
    path = os.path.join(os.path.abspath(base_dir), CONFIG_NAME)
    if not isinstance(config, Mapping):
        raise ConfigError(
            Problem(
                CONFIG_NAME, 0, f"the configuration must be a dict, got {type(config).__name__}"
            )
        )
    problems: list[Problem] = []
    table = _plain(config, "", problems)
    if problems:
        raise ConfigError(problems)
    numbers = itertools.count(1)
    key_paths: dict[int, str] = {}

    def number(key_path: str) -> int:
        line = next(numbers)
        key_paths[line] = key_path
        return line

    top, top_entries = _numbered(table, "", number)
    raw_contracts = table.get("contracts", [])
    config_problems: list[Problem] = []
    if not isinstance(raw_contracts, list) or not all(isinstance(c, dict) for c in raw_contracts):
        config_problems.append(
            Problem(
                path, top["contracts"], "'contracts' must be a list of dicts, one per contract"
            )
        )
        raw_contracts = []
    specs = []
    for position, options in enumerate(raw_contracts):
        table_path = f"contracts[{position}]"
        line = number(table_path)
        keys, entries = _numbered(options, table_path + ".", number)
        specs.append(ContractSpec(position, options, line, keys, entries))
    session = {k: v for k, v in table.items() if k != "contracts"}
    settings = read_settings(
        path, session, top, top_entries, specs, config_problems, (), LAYERING, "toml"
    )
    digest = blake2b(json.dumps(table).encode(), digest_size=20).hexdigest()
    return dataclasses.replace(settings, key_paths=key_paths, mapping_digest=digest)


def _plain(value: Any, key_path: str, problems: list[Problem]) -> Any:
    """`value` as TOML would give it (dicts and lists), each value it cannot hold a problem."""
    if isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v, f"{key_path}[{i}]", problems) for i, v in enumerate(value)]
    if isinstance(value, Mapping):
        plain = {}
        for key, item in value.items():
            if not isinstance(key, str):
                problems.append(
                    Problem(key_path or CONFIG_NAME, 0, f"key {key!r} is not a string")
                )
                continue
            plain[key] = _plain(item, f"{key_path}.{key}" if key_path else key, problems)
        return plain
    problems.append(Problem(key_path, 0, f"{value!r} is not {_TOML_VALUES}"))
    return value


def _numbered(
    table: dict[str, Any], prefix: str, number: Any
) -> tuple[dict[str, int], dict[str, tuple[int, ...]]]:
    """A line number for each key of `table` and for each entry of its lists."""
    keys: dict[str, int] = {}
    entries: dict[str, tuple[int, ...]] = {}
    for key, value in table.items():
        keys[key] = number(prefix + key)
        if isinstance(value, list) and not (prefix == "" and key == "contracts"):
            entries[key] = tuple(number(f"{prefix}{key}[{i}]") for i in range(len(value)))
    return keys, entries


# --------------------------------------------------------------------------- saying it by key


def located_by_key(settings: Settings, error: ConfigError) -> ConfigError:
    """`error` with each problem of the configuration at its key path."""
    return ConfigError([_problem_by_key(settings, p) for p in error.problems])


def _problem_by_key(settings: Settings, problem: Problem) -> Problem:
    if problem.path != settings.path:
        return problem
    key_path = settings.key_paths.get(problem.line, CONFIG_NAME)
    return problem._replace(path=key_path, line=0, column=0)


def report_by_key(settings: Settings, report: RunReport) -> RunReport:
    """`report` with every place of the configuration it names (a stale allowance, a contract's
    table, a warning about an entry) said at its key path."""
    words = _ByKey(settings)
    return report._replace(
        results=tuple(words.result(r) for r in report.results),
        warnings=tuple(words.text(w) for w in report.warnings),
    )


class _ByKey:
    """Rewrites `config:LINE` (a violation's place, a message's) to the key path of LINE."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        shown = settings.display_path(settings.path)
        self.shown = {shown, settings.path}
        self.pattern = re.compile(
            r"(?<![\w./])(?:" + "|".join(re.escape(s) for s in sorted(self.shown)) + r"):(\d+)"
        )

    def text(self, text: str) -> str:
        return self.pattern.sub(self._key_path, text)

    def _key_path(self, found: re.Match[str]) -> str:
        return self.settings.key_paths.get(int(found.group(1)), found.group(0))

    def violation(self, violation: Violation) -> Violation:
        if violation.path in self.shown:
            key_path = self.settings.key_paths.get(violation.line, CONFIG_NAME)
            violation = violation._replace(path=key_path, line=0)
        return violation._replace(message=self.text(violation.message))

    def violations(self, violations: tuple[Violation, ...]) -> tuple[Violation, ...]:
        return tuple(self.violation(v) for v in violations)

    def items(self, items: tuple[ItemResult, ...]) -> Iterator[ItemResult]:
        for item in items:
            yield item._replace(violations=self.violations(item.violations))

    def result(self, result: ContractResult) -> ContractResult:
        result = result._replace(
            violations=self.violations(result.violations),
            notes=tuple(self.text(n) for n in result.notes),
            items=tuple(self.items(result.items)),
        )
        if result.source_path not in self.shown:
            return result
        key_path = self.settings.key_paths.get(result.source_line, CONFIG_NAME)
        return result._replace(source_path=key_path, source_line=0)
