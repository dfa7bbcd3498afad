"""What a runtime probe asks and what it saw: the value objects shared by engine and child."""

from __future__ import annotations

import enum
import json
import re
from dataclasses import dataclass

from layering.domain.patterns import is_dotted_name


class ProbeOutcomeKind(str, enum.Enum):
    """How importing one module in a fresh interpreter ended."""

    CLEAN = "clean"
    LOADED = "loaded"
    IMPORT_FAILED = "import_failed"
    SETUP_FAILED = "setup_failed"
    TIMED_OUT = "timed_out"
    CRASHED = "crashed"


MAX_TIMEOUT = 3600.0
"""The longest a probe may take, in seconds: an import that needs more than an hour is hung."""


def is_setup_entry(text: str) -> bool:
    """Whether `text` is `module` or `module:callable` (each a dotted identifier)."""
    module, colon, attribute = text.partition(":")
    return is_dotted_name(module) and (not colon or is_dotted_name(attribute))


def is_environment_name(text: str) -> bool:
    """Whether `text` is a plain environment variable name (ASCII letters, digits, `_`)."""
    return "." not in text and is_dotted_name(text)


@dataclass(frozen=True, order=True)
class RuntimeHop:
    """One import the child saw happen: `importer` imported `imported` at `path:line`.

    `importer` is the module whose code ran the statement ("" for the probe itself);
    `via_parent` marks a package `__init__` loaded because a submodule of it was imported.
    """

    importer: str
    imported: str
    path: str
    line: int
    via_parent: bool = False

    def render(self) -> str:
        where = f"{self.path}:{self.line}: " if self.path else ""
        how = " (parent package)" if self.via_parent else ""
        return f"{where}{self.importer or '<probe>'} -> {self.imported}{how}"


@dataclass(frozen=True, order=True)
class LoadedForbidden:
    """A forbidden module found in `sys.modules`, with the chain that loaded it."""

    module: str
    chain: tuple[RuntimeHop, ...]


@dataclass(frozen=True, order=True)
class LoadedBefore:
    """A module already in `sys.modules` before the probed import, so no probe can see it load.

    `setup` is the setup entry that loaded it ("" if the interpreter loaded it at start),
    and `chain` the import statements from that entry's module down to it.
    """

    module: str
    setup: str
    chain: tuple[RuntimeHop, ...] = ()


@dataclass(frozen=True, order=True)
class ProbeRequest:
    """Import `module` in a fresh interpreter and report which `forbidden` patterns it loads.

    `module`, `forbidden`, `stubs` and `setup` are dotted names or patterns, and `env` names
    are variable names, validated before they reach a child, so a configuration cannot
    smuggle code into one. `python` is the interpreter to run ("" for the one running
    `layering`); `env` (sorted name, value pairs) is added to the child's clean environment;
    `setup` entries (`module:callable` or `module`) run in the child before the import.
    If `module` is already loaded by then, the child imports the first of `fallbacks` that
    is not (a positive control needs one module of its pattern that setup did not load).
    """

    module: str
    forbidden: tuple[str, ...]
    stubs: tuple[str, ...] = ()
    source_roots: tuple[str, ...] = ()
    timeout: float = 60.0
    python: str = ""
    env: tuple[tuple[str, str], ...] = ()
    setup: tuple[str, ...] = ()
    fallbacks: tuple[str, ...] = ()


@dataclass(frozen=True)
class ProbeOutcome:
    """What happened when the child imported `module`.

    `missing` names the module a `ModuleNotFoundError` was about (the import, or the setup
    entry `failed_setup`, failed on it). `forbidden_before` lists the forbidden modules
    loaded before the import (never counted in `loaded`), and `module_before` says whether
    the probed module itself was, in which case importing it showed nothing. `imported` is
    the module the child imported: `module`, or the fallback it took instead.
    """

    module: str
    kind: ProbeOutcomeKind
    loaded: tuple[LoadedForbidden, ...] = ()
    detail: str = ""
    seconds: float = 0.0
    missing: str = ""
    failed_setup: str = ""
    forbidden_before: tuple[LoadedBefore, ...] = ()
    module_before: LoadedBefore | None = None
    imported: str = ""


_PLAIN_VALUE = re.compile(r"^[A-Za-z0-9_.,:/@%+=-]+$")


@dataclass(frozen=True)
class ProbeSetting:
    """What a probe contract's children run under, as its report header shows it.

    `python` is the interpreter as shown (relative to the configuration's directory where it
    lies below it), "" for the one running `layering`; `env` holds the variables added to the
    child's clean environment as sorted (name, value) pairs; `setup` the entries run in the
    child before each import.
    """

    python: str = ""
    env: tuple[tuple[str, str], ...] = ()
    setup: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        """`python: ...`, `env: NAME=value ...`, `setup: ...`: only what differs from the
        default."""
        lines = []
        if self.python:
            lines.append(f"python: {self.python}")
        if self.env:
            shown = (
                f"{name}={value if _PLAIN_VALUE.match(value) else json.dumps(value)}"
                for name, value in self.env
            )
            lines.append("env: " + " ".join(shown))
        if self.setup:
            lines.append("setup: " + ", ".join(self.setup))
        return lines
