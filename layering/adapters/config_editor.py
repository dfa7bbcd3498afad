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


def remove_entries(path: str, in_pyproject: bool, removals: Iterable[tuple[int, StaleEntry]]) -> None:
    """Remove each (contract position, stale entry) from the file at `path`."""
    import tomlkit

    try:
        with open(path, encoding="utf-8-sig") as handle:
            document = tomlkit.parse(handle.read())
    except (OSError, ValueError) as error:
        raise EditFailed(f"cannot read {path}: {error}") from None
    table = document["tool"]["layering"] if in_pyproject else document
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


def write_atomically(path: str, text: str) -> None:
    """Replace the file at `path` with `text` by a rename: readers see the old or the new file."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        mode = os.stat(path).st_mode & 0o7777
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
