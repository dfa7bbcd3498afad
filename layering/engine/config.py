"""Find and read the configuration, in layering's format or in import-linter's, as it is.

layering's own: `contracts.toml`, or `[tool.layering]` in `pyproject.toml`. import-linter's:
`setup.cfg` or `.importlinter` with an `[importlinter]` section, or `[tool.importlinter]` in
`pyproject.toml` (or any file named on the command line: a `.toml` file is read as TOML, any
other as INI, as `lint-imports` does). Every option means what it means to import-linter.

Every problem is reported with the file and line it stands on, since TOML and INI parsers give
values but not positions: `LineIndex` (TOML) and `ini_config` (INI) find them by reading the
text once more, down to each entry of a list.
"""

from __future__ import annotations

import dataclasses
import os
import re
import sys
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from layering.adapters.config_lines import lines_of
from layering.adapters.toml_text import HEADER, KEY, value_extent
from layering.domain.errors import ConfigError, Problem, UsageError, did_you_mean
from layering.domain.module_classes import EXTERNAL_CLASSES, ModuleClasses
from layering.domain.patterns import ModulePattern, PatternIndex, index_patterns, is_dotted_name

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

CONTRACTS_FILE = "contracts.toml"
PYPROJECT_FILE = "pyproject.toml"
SETUP_CFG_FILE = "setup.cfg"
IMPORTLINTER_FILE = ".importlinter"

LAYERING = "layering"
IMPORTLINTER = "importlinter"

SESSION_OPTIONS = {
    "root_packages": 'the packages to check, e.g. ["mypackage"]',
    "root_package": "the package to check (import-linter's spelling for one package)",
    "source_roots": "directories (relative to this file) that hold the root packages",
    "include_external_packages": "put external packages in the graph, as import-linter does",
    "exclude_type_checking_imports": "leave imports under `if TYPE_CHECKING:` out",
    "contract_types": "import-linter contract types of your own, each 'name: module.Class'",
    "cache_dir": "where the import graph cache is kept (relative to this file)",
    "exclude": "module patterns left out of the graph and of every contract, with everything "
    "under them",
    "respect_gitignore": "leave out the modules whose files git ignores, as `exclude` does",
    "contracts": "the list of contracts, one [[contracts]] table each",
}
IGNORED_IMPORTLINTER_OPTIONS = ("show_timings",)
"""import-linter session options about its own output: accepted, with nothing to do here."""

DISCOVERY_ORDER = (
    "contracts.toml",
    "[tool.layering] in pyproject.toml",
    "[importlinter] in setup.cfg",
    ".importlinter",
    "[tool.importlinter] in pyproject.toml",
)
"""What `layering check` looks for, in each directory from the current one upwards. The
import-linter places come in import-linter's own order (it reads INI files first)."""


@dataclass(frozen=True)
class ContractSpec:
    """One contract as written (a `[[contracts]]` table or an `[importlinter:contract:...]`
    section), with the line of the table, of each key and of each entry of a list."""

    index: int
    options: dict[str, Any]
    line: int
    option_lines: dict[str, int]
    entry_lines: dict[str, tuple[int, ...]] = field(default_factory=dict)

    def line_of(self, option: str) -> int:
        return self.option_lines.get(option, self.line)

    @property
    def label(self) -> str:
        """How a problem names the contract before its type is known: by its name, else its
        id, as the other problems of a contract do, else by its place (`contract #2`)."""
        for key in ("name", "id"):
            value = self.options.get(key)
            if isinstance(value, str) and value:
                return f"contract '{value}'"
        return f"contract #{self.index + 1}"

    def line_of_entry(self, option: str, index: int) -> int:
        """The line of entry `index` of list option `option` (the option's line if unknown)."""
        lines = self.entry_lines.get(option, ())
        return lines[index] if 0 <= index < len(lines) else self.line_of(option)


@dataclass(frozen=True)
class PluginType:
    """A contract type of the user's own, registered with import-linter's `contract_types`."""

    name: str
    class_path: str
    line: int


