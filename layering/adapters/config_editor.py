"""Edit a configuration file in place, keeping its comments and layout, atomically.

tomlkit keeps what the user wrote (comments, order, spacing); the new text is written to a
temporary file beside the original and renamed over it, so a failure at any point leaves the
original untouched.
"""

from __future__ import annotations

import codecs
import os
import re
import sys
import tempfile
from collections.abc import Iterable
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

from layering.adapters.config_lines import lines_of, lines_with_endings
from layering.adapters.toml_text import line_kinds
from layering.domain.results import StaleEntry

DEFAULT_INDENT = "    "


class EditFailed(Exception):
    """The file could not be edited; it is unchanged."""


def remove_entries(
    path: str, table_path: tuple[str, ...], removals: Iterable[tuple[int, StaleEntry]]
) -> None:
    """Remove each (contract position, stale entry) from the TOML file at `path`, whose
    configuration is the table at `table_path` (() for the whole file)."""
    import tomlkit

    original = _read(path)
    try:
        document = tomlkit.parse(original)
    except ValueError as error:
        raise EditFailed(f"cannot read {path}: {error}") from None
    table = document
    for part in table_path:
        table = table[part]
    contracts = table["contracts"]
    ordered = sorted(
        removals, key=lambda item: (item[0], item[1].option, -(item[1].position or 0))
    )
    for position, entry in ordered:
        contract = contracts[position]
        if entry.position is None:
            del contract[entry.option]
            continue
        values = contract[entry.option]
        if isinstance(values, str):
            del contract[entry.option]
        elif entry.name is not None:
            names = values[entry.position]["names"]
            del names[[str(n) for n in names].index(entry.name)]
        else:
            del values[entry.position]
    text = keep_line_endings(original, tomlkit.dumps(document))
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:  # never write a file that no longer reads
        raise EditFailed(f"the edited text would not be valid TOML ({error})") from None
    write_atomically(path, text)


def add_entries(
    path: str,
    table_path: tuple[str, ...],
    additions: Iterable[tuple[int, str, tuple[Any, ...]]],
    comment: str,
) -> str:
    """The text of the TOML file at `path` with each (contract position, option, values) added,
    each value on a line of its own ending in `# comment`; everything else is kept as written.

    An existing array gains lines (a one-line array is spread over lines first), a single string
    becomes an array, and a missing option is written after the contract's last option, above the
    comments that lead into the next table.
    """
    import tomlkit

    text = _read(path)
    try:
        document = tomlkit.parse(text)
    except ValueError as error:
        raise EditFailed(f"cannot read {path}: {error}") from None
    table: Any = document
    for part in table_path:
        table = table[part]
    contracts = table["contracts"]
    missing: dict[int, list[str]] = {}
    for position, option, values in additions:
        contract = contracts[position]
        items = [_item(value) for value in values]
        if option not in contract:
            lines = (
                [f"{option} = ["]
                + [f"{DEFAULT_INDENT}{item.as_string()}, # {comment}" for item in items]
                + ["]"]
            )
            missing[position] = missing.get(position, []) + lines
            continue
        current = contract[option]
        if isinstance(current, str):
            current = _array_of(current)
            contract[option] = current
        indent = _indent_of(current.as_string())
        spread = "\n" not in current.as_string()
        if spread:
            kept = list(current)
            current.clear()
            for item in kept:
                current.add_line(item, indent=indent)
        for item in items:
            current.add_line(item, comment=comment, indent=indent)
        if spread:
            current.add_line(indent="")
    edited = keep_line_endings(text, tomlkit.dumps(document))
    if missing:
        edited = _insert_options(edited, ".".join((*table_path, "contracts")), missing)
    try:
        tomllib.loads(edited)
    except tomllib.TOMLDecodeError as error:  # never write a file that no longer reads
        raise EditFailed(f"the edited text would not be valid TOML ({error})") from None
    return edited


def _array_of(entry: str) -> Any:
    """A one-entry array of what was a single string: a literal (single-quoted) string where
    TOML allows one, else a basic string, escaped."""
    import tomlkit

    array = tomlkit.array()
    array.append(tomlkit.string(entry, literal=entry.isprintable() and "'" not in entry))
    return array


def _item(value: Any) -> Any:
    """A tomlkit item for an entry: a string, or an inline table (`{ importer = ..., names = [...]
    }`)."""
    import tomlkit

    if isinstance(value, dict):
        table = tomlkit.inline_table()
        table.update(value)
        return table
    return tomlkit.item(value)


def _indent_of(array_text: str) -> str:
    """The indentation of an array's entries that stand on lines of their own."""
    for line in lines_of(array_text)[1:]:
        stripped = line.lstrip()
        if stripped and not stripped.startswith(("]", "#")):
            return line[: len(line) - len(stripped)]
    return DEFAULT_INDENT


