"""`layering check`: the command-line front door. Parses arguments, runs the engine, prints.

Exit codes: 0 every contract kept, 1 a contract broken, 2 the run could not be made.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from layering import __version__

FORMATS = ("text", "json", "github", "sarif")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="layering", description="Import-layering contract linter.")
    parser.add_argument("--version", action="version", version=f"layering {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    check = commands.add_parser("check", help="check the contracts", description="Check the contracts of contracts.toml or [tool.layering].")
    check.add_argument("--config", metavar="PATH", help="the configuration file (default: contracts.toml or pyproject.toml found from here upwards)")
    check.add_argument("--contract", metavar="ID", action="append", default=[], help="check only this contract (repeatable)")
    probes = check.add_mutually_exclusive_group()
    probes.add_argument("--no-probe", action="store_true", help="skip probe contracts (a fast, static-only run)")
    probes.add_argument("--probe-only", action="store_true", help="run only probe contracts")
    check.add_argument("--jobs", type=int, metavar="N", default=None, help="probes run at once (default: the number of cores)")
    check.add_argument("--no-cache", action="store_true", help="build the import graph without reading or writing the cache")
    check.add_argument("--python", metavar="PATH", help="the interpreter probes run in, e.g. .venv/bin/python (default: each probe contract's python, else the one running layering)")
    check.add_argument(
        "--chains",
        type=_chains,
        metavar="N|all",
        default=0,
        help="list the N shortest chains of each broken contract (or all of them) beyond one example per import to cut; default 0",
    )
    check.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="report format: text for people, json (schema: layering/schema/report-v2.json), "
        "github (Actions annotations), sarif (SARIF 2.1.0 for code scanning); default: text",
    )
    # pre-commit passes the changed files; every run checks the whole configuration, so they are ignored.
    check.add_argument("filenames", nargs="*", help=argparse.SUPPRESS)
    prune = commands.add_parser(
        "prune",
        help="remove stale allowances and expectations from the configuration",
        description="Remove the allowances, ignored imports, expect_loaded entries and "
        'expect = "broken" that no longer match anything, keeping the file\'s comments.',
    )
    prune.add_argument("--config", metavar="PATH", help="the configuration file (default: found as for check)")
    prune.add_argument("--no-probe", action="store_true", help="leave probe contracts (and their expect_loaded) alone")
    prune.add_argument("--jobs", type=int, metavar="N", default=None, help="probes run at once (default: the number of cores)")
    return parser


def _chains(value: str) -> int:
    if value == "all":
        return sys.maxsize
    if value.isdigit():
        return int(value)
    raise argparse.ArgumentTypeError("takes a number of chains or 'all'")


def main(argv: Sequence[str] | None = None) -> int:
    arguments = _parser().parse_args(argv)
    if arguments.command not in ("check", "prune"):
        _parser().print_help()
        return 2
    try:
        return _check(arguments) if arguments.command == "check" else _prune(arguments)
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        return 130


def _check(arguments: argparse.Namespace) -> int:
    from layering.domain.errors import ConfigError
    from layering.commands.check import ProbeSelection, check_settings
    from layering.engine.config import locate_settings

    selection = ProbeSelection.ALL
    if arguments.no_probe:
        selection = ProbeSelection.STATIC
    elif arguments.probe_only:
        selection = ProbeSelection.PROBES
    if arguments.jobs is not None and arguments.jobs < 1:
        sys.stderr.write("layering: error: --jobs takes a number of 1 or more\n")
        return 2
    progress = ProgressLine() if _progress_allowed() else None
    try:
        settings = locate_settings(arguments.config)
        report = check_settings(
            settings,
            arguments.contract,
            selection,
            use_cache=not arguments.no_cache,
            jobs=arguments.jobs,
            progress=progress,
            chains=arguments.chains,
            python=arguments.python,
        )
    except ConfigError as error:
        if progress:
            progress.erase()
        _write_error(arguments.format, error)
        return 2
    if progress:
        progress.erase()
    if arguments.format in ("text", "json", "sarif"):  # github shows them as annotations
        sys.stderr.write(_renderer("text").warning_lines(report))
    sys.stdout.write(_render(arguments.format, report))
    sys.stdout.flush()
    return report.exit_code


def _prune(arguments: argparse.Namespace) -> int:
    from layering.domain.errors import ConfigError
    from layering.commands.prune import prune
    from layering.commands.check import ProbeSelection
    from layering.engine.config import locate_settings

    selection = ProbeSelection.STATIC if arguments.no_probe else ProbeSelection.ALL
    try:
        settings = locate_settings(arguments.config)
        removed, skipped = prune(settings, selection, jobs=arguments.jobs)
    except ConfigError as error:
        _write_error("text", error)
        return 2
    shown = _renderer("text").relative_path(settings.path)
    for removal in removed:
        where = f"{removal.entry.option}[{removal.entry.index}]" if removal.entry.index is not None else removal.entry.option
        what = f"name {removal.entry.name!r} of {where}" if removal.entry.name is not None else where
        sys.stdout.write(f"{shown}: removed {what} {removal.entry.text!r} from contract '{removal.contract}'\n")
    for note in skipped:
        sys.stdout.write(f"{shown}: {note}\n")
    if not removed:
        sys.stdout.write(f"{shown}: nothing stale to remove\n")
    return 2 if skipped else 0


def _colour() -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set to anything (no-color.org)."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def _renderer(format: str):
    """The reporting module of one format, imported alone: a text run pays for no JSON."""
    import importlib

    return importlib.import_module(f"layering.reporting.{format}")


def _render(format: str, report) -> str:
    if format == "text":
        return _renderer("text").render(report, colour=_colour())
    return _renderer(format).render(report)


def _write_error(format: str, error) -> None:
    """Configuration errors in the chosen format: machine formats on stdout, text on stderr."""
    text = _renderer("text").render_error(error)
    if format == "text":
        sys.stderr.write(text)
        return
    sys.stdout.write(_renderer(format).render_error(error))
    sys.stdout.flush()
    if format != "github":  # json and SARIF usually go to a file: the job log shows the error too
        sys.stderr.write(text)


def _progress_allowed() -> bool:
    """A progress line only on a terminal that takes control codes."""
    return sys.stderr.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


class ProgressLine:
    """`probes: 3/20` on stderr, redrawn in place; erased only if it was ever drawn."""

    def __init__(self) -> None:
        self.drawn = False

    def __call__(self, done: int, total: int) -> None:
        sys.stderr.write(f"\rprobes: {done}/{total}")
        sys.stderr.flush()
        self.drawn = True

    def erase(self) -> None:
        if self.drawn:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
