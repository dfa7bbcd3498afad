"""Read import-linter's INI configuration (`.importlinter`, `setup.cfg`) as import-linter reads it.

Values come from `configparser`, set up as import-linter sets it up, so every value means what
it means to `lint-imports`: a value that spans lines is a list of its lines, blank lines and
comment lines dropped; a one-line value is a string. A second pass over the text finds what
`configparser` does not keep: the line of each section, key and list entry, and the comments
(for `layering migrate`).
"""

from __future__ import annotations

import configparser
import re
from dataclasses import dataclass, field
from typing import Any

from layering.adapters.config_lines import lines_of

SESSION_SECTION = "importlinter"
CONTRACT_PREFIX = "importlinter:"

_SECTION = re.compile(r"\[(?P<header>.+)\]")
_OPTION = re.compile(r"(?P<option>.*?)\s*[=:]\s*(?P<value>.*)$")


class IniError(Exception):
    """The text is not INI that configparser reads; `line` is where it stopped (0 if unknown)."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


@dataclass
class IniSection:
    """One section: its values as import-linter gets them, and where each one stands."""

    name: str
    line: int
    values: dict[str, Any] = field(default_factory=dict)
    key_lines: dict[str, int] = field(default_factory=dict)
    entry_lines: dict[str, list[int]] = field(default_factory=dict)
    comments: dict[int, str] = field(default_factory=dict)
    """Comment lines inside the section, by line number (the text after `#` or `;`)."""
    last_line: int = 0
    preceding_comments: dict[int, str] = field(default_factory=dict)
    """Comment lines just above the section's header (after the previous section's last value)."""


@dataclass
class IniConfig:
    """The `[importlinter]` section and its `[importlinter:...]` contract sections, in order."""

    session: IniSection | None
    contracts: list[IniSection]


def read_ini(text: str) -> IniConfig:
    """Parse `text`; raise IniError for text configparser rejects."""
    parser = configparser.ConfigParser()
    try:
        parser.read_string(text)
    except configparser.Error as error:
        raise IniError(_describe(error), _error_line(error)) from None
    sections = _locate(text)
    session = None
    contracts = []
    for section in sections:
        if section.name not in parser.sections():
            continue
        try:
            section.values = _clean(dict(parser[section.name]))
        except configparser.InterpolationError as error:
            raise IniError(
                _describe(error), section.key_lines.get(error.option, section.line)
            ) from None
        if section.name == SESSION_SECTION:
            session = section
        elif section.name.startswith(CONTRACT_PREFIX):
            section.values = {"id": section.name.split(":")[-1], **section.values}
            contracts.append(section)
    return IniConfig(session=session, contracts=contracts)


def _clean(section: dict[str, str]) -> dict[str, Any]:
    """import-linter's reading of a section: a value over several lines is the list of its
    lines (here without the blank ones, which import-linter's fields skip)."""
    cleaned: dict[str, Any] = {}
    for key, value in section.items():
        if "\n" not in value:
            cleaned[key] = value
        else:
            cleaned[key] = [line for line in value.strip().split("\n") if line.strip()]
    return cleaned


def _locate(text: str) -> list[IniSection]:
    """Each section with the lines of its keys and of each non-blank line of a value, read with
    configparser's own rules (a line indented deeper than its key continues the value; a line
    that starts with `#` or `;` is a comment, wherever it is)."""
    sections = [IniSection("", 0)]  # what stands before the first header
    key: str | None = None
    key_indent = 0
    for number, line in enumerate(lines_of(text), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        current = sections[-1]
        if stripped[0] in "#;":
            current.comments[number] = stripped[1:].strip()
            continue
        indent = len(line) - len(line.lstrip())
        if key is not None and indent > key_indent:
            current.entry_lines[key].append(number)
            current.last_line = number
            continue
        key_indent = indent
        section = _SECTION.match(stripped)
        if section:
            trailing = {n: text for n, text in current.comments.items() if n > current.last_line}
            for n in trailing:
                del current.comments[n]
            sections.append(
                IniSection(
                    section.group("header"), number, last_line=number, preceding_comments=trailing
                )
            )
            key = None
            continue
        option = _OPTION.match(stripped)
        if option:
            key = option.group("option").rstrip().lower()
            current.key_lines.setdefault(key, number)
            current.entry_lines[key] = [number] if option.group("value").strip() else []
            current.last_line = number
    return sections


def _describe(error: configparser.Error) -> str:
    if isinstance(error, configparser.DuplicateSectionError):
        return f"section [{error.section}] appears twice"
    if isinstance(error, configparser.DuplicateOptionError):
        return f"option '{error.option}' appears twice in section [{error.section}]"
    if isinstance(error, configparser.MissingSectionHeaderError):
        return "text before the first [section] header"
    if isinstance(error, configparser.InterpolationError):
        return f"{error.message.splitlines()[0]} (a '%' in an INI value must be written '%%')"
    if isinstance(error, configparser.ParsingError):
        return "a line that is neither a [section], a 'key = value' nor an indented continuation"
    return str(error).splitlines()[0]


def _error_line(error: configparser.Error) -> int:
    if isinstance(error, configparser.ParsingError) and getattr(error, "errors", None):
        # MissingSectionHeaderError is one, without `errors` before Python 3.12
        return int(error.errors[0][0])
    return int(getattr(error, "lineno", 0) or 0)
