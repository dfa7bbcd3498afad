"""Write an import-linter configuration as layering's TOML, keeping the comments it has.

From INI, each section becomes a table (`[importlinter]` the top of the file or of
`[tool.layering]`, each `[importlinter:contract:ID]` a `[[contracts]]` table with `id = "ID"`),
each value over several lines an array, and each comment line a TOML comment at the same place.
From TOML (`[tool.importlinter]`), the text of its tables is kept as it is, headers renamed.
"""

from __future__ import annotations

import re
from typing import Any

from layering.adapters.config_lines import lines_of
from layering.adapters.ini_config import IniConfig, IniSection
from layering.adapters.toml_text import line_kinds

BOOLEAN_OPTIONS = frozenset(
    {
        "include_external_packages",
        "exclude_type_checking_imports",
        "allow_indirect_imports",
        "as_packages",
        "exhaustive",
    }
)
INTEGER_OPTIONS = frozenset({"depth"})
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def ini_as_toml(config: IniConfig, table: str, dropped: frozenset[str] = frozenset()) -> str:
    """The TOML text of `config`: the session's options at the top of `table` ("" for a
    contracts.toml, "tool.layering" in a pyproject.toml), then one contracts table each.
    Session options in `dropped` are left out."""
    assert config.session is not None
    contracts_header = f"[[{table}.contracts]]" if table else "[[contracts]]"
    lines: list[str] = []
    for section in [config.session, *config.contracts]:
        if lines:
            lines.append("")
        lines += _comments(section.preceding_comments)
        if section is config.session:
            if table:
                lines.append(f"[{table}]")
            lines += _body(section, dropped)
        else:
            lines.append(contracts_header)
            if "id" not in section.key_lines:
                lines.append(f"id = {_string(section.values['id'])}")
            lines += _body(section, frozenset())
    return "\n".join(lines) + "\n"


def _body(section: IniSection, dropped: frozenset[str]) -> list[str]:
    lines: list[str] = []
    comments = dict(section.comments)
    for key in sorted(section.key_lines, key=section.key_lines.__getitem__):
        if key in dropped or key not in section.values:
            continue
        lines += _comments(_take(comments, section.key_lines[key]))
        value = section.values[key]
        if not isinstance(value, list):
            lines.append(f"{_key(key)} = {_scalar(key, value)}")
            continue
        lines.append(f"{_key(key)} = [")
        for item, line in zip(value, section.entry_lines.get(key, [])):
            lines += _comments(_take(comments, line), indent="  ")
            lines.append(f"  {_string(item)},")
        lines.append("]")
    lines += _comments(comments)
    return lines


def _take(comments: dict[int, str], before: int) -> dict[int, str]:
    """The comments above line `before`, removed from `comments`."""
    taken = {n: text for n, text in comments.items() if n < before}
    for n in taken:
        del comments[n]
    return taken


def _comments(comments: dict[int, str], indent: str = "") -> list[str]:
    return [f"{indent}# {text}".rstrip() for _, text in sorted(comments.items())]


def _scalar(key: str, value: str) -> str:
    if key in BOOLEAN_OPTIONS and value.strip().lower() in ("true", "false"):
        return value.strip().lower()
    if key in INTEGER_OPTIONS and value.strip().isdigit():
        return value.strip()
    return _string(value)


def _string(value: str) -> str:
    import tomlkit

    return tomlkit.string(value).as_string()


def _key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _string(key)


def toml_tables_as(
    text: str, source: str, target: str, dropped: frozenset[str] = frozenset()
) -> str:
    """The text of table `source` and of its sub-tables (with the comment lines right above
    each header), renamed `target` ("" moves the table's own keys to the top of the file).
    The table's own keys in `dropped` are left out.

    The table's own keys come first, wherever its header stood, since top-level keys cannot
    follow a table in TOML.
    """
    lines = lines_of(text)
    kinds = line_kinds(text)
    own: list[str] = []
    below: list[str] = []
    current: list[str] | None = None
    for row, (kind, name) in enumerate(kinds):
        if kind == "header":
            current = None
            if name == source or name.startswith(source + "."):
                current = own if name == source else below
                current += _comment_block_above(lines, kinds, row)
                renamed = _renamed(name, source, target)
                if renamed:
                    current.append(_retitled(lines[row], name, renamed))
            continue
        if current is own and kind in ("key", "value") and name in dropped:
            continue
        if current is not None and not _comment_above_header(kinds, row):
            current.append(lines[row])
    return "\n".join(_trimmed(own) + ([""] if own and below else []) + _trimmed(below)) + "\n"


def _renamed(name: str, source: str, target: str) -> str:
    rest = name[len(source) :].lstrip(".")
    return ".".join(part for part in (target, rest) if part)


def _retitled(line: str, name: str, renamed: str) -> str:
    return line.replace(name, renamed, 1)


def _comment_block_above(lines: list[str], kinds: list[tuple[str, str]], row: int) -> list[str]:
    start = row
    while start > 0 and kinds[start - 1][0] == "comment":
        start -= 1
    return lines[start:row]


def _comment_above_header(kinds: list[tuple[str, str]], row: int) -> bool:
    """Whether the line is part of a comment block that stands right above a table header."""
    while row < len(kinds) and kinds[row][0] == "comment":
        row += 1
    return row < len(kinds) and kinds[row][0] == "header" and kinds[row - 1][0] == "comment"


def _trimmed(lines: list[str]) -> list[str]:
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


def data_as_toml(table: dict[str, Any], target: str) -> str:
    """`table` (a configuration's data) as plain TOML under `target`, without comments: the
    fallback when the text of a configuration cannot be moved as it is."""
    import tomlkit

    document = tomlkit.document()
    if not target:
        document.update(table)
        return tomlkit.dumps(document)
    node: Any = document
    parts = target.split(".")
    for part in parts[:-1]:
        node = node.setdefault(part, tomlkit.table(is_super_table=True))
    node[parts[-1]] = table
    return tomlkit.dumps(document)
