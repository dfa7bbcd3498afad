"""The lines of a configuration file, numbered as its parsers number them.

TOML ends a line at LF (CRLF is one ending), and configparser, reading a string, at LF.
`str.splitlines` also ends one at U+2028, U+2029, U+0085, form feed, vertical tab and
\\x1c-\\x1e, which both formats read as characters of the line: one of them in a comment would
move every line number after it, and an edit made by line would land on the wrong line.
"""

from __future__ import annotations


def lines_of(text: str) -> list[str]:
    """The lines of `text` without their endings (a final line ending adds no empty line)."""
    lines = text.replace("\r\n", "\n").split("\n")
    return lines[:-1] if lines[-1] == "" else lines


def lines_with_endings(text: str) -> list[str]:
    """The lines of `text`, each with its ending: they join back into `text`."""
    lines = [line + "\n" for line in text.split("\n")]
    last = lines.pop()[:-1]
    return [*lines, last] if last else lines