def _insert_options(text: str, header: str, missing: dict[int, list[str]]) -> str:
    """`text` with `missing[position]` inserted after the last option of the contract table at
    `position` (the tables named `header`, in order)."""
    lines = lines_with_endings(text)
    ending = "\r\n" if "\r\n" in text else "\n"
    last_row: dict[int, int] = {}
    seen = -1
    current: int | None = None
    for row, (kind, name) in enumerate(line_kinds(text)):
        if kind == "header":
            is_contract = name == header and lines[row].lstrip().startswith("[[")
            seen += is_contract
            current = seen if is_contract else None
        elif kind in ("key", "value") and current in missing:
            last_row[current] = row
    if set(last_row) != set(missing):
        raise EditFailed("a contract table to add to was not found (nothing was changed)")
    after = {row: missing[position] for position, row in last_row.items()}
    edited = []
    for row, line in enumerate(lines):
        edited.append(line if line.endswith(("\n", "\r")) or row not in after else line + ending)
        edited.extend(added + ending for added in after.get(row, ()))
    return "".join(edited)


def insert_lines(path: str, insertions: dict[int, list[str]]) -> str:
    """The text of the file at `path` with `insertions[N]` inserted after line N, line endings
    kept."""
    lines = lines_with_endings(_read(path))
    ending = next(
        (line[len(line.rstrip("\r\n")) :] for line in lines if line.endswith("\n")), "\n"
    )
    edited = []
    for number, line in enumerate(lines, start=1):
        edited.append(line if line.endswith("\n") or number not in insertions else line + ending)
        edited.extend(added + ending for added in insertions.get(number, ()))
    return "".join(edited)


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            return handle.read()
    except (OSError, ValueError) as error:
        raise EditFailed(f"cannot read {path}: {error}") from None


def edit_lines(path: str, replacements: dict[int, str | None]) -> str:
    """The text of the file at `path` with line N replaced by `replacements[N]` (removed when
    None), line endings kept."""
    lines = lines_with_endings(_read(path))
    edited = []
    for number, line in enumerate(lines, start=1):
        if number not in replacements:
            edited.append(line)
        elif replacements[number] is not None:
            ending = line[len(line.rstrip("\r\n")) :]
            edited.append(f"{replacements[number]}{ending}")
    return "".join(edited)


def write_atomically(path: str, text: str) -> None:
    """Replace (or create) the file at `path` with `text` by a rename beside it: readers see
    the old or the new file, never part of one.

    A symbolic link is followed and its target replaced, so the link, and whatever else points
    to the target, sees the new text. The file keeps its mode, its owner and group where the
    user may set them, and a leading byte-order mark. A read-only file is refused rather than
    replaced: a rename needs only the directory to be writable.
    """
    target = os.path.realpath(path)
    try:
        current = os.stat(target)
    except FileNotFoundError:
        current = None
    except OSError as error:
        raise EditFailed(f"cannot read {path}: {error.strerror}") from None
    if current is not None and (not current.st_mode & 0o222 or not os.access(target, os.W_OK)):
        raise EditFailed("the file is read-only: make it writable for layering to edit it")
    data = text.encode("utf-8")
    if current is not None and _starts_with_bom(target):
        data = codecs.BOM_UTF8 + data
    try:
        descriptor, temporary = tempfile.mkstemp(
            prefix=".layering-", suffix=".tmp", dir=os.path.dirname(target)
        )
    except OSError as error:
        raise EditFailed(f"cannot write beside {path}: {error.strerror}") from None
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if current is None:
            os.chmod(temporary, 0o666 & ~_umask())
        else:
            _keep_owner(temporary, current)
            os.chmod(temporary, current.st_mode & 0o7777)
        os.replace(temporary, target)
    except OSError as error:
        try:
            os.remove(temporary)
        except OSError:
            pass
        raise EditFailed(f"cannot write {path}: {error.strerror}") from None


def keep_line_endings(original: str, edited: str) -> str:
    """`edited` with CRLF endings when every line of `original` ends in CRLF: tomlkit and the
    lines layering adds end in LF alone."""
    if "\r\n" in original and "\n" not in original.replace("\r\n", ""):
        return re.sub(r"(?<!\r)\n", "\r\n", edited)
    return edited


def _starts_with_bom(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(len(codecs.BOM_UTF8)) == codecs.BOM_UTF8
    except OSError as error:
        raise EditFailed(f"cannot read {path}: {error.strerror}") from None


def _keep_owner(path: str, original: os.stat_result) -> None:
    """Give `path` the owner and group of the file it replaces, where the user may (root may
    give any; others, a group they belong to); otherwise it stays the user's."""
    if not hasattr(os, "chown"):
        return
    for owner, group in ((original.st_uid, original.st_gid), (-1, original.st_gid)):
        try:
            os.chown(path, owner, group)
            return
        except OSError:
            continue


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
