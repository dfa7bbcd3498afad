"""Where things stand in TOML text: TOML parsers give values, not positions.

`value_extent` reads one value (an array over many lines, a multi-line string) and says where
it ends and where each entry of an array starts, skipping strings and comments, so that a line
inside a value is never taken for a key or a table header.
"""

from __future__ import annotations

import re

from layering.adapters.config_lines import lines_of

HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?")
KEY = re.compile(r"^\s*([A-Za-z0-9_\-]+|\"[^\"]+\"|'[^']+')\s*=")


def line_kinds(text: str) -> list[tuple[str, str]]:
    """(kind, name) for each line of TOML text: ("header", table name), ("key", key) for the
    first line of a key's value, ("value", key) for the lines a value continues on,
    ("comment", ""), ("blank", "")."""
    lines = lines_of(text)
    kinds: list[tuple[str, str]] = []
    row = 0
    while row < len(lines):
        line = lines[row]
        header = HEADER.match(line)
        key = None if header else KEY.match(line)
        if header:
            kinds.append(("header", header.group(2).strip()))
        elif key:
            name = key.group(1).strip("\"'")
            last, _ = value_extent(lines, row, key.end())
            kinds.append(("key", name))
            kinds.extend(("value", name) for _ in range(row + 1, min(last, len(lines) - 1) + 1))
            row = last + 1
            continue
        elif line.strip().startswith("#"):
            kinds.append(("comment", ""))
        elif not line.strip():
            kinds.append(("blank", ""))
        else:
            kinds.append(("value", ""))
        row += 1
    return kinds


def value_extent(lines: list[str], row: int, column: int) -> tuple[int, list[int]]:
    """The last row of the TOML value that starts at `lines[row][column:]`, and, when it is an
    array, the line on which each of its elements starts (strings and comments skipped)."""
    depth = 0
    is_array = False
    expecting = False
    starts: list[int] = []
    while row < len(lines):
        line = lines[row]
        while column < len(line):
            char = line[column]
            if char.isspace():
                column += 1
                continue
            if char == "#":
                break
            if depth == 1 and is_array and expecting and char not in ",]":
                starts.append(row + 1)
                expecting = False
            if char in "\"'":
                row, column = string_end(lines, row, column)
                if depth == 0:
                    return row, starts
                line = lines[row] if row < len(lines) else ""
                continue
            if char in "[{":
                if depth == 0:
                    is_array = expecting = char == "["
                depth += 1
            elif char in "]}":
                depth -= 1
                if depth <= 0:
                    return row, starts
            elif char == "," and depth == 1:
                expecting = is_array
            elif depth == 0:
                return row, starts
            column += 1
        row += 1
        column = 0
    return len(lines) - 1, starts


def string_end(lines: list[str], row: int, column: int) -> tuple[int, int]:
    """(row, column) just after the TOML string that opens at `lines[row][column]`."""
    quote = lines[row][column]
    delimiter = quote * 3 if lines[row].startswith(quote * 3, column) else quote
    column += len(delimiter)
    while row < len(lines):
        line = lines[row]
        while column < len(line):
            if quote == '"' and line[column] == "\\":
                column += 2
                continue
            if line.startswith(delimiter, column):
                end = column + len(delimiter)
                while len(delimiter) == 3 and end < len(line) and line[end] == quote:
                    end += 1  # """a"""" ends with a quote inside the string
                return row, end
            column += 1
        if len(delimiter) == 1:
            return row, column
        row += 1
        column = 0
    return row, 0