@dataclass(frozen=True)
class Settings:
    """The run-wide options, with paths made absolute.

    `problems` holds what is wrong with the run-wide options; they are reported together with
    every contract's problems (`commands.check.load_contracts`), so one run names them all.
    """

    path: str
    root_packages: tuple[str, ...]
    source_roots: tuple[str, ...]
    exclude_type_checking_imports: bool
    cache_dir: str | None
    contracts: tuple[ContractSpec, ...]
    notes: tuple[str, ...] = field(default=())
    option_lines: dict[str, int] = field(default_factory=dict, compare=False, hash=False)
    include_external_packages: bool = False
    contract_types: tuple[PluginType, ...] = ()
    dialect: str = LAYERING
    file_format: str = "toml"
    problems: tuple[Problem, ...] = ()
    source_roots_given: bool = True
    table_name: str = ""
    """Where the configuration stands in its TOML file ("tool.layering", "tool.importlinter"),
    "" for the whole file (a contracts.toml, or INI)."""
    roots_known: bool = True
    """Whether the root packages and source roots were read without a problem (so they can be
    looked for, and patterns checked against the package)."""
    exclude: tuple[ModulePattern, ...] = ()
    """Modules that are not part of the package for any contract (tests, migrations, generated
    code): each pattern's modules and everything under them."""
    exclude_lines: tuple[int, ...] = ()
    """The line of each entry of `exclude`."""
    respect_gitignore: bool = False
    """Whether the modules whose files git ignores are left out as `exclude` leaves modules."""
    key_paths: dict[int, str] = field(default_factory=dict, compare=False, hash=False)
    """For a configuration given as a mapping (`layering.check(config={...})`): the key path
    each of its made-up line numbers stands for (`engine.config_mapping`); empty for a file."""
    mapping_digest: str = ""
    """For a configuration given as a mapping: the digest of what it says (there are no bytes)."""
    stdlib_modules: frozenset[str] = field(
        default=frozenset(sys.stdlib_module_names), compare=False, hash=False
    )
    """The standard library's top-level modules, of the interpreter that runs the code (the
    running one, or `--python`'s: `with_stdlib_of`)."""

    @property
    def module_classes(self) -> ModuleClasses:
        """What `<first-party>`, `<stdlib>` and `<third-party>` name in this run."""
        return ModuleClasses(self.root_packages, self.stdlib_modules)

    @property
    def names_external_classes(self) -> bool:
        """Whether a contract names `<stdlib>` or `<third-party>`, whose modules depend on
        which interpreter runs the code."""
        return any(_names_external_class(spec.options) for spec in self.contracts)

    def excludes(self, module: str) -> bool:
        """Whether `module` is excluded: matched by an `exclude` pattern, or inside one."""
        return bool(self._excluded.covering(module))

    @cached_property
    def _excluded(self) -> PatternIndex[ModulePattern]:
        return index_patterns(self.exclude)

    @property
    def is_importlinter(self) -> bool:
        """Whether this is an import-linter configuration, whose contracts get `lint-imports`'
        verdicts: layering's stricter checks only warn there."""
        return self.dialect == IMPORTLINTER

    def line_of(self, option: str) -> int:
        """The line a run-wide option stands on (0 when it is not written)."""
        return self.option_lines.get(option, 0)

    def place(self, line: int) -> str:
        """Where `line` is, for a message that names a second place: "line 7", or the key path
        of a configuration given as a mapping."""
        return self.key_paths.get(line) or f"line {line}"

    def places(self, first: int, second: int) -> str:
        """`place` for two lines at once: "lines 5 and 11", or two key paths."""
        if self.mapping_digest:
            return f"{self.place(first)} and {self.place(second)}"
        return f"lines {first} and {second}"

    def content_digest(self) -> str:
        """The digest of what the configuration says, its lines included (results cite them)."""
        if self.mapping_digest:
            return self.mapping_digest
        from layering.adapters.result_cache import config_digest

        return config_digest(self.path)

    @property
    def base_dir(self) -> str:
        return os.path.dirname(self.path)

    def display_path(self, path: str) -> str:
        """`path` relative to the configuration's directory where it lies below it."""
        relative = os.path.relpath(path, self.base_dir)
        return path if relative.startswith("..") else relative.replace(os.sep, "/")


