"""Edit a configuration file in place, keeping its comments and layout, atomically.

tomlkit keeps what the user wrote (comments, order, spacing); the new text is written to a
temporary file beside the original and renamed over it, so a failure at any point leaves the
original untouched.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterable

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

from layering.domain.results import StaleEntry


class EditFailed(Exception):
    """The file could not be edited; it is unchanged."""


def remove_entries(path: str, table_path: tuple[str, ...], removals: Iterable[tuple[int, StaleEntry]]) -> None:
    """Remove each (contract position, stale entry) from the TOML file at `path`, whose
    configuration is the table at `table_path` (() for the whole file)."""
    import tomlkit

    try:
        with open(path, encoding="utf-8-sig") as handle:
            document = tomlkit.parse(handle.read())
    except (OSError, ValueError) as error:
        raise EditFailed(f"cannot read {path}: {error}") from None
    table = document
    for part in table_path:
        table = table[part]
    contracts = table["contracts"]
    ordered = sorted(removals, key=lambda item: (item[0], item[1].option, -(item[1].index or 0)))
    for position, entry in ordered:
        contract = contracts[position]
        if entry.index is None:
            del contract[entry.option]
            continue
        values = contract[entry.option]
        if isinstance(values, str):
            del contract[entry.option]
        elif entry.name is not None:
            names = values[entry.index]["names"]
            del names[[str(n) for n in names].index(entry.name)]
        else:
            del values[entry.index]
    text = tomlkit.dumps(document)
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:  # never write a file that no longer reads
        raise EditFailed(f"the edited text would not be valid TOML ({error})") from None
    write_atomically(path, text)


def edit_lines(path: str, replacements: dict[int, str | None]) -> str:
    """The text of the file at `path` with line N replaced by `replacements[N]` (removed when
    None), line endings kept."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            lines = handle.read().splitlines(keepends=True)
    except (OSError, ValueError) as error:
        raise EditFailed(f"cannot read {path}: {error}") from None
    edited = []
    for number, line in enumerate(lines, start=1):
        if number not in replacements:
            edited.append(line)
        elif replacements[number] is not None:
            ending = line[len(line.rstrip("\r\n")):]
            edited.append(f"{replacements[number]}{ending}")
    return "".join(edited)


def write_atomically(path: str, text: str) -> None:
    """Replace (or create) the file at `path` with `text` by a rename: readers see the old or
    the new file, never part of one."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        mode = os.stat(path).st_mode & 0o7777 if os.path.exists(path) else 0o666 & ~_umask()
        descriptor, temporary = tempfile.mkstemp(prefix=".layering-", suffix=".toml", dir=directory)
    except OSError as error:
        raise EditFailed(f"cannot write beside {path}: {error.strerror}") from None
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except OSError as error:
        try:
            os.remove(temporary)
        except OSError:
            pass
        raise EditFailed(f"cannot write {path}: {error.strerror}") from None


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
