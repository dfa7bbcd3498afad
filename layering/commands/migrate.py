"""`layering migrate`: write an import-linter configuration in layering's format.

The import-linter configuration already runs as it is (`layering check` reads it); migrating
gives the contracts layering's own file, where layering's contract types and allowances can be
added. The text written is read back before anything is written: it must give the same
run-wide options and the same options for every contract, so the verdicts cannot change.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from dataclasses import dataclass
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

from layering.adapters.config_editor import (
    EditFailed,
    keep_line_endings,
    write_atomically,
)
from layering.domain.errors import ConfigError, Problem
from layering.engine.config import (
    CONTRACTS_FILE,
    IMPORTLINTER,
    PYPROJECT_FILE,
    Settings,
    find_config,
    has_layering_section,
    importlinter_configuration_in,
    read_text,
    settings_from_text,
)

TO_CONTRACTS = "contracts.toml"
TO_PYPROJECT = "pyproject.toml"


@dataclass(frozen=True)
class Migration:
    """What `migrate` wrote (or would write): the file, the text added, and notes for the user."""

    path: str
    text: str
    contracts: int
    notes: tuple[str, ...]


def migrate(
    settings: Settings, target: str = TO_CONTRACTS, force: bool = False, dry_run: bool = False
) -> Migration:
    """Write the contracts of import-linter configuration `settings` as `target`."""
    if settings.dialect != IMPORTLINTER:
        raise ConfigError(
            Problem(
                settings.path,
                0,
                "this is already layering's format: nothing to migrate",
                hint=_migrate_again_hint(settings),
            )
        )
    if settings.problems:
        raise ConfigError(list(settings.problems))
    destination = os.path.join(
        settings.base_dir, CONTRACTS_FILE if target == TO_CONTRACTS else PYPROJECT_FILE
    )
    table = "" if target == TO_CONTRACTS else "tool.layering"
    section, notes = _section_text(settings, table)
    text = _new_text(destination, section, table, force)
    # Lines end as in the file replaced, else as in the configuration migrated.
    text = keep_line_endings(
        read_text(destination if os.path.exists(destination) else settings.path), text
    )
    _check_same_meaning(settings, destination, text)
    migration = Migration(destination, section, len(settings.contracts), notes)
    if not dry_run:
        try:
            write_atomically(destination, text)
        except EditFailed as failure:
            raise ConfigError(
                Problem(destination, 0, str(failure), hint="nothing was written")
            ) from None
        found, _ = find_config(settings.base_dir)
        if found != destination:
            migration = dataclasses.replace(
                migration,
                notes=notes
                + (
                    f"{os.path.basename(found)} in the same directory is read first: remove it to "
                    "use the new one",
                ),
            )
    return migration


def _migrate_again_hint(settings: Settings) -> str:
    """How to migrate again over what an earlier `migrate` wrote: name the import-linter
    configuration beside it, with --force."""
    again = importlinter_configuration_in(settings.base_dir)
    if again is None:
        return "name an import-linter configuration: layering migrate PATH"
    source = os.path.relpath(again)
    if os.path.basename(settings.path) == CONTRACTS_FILE:
        return (
            f"to migrate {source} again, replacing contracts.toml: layering migrate {source} "
            "--force"
        )
    return (
        f"to migrate {source} again, replacing [tool.layering]: "
        f"layering migrate {source} --to pyproject.toml --force"
    )


def _section_text(settings: Settings, table: str) -> tuple[str, tuple[str, ...]]:
    """The TOML text of the configuration under `table`, with notes on what was left out."""
    from layering.adapters import toml_writer

    source = read_text(settings.path)
    ignored = _ignored_session_options(settings, source)
    notes = tuple(
        f"left out '{key}': lint-imports ignores it, and layering does not know it"
        for key in sorted(ignored)
    )
    if settings.file_format == "ini":
        from layering.adapters.ini_config import read_ini

        return toml_writer.ini_as_toml(read_ini(source), table, frozenset(ignored)), notes
    text = toml_writer.toml_tables_as(source, settings.table_name, table, frozenset(ignored))
    if not _same_data(settings, source, text, table, ignored):
        notes += ("the comments could not be kept (the table is not written as plain tables)",)
        text = toml_writer.data_as_toml(_data(settings, source, ignored), table)
    return text, notes


def _ignored_session_options(settings: Settings, source: str) -> set[str]:
    from layering.engine.config import SESSION_OPTIONS

    if settings.file_format == "ini":
        from layering.adapters.ini_config import read_ini

        session = read_ini(source).session
        keys = set(session.values) if session else set()
    else:
        keys = set(_data(settings, source, set()))
    return keys - set(SESSION_OPTIONS)


def _data(settings: Settings, source: str, ignored: set[str]) -> dict[str, Any]:
    node: Any = tomllib.loads(source)
    for part in settings.table_name.split("."):
        node = node[part]
    return {k: v for k, v in node.items() if k not in ignored}


def _same_data(settings: Settings, source: str, text: str, table: str, ignored: set[str]) -> bool:
    try:
        node: Any = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return False
    for part in table.split(".") if table else ():
        node = node.get(part, {})
    return node == _data(settings, source, ignored)


def _new_text(destination: str, section: str, table: str, force: bool) -> str:
    """The whole new text of `destination`: the section alone for a contracts.toml; for a
    pyproject.toml, its text with the section added at the end (a [tool.layering] already
    there replaced only with `force`)."""
    exists = os.path.exists(destination)
    if not table:
        if exists and not force:
            raise ConfigError(
                Problem(
                    destination,
                    0,
                    f"{CONTRACTS_FILE} exists: not overwritten",
                    hint="pass --force to replace it, or --dry-run to see the text",
                )
            )
        return section
    if not exists:
        return section
    current = read_text(destination)
    if has_layering_section(destination):
        if not force:
            raise ConfigError(
                Problem(
                    destination,
                    0,
                    "[tool.layering] exists: not overwritten",
                    hint="pass --force to replace it, or --dry-run to see the text",
                )
            )
        current = _without_layering_table(destination, current)
    return current.rstrip("\n") + "\n\n" + section if current.strip() else section


def _without_layering_table(path: str, text: str) -> str:
    import tomlkit

    try:
        document = tomlkit.parse(text)
        del document["tool"]["layering"]
    except Exception as error:  # noqa: BLE001 - tomlkit raises its own kinds of errors
        raise ConfigError(
            Problem(
                path,
                0,
                f"cannot remove the existing [tool.layering] ({error})",
                hint="nothing was written",
            )
        ) from None
    return tomlkit.dumps(document)


def _check_same_meaning(settings: Settings, destination: str, text: str) -> None:
    """Read the new text back: the same options for the run and for each contract, or nothing
    is written."""
    written = settings_from_text(destination, text)
    if written.problems or _meaning(written) != _meaning(settings):
        raise ConfigError(
            Problem(
                settings.path,
                0,
                f"the text written for {os.path.basename(destination)} would not mean the same as "
                "this configuration; nothing was written",
                hint="please report this, with the configuration",
            )
        )


def _meaning(settings: Settings) -> tuple[Any, ...]:
    return (
        settings.root_packages,
        settings.source_roots,
        settings.include_external_packages,
        settings.exclude_type_checking_imports,
        settings.cache_dir,
        tuple((p.name, p.class_path) for p in settings.contract_types),
        tuple({k: _plain(v) for k, v in spec.options.items()} for spec in settings.contracts),
    )


def _plain(value: Any) -> Any:
    """A value as import-linter's reader gives it, to compare INI text with TOML values."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, bool) or (
        isinstance(value, str) and value.strip().lower() in ("true", "false")
    ):
        return str(value).strip().lower()
    return str(value) if isinstance(value, (int, float)) else value