def _names_external_class(value: Any) -> bool:
    if isinstance(value, str):
        return any(name in value for name in EXTERNAL_CLASSES)
    if isinstance(value, dict):
        return any(_names_external_class(v) for v in value.values())
    if isinstance(value, list):
        return any(_names_external_class(v) for v in value)
    return False


# --------------------------------------------------------------------------- discovery


def find_config(start: str) -> tuple[str, tuple[str, ...]]:
    """The configuration file for a run started in `start`, and notes on what was passed over.

    The nearest directory upwards that holds any of `DISCOVERY_ORDER` is used, and in it the
    first of them. Another of the same kind in that directory (layering's or import-linter's)
    is named in a note, since only one is read.
    """
    directory = os.path.abspath(start)
    while True:
        found = _configurations_in(directory)
        if found:
            (path, label, dialect), *others = found
            notes = tuple(
                f"using {label}; {other} of the same directory is ignored (remove one of them)"
                for _, other, other_dialect in others
                if other_dialect == dialect
            )
            return path, notes
        parent = os.path.dirname(directory)
        if parent == directory:
            raise ConfigError(
                Problem(
                    os.path.abspath(start),
                    0,
                    "no configuration here or in any parent directory (looked for "
                    + ", ".join(DISCOVERY_ORDER)
                    + ")",
                    hint=f"write a {CONTRACTS_FILE} (see the README) or name a file with --config",
                )
            )
        directory = parent


def _configurations_in(directory: str) -> list[tuple[str, str, str]]:
    """(path, label, dialect) of each configuration in `directory`, in `DISCOVERY_ORDER`."""
    contracts = os.path.join(directory, CONTRACTS_FILE)
    pyproject = os.path.join(directory, PYPROJECT_FILE)
    setup_cfg = os.path.join(directory, SETUP_CFG_FILE)
    importlinter = os.path.join(directory, IMPORTLINTER_FILE)
    candidates = [
        (contracts, os.path.isfile(contracts), LAYERING),
        (pyproject, has_layering_section(pyproject), LAYERING),
        (setup_cfg, _has_section(setup_cfg, _INI_SECTION), IMPORTLINTER),
        (importlinter, _has_section(importlinter, _INI_SECTION), IMPORTLINTER),
        (pyproject, _has_section(pyproject, _IMPORTLINTER_TABLE), IMPORTLINTER),
    ]
    return [
        (path, label, dialect)
        for (path, present, dialect), label in zip(candidates, DISCOVERY_ORDER)
        if present
    ]


def importlinter_configuration_in(directory: str) -> str | None:
    """The import-linter configuration `layering check` would read in `directory`, if any
    (what `migrate` reads again)."""
    found = [path for path, _, dialect in _configurations_in(directory) if dialect == IMPORTLINTER]
    return found[0] if found else None


_LAYERING_TABLE = re.compile(r"^\s*\[+\s*tool\.layering[\].]", re.M)
_IMPORTLINTER_TABLE = re.compile(r"^\s*\[+\s*tool\.importlinter[\].]", re.M)
_INI_SECTION = re.compile(r"^\s*\[importlinter\]", re.M)


def _has_section(path: str, pattern: re.Pattern[str]) -> bool:
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as handle:
            return pattern.search(handle.read()) is not None
    except OSError:
        return False


def has_layering_section(pyproject: str) -> bool:
    return _has_section(pyproject, _LAYERING_TABLE)


def locate_settings(config: str | None = None, start: str = ".") -> Settings:
    """The settings of the named configuration, or of the one found from `start` upwards."""
    if config is not None:
        if not os.path.exists(config):
            raise ConfigError(
                Problem(os.path.abspath(config), 0, "the configuration file does not exist")
            )
        return load_settings(config)
    path, notes = find_config(start)
    return load_settings(path, notes)


# --------------------------------------------------------------------------- reading


