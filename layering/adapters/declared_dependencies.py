"""What a pyproject.toml declares (`[project] dependencies` and its extras), each at its line,
and which installed distribution provides which top-level module."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping

from layering.domain.dependencies import Declared, Requirement, requirement_name

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib


class DependenciesUnreadable(Exception):
    """Why the file declares nothing this contract can read, in words for an error."""


def read_declared(path: str) -> Declared:
    """The requirements of `path`'s `[project]` table, each at the line its string stands on."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as error:
        raise DependenciesUnreadable(f"cannot be read ({error.strerror or error})") from None
    try:
        table = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise DependenciesUnreadable(f"is not TOML ({error})") from None
    project = table.get("project")
    if not isinstance(project, dict):
        raise DependenciesUnreadable("has no [project] table")
    lines = raw.decode("utf-8").splitlines()
    taken: set[int] = set()

    def line_of(text: str) -> int:
        quoted = (json.dumps(text), f"'{text}'")
        for number, line in enumerate(lines, 1):
            if number not in taken and any(q in line for q in quoted):
                taken.add(number)
                return number
        return 0

    requirements = []
    groups = [("", project.get("dependencies", []))]
    extras = project.get("optional-dependencies", {})
    if isinstance(extras, dict):
        groups += sorted(extras.items())
    for extra, entries in groups:
        if not isinstance(entries, list):
            raise DependenciesUnreadable(
                f"has a {'dependencies' if not extra else 'optional-dependencies.' + extra} that "
                "is no list"
            )
        for entry in entries:
            name = requirement_name(entry) if isinstance(entry, str) else None
            if name is None:
                raise DependenciesUnreadable(f"declares {entry!r}, which names no distribution")
            requirements.append(Requirement(name, line_of(entry), extra))
    return Declared(path, os.path.basename(path), tuple(requirements))


def installed_distributions() -> Mapping[str, list[str]]:
    """Each top-level module installed here, and the distributions that provide it: from each
    distribution's `top_level.txt`, else from the files it installed, as Python 3.11's
    `packages_distributions` reads them (3.10's reads `top_level.txt` only, which wheels built
    by other backends than setuptools lack)."""
    from importlib.metadata import distributions

    provided: dict[str, list[str]] = {}
    for distribution in distributions():
        name = distribution.metadata["Name"]
        if not name:
            continue
        listed = (distribution.read_text("top_level.txt") or "").split()
        for module in listed or _top_level_of(distribution.files or ()):
            provided.setdefault(module, []).append(name)
    return provided


def _top_level_of(files) -> set[str]:
    """The top-level modules and packages among a distribution's installed files."""
    found = set()
    for path in files:
        parts = path.parts
        if (
            not parts
            or parts[0].endswith((".dist-info", ".egg-info", ".data"))
            or parts[0]
            in (
                "..",
                "__pycache__",
            )
        ):
            continue
        if len(parts) == 1:
            if parts[0].endswith(".py"):
                found.add(parts[0][:-3])
            elif parts[0].endswith((".so", ".pyd")):
                found.add(parts[0].split(".")[0])
        elif parts[0].isidentifier():
            found.add(parts[0])
    return found
