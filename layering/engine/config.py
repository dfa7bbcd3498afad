"""Find and read the configuration: `contracts.toml`, or `[tool.layering]` in `pyproject.toml`.

Every problem is reported with the file and line it stands on, since TOML parsers give values
but not positions: `LineIndex` finds them by reading the text once more.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from typing import Any

from layering.domain.errors import ConfigError, Problem, did_you_mean
from layering.domain.patterns import is_dotted_name

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

CONTRACTS_FILE = "contracts.toml"
PYPROJECT_FILE = "pyproject.toml"

SESSION_OPTIONS = {
    "root_packages": "the packages to check, e.g. [\"mypackage\"]",
    "source_roots": "directories (relative to this file) that hold the root packages",
    "exclude_type_checking_imports": "leave imports under `if TYPE_CHECKING:` out",
    "cache_dir": "where the import graph cache is kept (relative to this file)",
    "contracts": "the list of contracts, one [[contracts]] table each",
}


@dataclass(frozen=True)
class ContractSpec:
    """One `[[contracts]]` table as written, with the line of the table and of each key."""

    index: int
    options: dict[str, Any]
    line: int
    option_lines: dict[str, int]

    def line_of(self, option: str) -> int:
        return self.option_lines.get(option, self.line)


@dataclass(frozen=True)
class Settings:
    """The run-wide options, with paths made absolute."""

    path: str
    root_packages: tuple[str, ...]
    source_roots: tuple[str, ...]
    exclude_type_checking_imports: bool
    cache_dir: str | None
    contracts: tuple[ContractSpec, ...]
    notes: tuple[str, ...] = field(default=())
    option_lines: dict[str, int] = field(default_factory=dict, compare=False, hash=False)

    def line_of(self, option: str) -> int:
        """The line a run-wide option stands on (0 when it is not written)."""
        return self.option_lines.get(option, 0)

    @property
    def base_dir(self) -> str:
        return os.path.dirname(self.path)

    def display_path(self, path: str) -> str:
        """`path` relative to the configuration's directory where it lies below it."""
        relative = os.path.relpath(path, self.base_dir)
        return path if relative.startswith("..") else relative.replace(os.sep, "/")


def find_config(start: str) -> tuple[str, tuple[str, ...]]:
    """The configuration file for a run started in `start`, and notes on what was passed over.

    `contracts.toml` wins over `[tool.layering]` in a `pyproject.toml` of the same directory;
    the nearest directory upwards that has either is used.
    """
    directory = os.path.abspath(start)
    while True:
        contracts = os.path.join(directory, CONTRACTS_FILE)
        pyproject = os.path.join(directory, PYPROJECT_FILE)
        has_section = os.path.isfile(pyproject) and has_layering_section(pyproject)
        if os.path.isfile(contracts):
            notes = ()
            if has_section:
                notes = (
                    f"using {CONTRACTS_FILE}; [tool.layering] in {PYPROJECT_FILE} of the same "
                    "directory is ignored (remove one of them)",
                )
            return contracts, notes
        if has_section:
            return pyproject, ()
        parent = os.path.dirname(directory)
        if parent == directory:
            raise ConfigError(
                Problem(
                    os.path.abspath(start),
                    0,
                    f"no {CONTRACTS_FILE}, and no [tool.layering] in a {PYPROJECT_FILE}, here or "
                    "in any parent directory",
                    hint=f"write a {CONTRACTS_FILE} (see the README) or name one with --config",
                )
            )
        directory = parent


def locate_settings(config: str | None = None, start: str = ".") -> Settings:
    """The settings of the named configuration, or of the one found from `start` upwards."""
    if config is not None:
        if not os.path.exists(config):
            raise ConfigError(Problem(os.path.abspath(config), 0, "the configuration file does not exist"))
        return load_settings(config)
    path, notes = find_config(start)
    return load_settings(path, notes)


def has_layering_section(pyproject: str) -> bool:
    try:
        with open(pyproject, encoding="utf-8", errors="replace") as handle:
            return re.search(r"^\s*\[+\s*tool\.layering[\].]", handle.read(), re.M) is not None
    except OSError:
        return False