def read_text(path: str) -> str:
    """The text of the configuration file at `path`; a located error if it cannot be read."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise ConfigError(
            Problem(path, 0, f"cannot read the configuration ({error.strerror})")
        ) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise ConfigError(Problem(path, line, "the configuration is not UTF-8 text")) from None


def load_settings(path: str, notes: tuple[str, ...] = ()) -> Settings:
    """Read the run-wide options and the contracts of the configuration at `path`.

    A `.toml` file is TOML (layering's format, or import-linter's `[tool.importlinter]`); any
    other file is import-linter's INI format, as `lint-imports` reads it.
    """
    path = os.path.abspath(path)
    return settings_from_text(path, read_text(path), notes)


def settings_from_text(path: str, text: str, notes: tuple[str, ...] = ()) -> Settings:
    """The settings that `text` would give as the content of the file at `path`."""
    if path.endswith(".toml"):
        return _load_toml(path, text, notes)
    return _load_ini(path, text, notes)


def toml_table(path: str, document: dict[str, Any]) -> tuple[str, Any]:
    """(dialect, table) of a TOML configuration: `[tool.layering]`, else `[tool.importlinter]`,
    else, outside a pyproject.toml, the whole document (a contracts.toml)."""
    tool = document.get("tool")
    if isinstance(tool, dict):
        if "layering" in tool:
            return LAYERING, tool["layering"]
        if "importlinter" in tool:
            return IMPORTLINTER, tool["importlinter"]
    if os.path.basename(path) == PYPROJECT_FILE:
        raise ConfigError(
            Problem(
                path,
                0,
                "no [tool.layering] and no [tool.importlinter] table",
                hint="add one, or use contracts.toml",
            )
        )
    return LAYERING, document


def _load_toml(path: str, text: str, notes: tuple[str, ...]) -> Settings:
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(_toml_problem(path, text, error)) from None
    dialect, table = toml_table(path, document)
    prefix = "" if table is document else f"tool.{dialect}."
    if not isinstance(table, dict):
        raise ConfigError(Problem(path, 0, f"[{prefix.rstrip('.')}] must be a table"))
    index = LineIndex(text, prefix)
    raw_contracts = table.get("contracts", [])
    problems: list[Problem] = []
    if not isinstance(raw_contracts, list) or not all(isinstance(c, dict) for c in raw_contracts):
        problems.append(
            Problem(
                path, index.top.get("contracts", 0), "'contracts' must be [[contracts]] tables"
            )
        )
        raw_contracts = []
    specs = []
    for position, options in enumerate(raw_contracts):
        line, key_lines, entry_lines = index.contract(position)
        specs.append(ContractSpec(position, options, line, key_lines, entry_lines))
    session = {k: v for k, v in table.items() if k != "contracts"}
    settings = read_settings(
        path, session, index.top, index.top_entries, specs, problems, notes, dialect, "toml"
    )
    return dataclasses.replace(settings, table_name=prefix.rstrip("."))


def _load_ini(path: str, text: str, notes: tuple[str, ...]) -> Settings:
    from layering.adapters.ini_config import IniError, read_ini

    try:
        config = read_ini(text)
    except IniError as error:
        raise ConfigError(
            Problem(
                path, error.line, f"INI syntax error: {error.message}", hint="fix the INI syntax"
            )
        ) from None
    if config.session is None:
        raise ConfigError(
            Problem(
                path,
                0,
                "no [importlinter] section",
                hint="import-linter's INI format has an [importlinter] section and one "
                "[importlinter:contract:ID] section per contract",
            )
        )
    specs = [
        ContractSpec(
            position,
            section.values,
            section.line,
            {"id": section.line, **section.key_lines},
            {k: tuple(v) for k, v in section.entry_lines.items()},
        )
        for position, section in enumerate(config.contracts)
    ]
    session = config.session
    entries = {k: tuple(v) for k, v in session.entry_lines.items()}
    return read_settings(
        path, session.values, session.key_lines, entries, specs, [], notes, IMPORTLINTER, "ini"
    )


def _toml_problem(path: str, text: str, error: Exception) -> Problem:
    message = str(error)
    line = getattr(error, "lineno", 0) or 0
    column = getattr(error, "colno", 0) or 0
    if not line:
        found = re.search(r"\(at line (\d+), column (\d+)\)", message)
        if found:
            line, column = int(found.group(1)), int(found.group(2))
    last = max(1, len(lines_of(text)))
    if "end of document" in message or line > last:
        line = last  # tomli (Python 3.10) says the line after the last; tomllib says none
    message = re.sub(r"\s*\(at line \d+, column \d+\)", "", message)
    message = getattr(error, "msg", message)
    return Problem(
        path, line, f"TOML syntax error: {message}", column=column, hint="fix the TOML syntax"
    )


class LineIndex:
    """Where each top-level key and each `[[contracts]]` table and its keys stand in TOML text,
    and where each entry of a list value starts."""

    def __init__(self, text: str, prefix: str) -> None:
        self.top: dict[str, int] = {}
        self.top_entries: dict[str, tuple[int, ...]] = {}
        self.contracts: list[tuple[int, dict[str, int], dict[str, tuple[int, ...]]]] = []
        contracts_header = f"{prefix}contracts"
        own_table = prefix.rstrip(".")
        lines = lines_of(text)
        keys: dict[str, int] | None = self.top if not prefix else None
        entries: dict[str, tuple[int, ...]] | None = self.top_entries if not prefix else None
        row = 0
        while row < len(lines):
            line = lines[row]
            header = HEADER.match(line)
            if header:
                name = header.group(2).strip()
                keys = entries = None
                if name == contracts_header:
                    keys, entries = {}, {}
                    self.contracts.append((row + 1, keys, entries))
                    self.top.setdefault("contracts", row + 1)
                elif name == own_table:
                    keys, entries = self.top, self.top_entries
                row += 1
                continue
            key = KEY.match(line)
            if not key:
                row += 1
                continue
            last, starts = value_extent(lines, row, key.end())
            if keys is not None and entries is not None:
                name = key.group(1).strip("\"'")
                keys.setdefault(name, row + 1)
                entries.setdefault(name, tuple(starts))
            row = last + 1

    def contract(self, position: int) -> tuple[int, dict[str, int], dict[str, tuple[int, ...]]]:
        if position < len(self.contracts):
            return self.contracts[position]
        return 0, {}, {}


# --------------------------------------------------------------------------- meaning


def read_settings(
    path: str,
    table: dict[str, Any],
    lines: dict[str, int],
    entry_lines: dict[str, tuple[int, ...]],
    specs: list[ContractSpec],
    problems: list[Problem],
    notes: tuple[str, ...],
    dialect: str,
    file_format: str,
) -> Settings:
    """The run-wide options, each problem collected rather than raised."""
    notes = tuple(notes)
    for key in sorted(set(table) - set(SESSION_OPTIONS)):
        if dialect == IMPORTLINTER and key in IGNORED_IMPORTLINTER_OPTIONS:
            continue
        message = f"unknown option '{key}'.{did_you_mean(key, SESSION_OPTIONS)}"
        if dialect == IMPORTLINTER:  # lint-imports ignores what it does not know: say so, go on
            notes += (f"{_shown(path)}:{lines.get(key, 0)}: {message} It is ignored.",)
            continue
        problems.append(
            Problem(
                path,
                lines.get(key, 0),
                message,
                hint="known options: " + ", ".join(sorted(SESSION_OPTIONS)),
            )
        )

    def line(key: str) -> int:
        return lines.get(key, 0)

    def names(key: str) -> list[str]:
        """A list of strings; a single string is a list of one, as in import-linter."""
        value = table[key]
        if isinstance(value, str):
            value = [value]
        if (
            not isinstance(value, list)
            or not value
            or not all(isinstance(v, str) and v.strip() for v in value)
        ):
            problems.append(
                Problem(
                    path,
                    line(key),
                    f"'{key}' must be a string or a non-empty list of strings, got "
                    f"{_describe(value)}",
                    hint=f'write {key} = ["..."]',
                )
            )
            return []
        return [v.strip() for v in value]

    def flag(key: str) -> bool:
        value = table.get(key, False)
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        if not isinstance(value, bool):
            problems.append(
                Problem(path, line(key), f"'{key}' must be true or false, got {_describe(value)}")
            )
            return False
        return value

    before = len(problems)
    roots = _root_packages(path, table, line, names, problems)
    source_roots_given = "source_roots" in table
    source_roots = names("source_roots") if source_roots_given else []
    roots_known = len(problems) == before
    cache_dir = table.get("cache_dir", ".layering_cache")
    if cache_dir is not False and not isinstance(cache_dir, str):
        problems.append(
            Problem(
                path,
                line("cache_dir"),
                f"'cache_dir' must be a path or false, got {_describe(cache_dir)}",
            )
        )
        cache_dir = False
    plugins = _plugin_types(
        path,
        names("contract_types") if "contract_types" in table else [],
        line("contract_types"),
        entry_lines.get("contract_types", ()),
        problems,
    )

    exclude = _exclude_patterns(
        path,
        names("exclude") if "exclude" in table else [],
        line("exclude"),
        entry_lines.get("exclude", ()),
        problems,
    )
    base = os.path.dirname(path)
    if isinstance(cache_dir, str):
        problem = _cache_dir_problem(
            cache_dir, base, [os.path.join(base, r) for r in source_roots]
        )
        if problem:
            problems.append(
                Problem(
                    path,
                    line("cache_dir"),
                    problem,
                    hint="give the cache a directory of its own, e.g. cache_dir = "
                    '".layering_cache" (or false: no cache)',
                )
            )
            cache_dir = False
    return Settings(
        path=path,
        root_packages=tuple(roots),
        source_roots=tuple(os.path.normpath(os.path.join(base, r)) for r in source_roots)
        if source_roots_given
        else default_source_roots(base, tuple(roots)),
        exclude_type_checking_imports=flag("exclude_type_checking_imports"),
        include_external_packages=flag("include_external_packages"),
        cache_dir=None if cache_dir is False else os.path.normpath(os.path.join(base, cache_dir)),
        contracts=tuple(specs),
        notes=notes,
        option_lines=dict(lines),
        contract_types=plugins,
        dialect=dialect,
        file_format=file_format,
        problems=tuple(problems),
        source_roots_given=source_roots_given,
        roots_known=roots_known,
        exclude=exclude,
        exclude_lines=entry_lines.get("exclude", ()),
        respect_gitignore=flag("respect_gitignore"),
    )


def _exclude_patterns(
    path: str, entries: list[str], line: int, entry_lines: tuple[int, ...], problems: list[Problem]
) -> tuple[ModulePattern, ...]:
    """`exclude`: module patterns, each at its own line when it cannot be read."""
    patterns = []
    for index, entry in enumerate(entries):
        try:
            patterns.append(ModulePattern.parse(entry))
        except ValueError as error:
            where = entry_lines[index] if index < len(entry_lines) else line
            problems.append(
                Problem(
                    path, where, f"'exclude': {error}", hint='e.g. exclude = ["mypackage.tests"]'
                )
            )
    return tuple(patterns)


def with_interpreter_path(settings: Settings, python: str) -> Settings:
    """`settings` whose root packages that are found nowhere the configuration looks are looked
    for on the path of the interpreter `--python` names too: a package installed only in the
    project's environment, which its probes import (an interpreter that cannot run is left to
    the probes to report)."""
    from layering.adapters.package_files import PackageNotFound, locate_root
    from layering.adapters.probe_runner import (
        InterpreterUnusable,
        find_interpreter,
        interpreter_path,
    )

    if settings.source_roots_given:
        return settings
    missing = []
    for package in settings.root_packages:
        try:
            locate_root(package, settings.source_roots)
        except PackageNotFound:
            missing.append(package)
    if not missing:
        return settings
    try:
        entries = interpreter_path(find_interpreter(python, os.getcwd()))
    except InterpreterUnusable:
        return settings
    found: list[str] = []
    for package in missing:
        for entry in entries:
            try:
                locate_root(package, (entry,))
            except PackageNotFound:
                continue
            found.append(os.path.normpath(os.path.abspath(entry)))
            break
    added = tuple(e for e in dict.fromkeys(found) if e not in settings.source_roots)
    return dataclasses.replace(settings, source_roots=settings.source_roots + added)


def with_cache_dir(settings: Settings, cache_dir: str) -> Settings:
    """`settings` with the cache in `cache_dir` (`--cache-dir`, relative to the working
    directory), checked as the option `cache_dir` is; a usage error where it cannot be."""
    problem = _cache_dir_problem(
        os.path.abspath(cache_dir), settings.base_dir, list(settings.source_roots)
    )
    if problem:
        raise UsageError("--cache-dir", problem.replace("'cache_dir' = ", "", 1))
    return dataclasses.replace(settings, cache_dir=os.path.abspath(cache_dir))


def _cache_dir_problem(cache_dir: str, base: str, source_roots: list[str]) -> str:
    """Why `cache_dir` cannot be the cache ("" when it can): the cache marks its directory as
    ignored by git (`*`) and replaces the files it keeps there, so it must not be the project's
    directory, a source root, or a directory that holds either."""
    if not cache_dir.strip():
        return "'cache_dir' is empty: the cache would be this file's own directory"
    resolved = os.path.realpath(os.path.join(base, cache_dir))
    for what, directory in [
        ("this file's directory", base),
        *(("the source root " + repr(os.path.relpath(r, base)), r) for r in source_roots),
    ]:
        real = os.path.realpath(directory)
        if real == resolved or real.startswith(resolved.rstrip(os.sep) + os.sep):
            return (
                f"'cache_dir' = {cache_dir!r} is "
                f"{what}{'' if real == resolved else ' or holds it'}: the cache would mark it "
                "ignored by git"
            )
    return ""


def _root_packages(
    path: str, table: dict[str, Any], line: Any, names: Any, problems: list[Problem]
) -> list[str]:
    """`root_packages`, or import-linter's `root_package` for one; exactly one of the two."""
    given = [key for key in ("root_packages", "root_package") if key in table]
    if not given:
        problems.append(
            Problem(path, 0, f"'root_packages' is required: {SESSION_OPTIONS['root_packages']}")
        )
        return []
    if len(given) == 2:
        problems.append(
            Problem(
                path,
                line("root_package"),
                "both 'root_package' and 'root_packages' are set",
                hint="keep one of them",
            )
        )
        return []
    key = given[0]
    if key == "root_package" and not isinstance(table[key], str):
        problems.append(
            Problem(
                path,
                line(key),
                f"'root_package' names one package, got {_describe(table[key])}",
                hint="for several, write root_packages = [...]",
            )
        )
        return []
    roots = names(key)
    for root in roots:
        if not is_dotted_name(root):
            problems.append(Problem(path, line(key), f"'{root}' is not a package name"))
    return roots


