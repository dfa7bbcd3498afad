"""Errors: the located problems that stop a run before any contract can be decided (exit code
2), a source file that cannot be read (the contracts that need it report it), and SIGTERM."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import NamedTuple


class Problem(NamedTuple):
    """One located problem: where it is, what is wrong, and what to do about it."""

    path: str
    line: int
    message: str
    column: int = 0
    hint: str = ""

    def render(self) -> str:
        where = self.path
        if self.line:
            where += f":{self.line}"
            if self.column:
                where += f":{self.column}"
        text = f"{where}: error: {self.message}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text


class ConfigError(Exception):
    """The configuration cannot be used; carries every problem found, sorted."""

    def __init__(self, problems: list[Problem] | Problem) -> None:
        if isinstance(problems, Problem):
            problems = [problems]
        self.problems = sorted(problems, key=lambda p: (p.path, p.line, p.column, p.message))
        super().__init__("\n".join(p.render() for p in self.problems))


class UsageError(ConfigError):
    """A mistake on the command line: an argument that names nothing, or the wrong kind of
    thing. The CLI says it in one line that names the argument, as argparse says its own, not
    under the configuration's path; a front door without arguments sees a ConfigError."""

    def __init__(self, argument: str, reason: str) -> None:
        super().__init__(Problem("", 0, f"argument {argument}: {reason}"))
        self.argument = argument
        self.reason = reason

    @property
    def line(self) -> str:
        return f"layering: error: argument {self.argument}: {self.reason}"


class Terminated(BaseException):
    """SIGTERM arrived while probes ran: raised, as Ctrl-C raises KeyboardInterrupt, so that the
    run kills the probes' process groups on its way out (the CLI then exits 143)."""


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """' Did you mean 'x'?' for the closest of `choices`, or nothing."""
    import difflib  # only when there is a problem to report

    close = difflib.get_close_matches(word, sorted(choices), n=1)
    return f" Did you mean '{close[0]}'?" if close else ""


def closest_module(name: str, modules: Collection[str]) -> str | None:
    """The module of `modules` a mistyped `name` most likely meant, compared part by part: its
    last part against those of the modules beside it, close (`utls`: `utils`) or cut short
    (`b`: `bee`), after putting right a parent that is no module (`pkg.comands.run`:
    `pkg.commands.run`). None when none is: whole dotted names share their prefix, which makes
    any two look alike (`app.nope` is not `app.core`)."""
    import difflib  # only when there is a problem to report

    parent, _, last = name.rpartition(".")
    if parent and parent not in modules:
        found = closest_module(parent, packages_among(modules))
        if found is None:
            return None
        parent = found
    siblings = {m.rpartition(".")[2]: m for m in modules if m.rpartition(".")[0] == parent}
    close = difflib.get_close_matches(last, sorted(siblings), n=1) or sorted(
        part for part in siblings if part.startswith(last) or last.startswith(part)
    )
    return siblings[close[0]] if close else None


def packages_among(modules: Collection[str]) -> set[str]:
    """The modules of `modules` that hold others (packages)."""
    return {m.rpartition(".")[0] for m in modules if "." in m} & set(modules)


class SourceUnreadable(Exception):
    """The file cannot be read as Python source; `line` is 0 where no line applies."""

    def __init__(self, path: str, line: int, reason: str) -> None:
        super().__init__(f"{path}:{line}: {reason}" if line else f"{path}: {reason}")
        self.path = path
        self.line = line
        self.reason = reason
