"""What a runtime probe asks and what it saw: the value objects shared by engine and child."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class ProbeOutcomeKind(str, enum.Enum):
    """How importing one module in a fresh interpreter ended."""

    CLEAN = "clean"
    LOADED = "loaded"
    IMPORT_FAILED = "import_failed"
    TIMED_OUT = "timed_out"
    CRASHED = "crashed"


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


@dataclass(frozen=True)
class ProbeRequest:
    """Import `module` in a fresh interpreter and report which `forbidden` patterns it loads.

    `module`, `forbidden` and `stubs` are dotted names or patterns, validated before they reach
    a child, so a configuration cannot smuggle code into one.
    """

    module: str
    forbidden: tuple[str, ...]
    stubs: tuple[str, ...] = ()
    source_roots: tuple[str, ...] = ()
    timeout: float = 60.0


@dataclass(frozen=True)
class ProbeOutcome:
    """What happened when the child imported `module`."""

    module: str
    kind: ProbeOutcomeKind
    loaded: tuple[LoadedForbidden, ...] = ()
    detail: str = ""
    seconds: float = 0.0