def load_settings(path: str, notes: tuple[str, ...] = ()) -> Settings:
    """Read and validate the run-wide options of the configuration at `path`."""
    path = os.path.abspath(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise ConfigError(Problem(path, 0, f"cannot read the configuration ({error.strerror})")) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise ConfigError(Problem(path, line, "the configuration is not UTF-8 text")) from None
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(_toml_problem(path, text, error)) from None

    in_pyproject = os.path.basename(path) == PYPROJECT_FILE
    prefix = "tool.layering." if in_pyproject else ""
    table: Any = document
    if in_pyproject:
        table = document.get("tool", {}).get("layering")
        if table is None:
            raise ConfigError(
                Problem(path, 0, "no [tool.layering] table", hint="add one, or use contracts.toml")
            )
    index = LineIndex(text, prefix)
    return _read_settings(path, table, index, notes)


def _toml_problem(path: str, text: str, error: Exception) -> Problem:
    message = str(error)
    line = getattr(error, "lineno", 0) or 0
    column = getattr(error, "colno", 0) or 0
    if not line:
        found = re.search(r"\(at line (\d+), column (\d+)\)", message)
        if found:
            line, column = int(found.group(1)), int(found.group(2))
    if not line and "end of document" in message:
        line = max(1, len(text.splitlines()))
    message = re.sub(r"\s*\(at line \d+, column \d+\)", "", message)
    message = getattr(error, "msg", message)
    return Problem(path, line, f"TOML syntax error: {message}", column=column, hint="fix the TOML syntax")


class LineIndex:
    """Where each top-level key and each `[[contracts]]` table and its keys stand in the text."""

    def __init__(self, text: str, prefix: str) -> None:
        self.top: dict[str, int] = {}
        self.contracts: list[tuple[int, dict[str, int]]] = []
        header = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?")
        key = re.compile(r"^\s*([A-Za-z0-9_\-]+|\"[^\"]+\")\s*=")
        in_table = "" if not prefix else None
        current: dict[str, int] | None = None
        contracts_header = f"{prefix}contracts"
        own_table = prefix.rstrip(".")
        for number, line in enumerate(text.splitlines(), start=1):
            found = header.match(line)
            if found:
                name = found.group(2).strip()
                current = None
                if name == contracts_header:
                    current = {}
                    self.contracts.append((number, current))
                    self.top.setdefault("contracts", number)
                    in_table = None
                elif name == own_table:
                    in_table = ""
                else:
                    in_table = None
                continue
            found = key.match(line)
            if not found:
                continue
            name = found.group(1).strip('"')
            if current is not None:
                current.setdefault(name, number)
            elif in_table == "":
                self.top.setdefault(name, number)

    def contract(self, position: int) -> tuple[int, dict[str, int]]:
        if position < len(self.contracts):
            return self.contracts[position]
        return 0, {}


def _read_settings(path: str, table: Any, index: LineIndex, notes: tuple[str, ...]) -> Settings:
    problems: list[Problem] = []
    if not isinstance(table, dict):
        raise ConfigError(Problem(path, 0, "[tool.layering] must be a table"))
    for key in sorted(set(table) - set(SESSION_OPTIONS)):
        problems.append(
            Problem(
                path,
                index.top.get(key, 0),
                f"unknown option '{key}'.{did_you_mean(key, SESSION_OPTIONS)}",
                hint="known options: " + ", ".join(sorted(SESSION_OPTIONS)),
            )
        )

    def strings(key: str, default: list[str] | None) -> list[str]:
        value = table.get(key, default)
        if value is None:
            problems.append(
                Problem(path, 0, f"'{key}' is required: {SESSION_OPTIONS[key]}")
            )
            return []
        if isinstance(value, str) and key == "source_roots":
            value = [value]
        if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
            problems.append(
                Problem(
                    path,
                    index.top.get(key, 0),
                    f"'{key}' must be a non-empty list of strings, got {_describe(value)}",
                    hint=f'write {key} = ["..."]',
                )
            )
            return []
        return value

    roots = strings("root_packages", None)
    for root in roots:
        if not is_dotted_name(root):
            problems.append(
                Problem(path, index.top.get("root_packages", 0), f"'{root}' is not a package name")
            )
    source_roots = strings("source_roots", ["."])
    exclude = table.get("exclude_type_checking_imports", False)
    if not isinstance(exclude, bool):
        problems.append(
            Problem(
                path,
                index.top.get("exclude_type_checking_imports", 0),
                f"'exclude_type_checking_imports' must be true or false, got {_describe(exclude)}",
            )
        )
    cache_dir = table.get("cache_dir", ".layering_cache")
    if cache_dir is not False and not isinstance(cache_dir, str):
        problems.append(
            Problem(
                path,
                index.top.get("cache_dir", 0),
                f"'cache_dir' must be a path or false, got {_describe(cache_dir)}",
            )
        )
    raw_contracts = table.get("contracts", [])
    if not isinstance(raw_contracts, list) or not all(isinstance(c, dict) for c in raw_contracts):
        problems.append(
            Problem(path, index.top.get("contracts", 0), "'contracts' must be [[contracts]] tables")
        )
        raw_contracts = []
    if not raw_contracts and not problems:
        problems.append(
            Problem(
                path,
                0,
                "no contracts: a configuration without [[contracts]] checks nothing",
                hint="add a [[contracts]] table (see the README)",
            )
        )
    if problems:
        raise ConfigError(problems)

    base = os.path.dirname(path)
    specs = []
    for position, options in enumerate(raw_contracts):
        line, lines = index.contract(position)
        specs.append(ContractSpec(position, options, line, lines))
    return Settings(
        path=path,
        root_packages=tuple(roots),
        source_roots=tuple(os.path.normpath(os.path.join(base, r)) for r in source_roots),
        exclude_type_checking_imports=bool(exclude),
        cache_dir=None if cache_dir is False else os.path.normpath(os.path.join(base, cache_dir)),
        contracts=tuple(specs),
        notes=notes,
        option_lines=dict(index.top),
    )


def _describe(value: Any) -> str:
    kinds = {str: "a string", bool: "a boolean", int: "a number", float: "a number", list: "a list", dict: "a table"}
    return f"{kinds.get(type(value), type(value).__name__)} ({value!r})"