def _plugin_types(
    path: str, entries: list[str], line: int, entry_lines: tuple[int, ...], problems: list[Problem]
) -> tuple[PluginType, ...]:
    """import-linter's `contract_types`: 'name: module.Class', one per entry."""
    plugins = []
    for index, entry in enumerate(entries):
        where = entry_lines[index] if index < len(entry_lines) else line
        name, colon, class_path = (part.strip() for part in entry.partition(":"))
        if not colon or not name or not is_dotted_name(class_path) or "." not in class_path:
            problems.append(
                Problem(
                    path,
                    where,
                    f"contract type {entry!r} is not 'name: module.Class'",
                    hint='e.g. contract_types = ["mytype: mypackage.contracts.MyContract"]',
                )
            )
            continue
        plugins.append(PluginType(name, class_path, where))
    return tuple(plugins)


def default_source_roots(base: str, root_packages: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Where root packages are looked for when the configuration names no source roots, as
    import-linter finds them: the configuration's directory and the working directory, a
    `src/` layout beside the configuration, PYTHONPATH; and, for a root package found in none
    of these, the entry of the Python path that holds it (an installed package). Only those
    entries: the source roots are also put first on a probe's path."""
    from layering.adapters.package_files import PackageNotFound, locate_root

    roots = [base, os.getcwd(), os.path.join(base, "src")]
    roots += [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    unique = list(dict.fromkeys(os.path.normpath(os.path.abspath(root)) for root in roots))
    for package in root_packages:
        for entry in [tuple(unique)] + [(p,) for p in sys.path[1:] if p]:
            try:
                locate_root(package, entry)
            except PackageNotFound:
                continue
            unique += [
                os.path.normpath(os.path.abspath(e))
                for e in entry
                if os.path.normpath(os.path.abspath(e)) not in unique
            ]
            break
    return tuple(unique)


def _shown(path: str) -> str:
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def _describe(value: Any) -> str:
    kinds = {
        str: "a string",
        bool: "a boolean",
        int: "a number",
        float: "a number",
        list: "a list",
        dict: "a table",
    }
    return f"{kinds.get(type(value), type(value).__name__)} ({value!r})"
