"""`layering check`, `prune`, `baseline`, `explain`, `migrate`, `audit`, `graph`, `init` and
`lsp`: the command-line front door. Parses
arguments, runs the use cases, prints.

Exit codes: 0 every contract kept, 1 a contract broken, 2 the run could not be made, 130
interrupted (SIGINT), 143 terminated (SIGTERM).
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import gc
import os
import sys
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn

from layering.domain.version import VERSION
from layering.reporting import formats

EPILOG = """\
exit codes:
  0  every contract kept
  1  a contract broken (or a stale allowance, or expect = "broken" kept)
  2  the run could not be made: a mistake on the command line, a configuration error, an
     unreadable source file, a probe whose module failed to import, a contract that could
     not be decided, or a report that could not be written (lint-imports exits 1)
  130  interrupted (Ctrl-C); the probes it started are killed first
  143  terminated (SIGTERM); the probes it started are killed first

configuration (without --config or a path, the first found, here or in the nearest parent
directory): contracts.toml; [tool.layering] in pyproject.toml; import-linter's own, read as
it is: [importlinter] in setup.cfg, .importlinter, [tool.importlinter] in pyproject.toml.

lint-imports: `layering check` takes its command line (several files, --contract [PATH:]ID,
--no-cache, --cache-dir, --verbose, --show-timings, --debug, --no-logo) and gives its
verdicts; a configuration that cannot be used exits 2 here, 1 there (README, "import-linter
configurations", lists every difference).

Text output is coloured on a terminal unless NO_COLOR is set (or TERM=dumb). The finding
codes (LY001...) are listed in the README, section "Reports".
"""


class _Parser(argparse.ArgumentParser):
    """argparse, with a mistake said in one line that names the argument (no usage block to
    read past), exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="layering",
        description="Import-layering contract linter.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"layering {VERSION}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    check = commands.add_parser(
        "check",
        help="check the contracts",
        description="Check the contracts of a configuration (or of several, one after the other).",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.add_argument(
        "config_paths",
        nargs="*",
        metavar="PATH",
        help="the configuration files, checked one after the other in one run, as lint-imports "
        "takes them (default: found as described below)",
    )
    check.add_argument(
        "--config",
        metavar="PATH",
        action="append",
        default=[],
        help="the same, as an option (repeatable)",
    )
    check.add_argument(
        "--contract",
        metavar="ID",
        action="append",
        default=[],
        help="check only this contract (repeatable); with several configurations, PATH:ID names "
        "one of a file, as lint-imports takes it",
    )
    probes = check.add_mutually_exclusive_group()
    probes.add_argument(
        "--no-probe", action="store_true", help="skip probe contracts (a fast, static-only run)"
    )
    probes.add_argument("--probe-only", action="store_true", help="run only probe contracts")
    check.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        default=None,
        help="probes run at once (default: the number of cores)",
    )
    caching = check.add_mutually_exclusive_group()
    caching.add_argument(
        "--no-cache",
        action="store_true",
        help="build the import graph without reading or writing the cache",
    )
    caching.add_argument(
        "--verify-cache",
        action="store_true",
        help="check every entry of the cache against the files and a run without it: print that "
        "run's report, "
        "and exit 2 naming each entry that disagrees (for a nightly job; see SECURITY.md)",
    )
    check.add_argument(
        "--since",
        metavar="REF",
        help="also check the tree of git revision REF (read from git; the checkout is not "
        "touched) and "
        "report which findings are new since REF, how many are fixed, and how each contract's "
        "debt changed",
    )
    check.add_argument(
        "--new-only",
        action="store_true",
        help="with --since: fail (exit 1) only where a finding is new since REF; older ones are "
        "reported",
    )
    check.add_argument(
        "--cache-dir",
        metavar="DIR",
        help="keep the cache in DIR for this run, in place of the configuration's cache_dir "
        "(lint-imports' option; --no-cache wins over it)",
    )
    lint_imports = check.add_argument_group(
        "lint-imports' options", "accepted so that a CI line changes only its program name"
    )
    lint_imports.add_argument(
        "--verbose",
        action="store_true",
        help="say on stderr which configuration is read and how long each took",
    )
    lint_imports.add_argument(
        "--show-timings",
        action="store_true",
        help="say on stderr how long checking each configuration took",
    )
    lint_imports.add_argument(
        "--debug",
        action="store_true",
        help="no effect: layering never hides an unexpected error (its traceback is shown)",
    )
    lint_imports.add_argument(
        "--no-logo", action="store_true", help="no effect: layering prints no logo"
    )
    check.add_argument(
        "--python",
        metavar="PATH",
        help="the interpreter probes run in, e.g. .venv/bin/python (default: each probe "
        "contract's python, else the one running layering); "
        "a root package found nowhere else is looked for on its path",
    )
    check.add_argument(
        "--chains",
        type=_chains,
        metavar="N|all",
        default=0,
        help="list the N shortest chains of each broken contract (or all of them) beyond one "
        "example per import to cut; default 0",
    )
    check.add_argument(
        "--format",
        choices=formats.names("check"),
        default="text",
        help="report format: text for people, json (schema: layering/schema/report-v2.json), "
        "github (Actions annotations), sarif (SARIF 2.1.0 for code scanning); default: text",
    )
    prune = commands.add_parser(
        "prune",
        help="remove stale allowances and expectations from the configuration",
        description="Remove the allowances, ignored imports, expect_loaded entries and "
        'expect = "broken" that no longer match anything, keeping the file\'s comments.',
    )
    _config_arguments(prune)
    prune.add_argument(
        "--no-probe",
        action="store_true",
        help="leave probe contracts (and their expect_loaded) alone",
    )
    prune.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        default=None,
        help="probes run at once (default: the number of cores)",
    )
    migrate = commands.add_parser(
        "migrate",
        help="write contracts.toml (or [tool.layering]) from an import-linter configuration",
        description="Write the contracts of an import-linter configuration (.importlinter, "
        "setup.cfg, "
        "[tool.importlinter]) in layering's format, with their comments, atomically. The verdicts "
        "are the same before and after.",
    )
    _config_arguments(migrate, "the import-linter configuration (default: found as for check)")
    migrate.add_argument(
        "--to",
        choices=("contracts.toml", "pyproject.toml"),
        default="contracts.toml",
        help="write a contracts.toml beside the configuration (default), or [tool.layering] into "
        "its pyproject.toml",
    )
    migrate.add_argument(
        "--force",
        action="store_true",
        help="replace an existing contracts.toml or [tool.layering]",
    )
    migrate.add_argument(
        "--dry-run", action="store_true", help="print what would be written, write nothing"
    )
    audit = commands.add_parser(
        "audit",
        help="compare each probe contract with the static load closure of its modules",
        description="Run each probe contract's probe and read the same modules' load closure from "
        "the "
        "source; show where they disagree (exit 0 they agree, 1 they do not, 2 a run failed).",
    )
    _config_arguments(audit)
    audit.add_argument(
        "--contract",
        metavar="ID",
        action="append",
        default=[],
        help="audit only this probe contract (repeatable)",
    )
    audit.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        default=None,
        help="probes run at once (default: the number of cores)",
    )
    audit.add_argument(
        "--python",
        metavar="PATH",
        help="the interpreter probes run in, as for check (default: each probe contract's python, "
        "else the one running layering)",
    )
    audit.add_argument(
        "--format",
        choices=formats.names("audit"),
        default="text",
        help="text, a short table per contract, or json; default: text",
    )
    baseline = commands.add_parser(
        "baseline",
        help="excuse every violation found today, so that only new ones break a contract",
        description="Add to each broken contract the entries that excuse what it finds today "
        "(allow, "
        "ignore_imports or expect_loaded; the imports of a cut, not every chain), each with a "
        "comment, "
        "keeping the rest of the file as written. The entries only shrink afterwards: `layering "
        "prune` "
        "removes the stale ones. Exit 0 every contract kept afterwards, 1 one is not, 2 the run "
        "could not be made.",
    )
    _config_arguments(baseline)
    baseline.add_argument(
        "--contract",
        metavar="ID",
        action="append",
        default=[],
        help="baseline only this contract (repeatable)",
    )
    baseline.add_argument(
        "--no-probe", action="store_true", help="leave probe contracts alone (no probe is run)"
    )
    baseline.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        default=None,
        help="probes run at once (default: the number of cores)",
    )
    baseline.add_argument(
        "--comment",
        metavar="TEXT",
        default=None,
        help="the comment on each entry (default: 'baseline YYYY-MM-DD', today)",
    )
    baseline.add_argument(
        "--dry-run", action="store_true", help="print the entries, write nothing"
    )
    explain = commands.add_parser(
        "explain",
        help="why one module imports another: the chains, and the imports that cut them",
        description="Show how IMPORTER (or a module of it) imports IMPORTED (or a module of it): "
        "every "
        "chain of import statements, shortest first, each hop with path:line, names and marks "
        "(function-level, TYPE_CHECKING, lazy), and the fewest imports whose removal cuts them "
        "all. "
        "Exit 0 it does, 1 it does not, 2 the run could not be made.",
    )
    explain.add_argument(
        "importer",
        metavar="IMPORTER",
        help="a module or package of the configuration's root packages",
    )
    explain.add_argument(
        "imported",
        metavar="IMPORTED",
        help="a module or package (or an external package's top level)",
    )
    explain.add_argument(
        "--config", metavar="PATH", help="the configuration file (default: found as for check)"
    )
    explain.add_argument(
        "--chains",
        type=_chains,
        metavar="N|all",
        default=10,
        help="list the N shortest chains (or all of them); default 10",
    )
    explain.add_argument(
        "--format", choices=formats.names("explain"), default="text", help="text (default) or json"
    )
    explain.add_argument(
        "--no-cache",
        action="store_true",
        help="build the import graph without reading or writing the cache",
    )
    _graph_parser(commands)
    _init_parser(commands)
    commands.add_parser(
        "lsp",
        help="a language server: the contracts' findings as diagnostics in the editor "
        "(layering[lsp])",
        description="Serve the Language Server Protocol over standard input and output: after the "
        "editor starts it and after each save, check the static contracts of the configuration "
        "found from the workspace root (with the cache) and publish each finding of a broken "
        "contract as a diagnostic on its import's line. Needs pygls: install layering[lsp].",
    )
    return parser


def _config_arguments(
    command: argparse.ArgumentParser,
    help: str = "the configuration file (default: found as described below)",
) -> None:
    """The configuration, as `--config PATH` or as a path argument (import-linter 2.x style)."""
    command.add_argument("config_path", nargs="?", metavar="PATH", help=help)
    command.add_argument("--config", metavar="PATH", help="the same, as an option")


def _config(arguments: argparse.Namespace) -> str | None:
    """The configuration the command line names, if any (checked by `_checked_path`)."""
    path = getattr(arguments, "config", None) or getattr(arguments, "config_path", None)
    if path is None:
        return None
    return _checked_path("--config" if getattr(arguments, "config", None) else "PATH", path)


def _checked_path(argument: str, path: str) -> str:
    """`path`, or a usage error when it is no file, or is Python source (`layering check
    app/cli.py`, where a contract id goes after --contract)."""
    from layering.domain.errors import UsageError

    if not os.path.exists(path):
        raise UsageError(argument, f"{path} does not exist: name a configuration file")
    if os.path.isdir(path):
        raise UsageError(argument, f"{path} is a directory: name the configuration file in it")
    if path.endswith((".py", ".pyi")):
        raise UsageError(
            argument,
            f"{path} is Python source, not a configuration (contracts.toml, pyproject.toml, "
            "setup.cfg, "
            ".importlinter); a contract id goes after --contract",
        )
    return path


class OutputLost(Exception):
    """Standard output cannot be written (a full disk, a device that takes nothing): the report
    is lost, and the run says so instead of exiting as if it had been read."""


def _out(text: str) -> None:
    """Write `text` to standard output, now: every report goes through here."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as error:
        raise OutputLost(error.strerror or str(error)) from None


def _discard_output() -> None:
    """Point standard output at the null device, so that what is still buffered for it goes
    nowhere instead of failing again as the process exits."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _usage_error(message: str) -> int:
    sys.stderr.write(f"layering: error: {message}\n")
    return 2


def _chains(value: str) -> int:
    if value == "all":
        return sys.maxsize
    if value.isdigit():
        return int(value)
    raise argparse.ArgumentTypeError("takes a number of chains or 'all'")


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    arguments = parser.parse_args(argv)
    if (
        getattr(arguments, "config", None)
        and getattr(arguments, "config_path", None)
        and arguments.config != arguments.config_path
    ):
        parser.error(
            f"two configurations given ({arguments.config_path} and --config {arguments.config}): "
            "name one"
        )
    commands = {
        "check": _check,
        "prune": _prune,
        "migrate": _migrate,
        "audit": _audit,
        "baseline": _baseline,
        "explain": _explain,
        "graph": _graph,
        "init": _init,
        "lsp": _lsp,
    }
    if arguments.command not in commands:
        parser.print_help()
        return 2
    from layering.domain.errors import ConfigError, Terminated, UsageError

    try:
        return commands[arguments.command](arguments)
    except UsageError as error:
        render_error = formats.error_renderer(
            arguments.command, getattr(arguments, "format", "text")
        )
        if render_error is not None:  # a machine reads the report: it gets the error there too
            _out(render_error(error))
        sys.stderr.write(error.line + "\n")
        return 2
    except ConfigError as error:
        _write_error(arguments.command, getattr(arguments, "format", "text"), error)
        return 2
    except BrokenPipeError:
        _discard_output()
        return 1
    except OutputLost as lost:
        _discard_output()
        sys.stderr.write(
            f"layering: error: cannot write to standard output ({lost}); the report is lost\n"
        )
        return 2
    except (KeyboardInterrupt, Terminated) as stop:
        return _stopped(stop)
    except RuntimeError as error:
        # Python < 3.12 wraps what a class's `__set_name__` raised, so a signal that lands while
        # a module defines a class comes out as "Error calling __set_name__"
        if isinstance(error.__cause__, (KeyboardInterrupt, Terminated)):
            return _stopped(error.__cause__)
        raise


def _stopped(stop: BaseException) -> int:
    """The line and exit code of a run stopped by Ctrl-C (130) or SIGTERM (143)."""
    if isinstance(stop, KeyboardInterrupt):
        sys.stderr.write("layering: interrupted (Ctrl-C)\n")
        return 130
    sys.stderr.write("layering: terminated (SIGTERM)\n")
    return 143


def _check(arguments: argparse.Namespace) -> int:
    """Check each configuration named (or the one found), one after the other: each report is
    printed as it would be alone, and the exit code is the worst of theirs."""
    from layering.commands.check import ProbeSelection

    selection = ProbeSelection.ALL
    if arguments.no_probe:
        selection = ProbeSelection.STATIC
    elif arguments.probe_only:
        selection = ProbeSelection.PROBES
    if arguments.jobs is not None and arguments.jobs < 1:
        return _usage_error("--jobs takes a number of 1 or more")
    if arguments.new_only and arguments.since is None:
        return _usage_error("--new-only needs --since REF: new since which revision?")
    if arguments.since is not None and arguments.verify_cache:
        return _usage_error("--since and --verify-cache: run each on its own")
    if arguments.since is not None and not arguments.since.strip():
        return _usage_error("--since takes a git revision (a branch, a tag, a commit)")
    runs = _configurations_to_check(arguments)
    if len(runs) > 1 and arguments.format in ("json", "sarif"):
        from layering.domain.errors import UsageError

        raise UsageError(
            "--format",
            f"{arguments.format} reports one configuration: check each of the {len(runs)} in a "
            "run of its own",
        )
    code = 0
    for number, (settings, contract_ids) in enumerate(runs):
        if number:
            _out("\n")
        code = max(code, _check_one(arguments, settings, contract_ids, selection))
    return code


def _configurations_to_check(arguments: argparse.Namespace) -> list[tuple[Any, tuple[str, ...]]]:
    """(settings, the --contract ids of that file) of each configuration to check: every file
    read before any is checked, so that a file that cannot be read stops the run first. With
    --contract, a file none of whose contracts is named is left out, as lint-imports leaves it."""
    from layering.domain.errors import UsageError
    from layering.engine.config import locate_settings, with_cache_dir

    paths = [*arguments.config, *arguments.config_paths]
    unique: dict[str, str] = {}
    for path in paths:
        unique.setdefault(os.path.normcase(os.path.realpath(path)), path)
    named = [
        _checked_path("--config" if path in arguments.config else "PATH", path)
        for path in unique.values()
    ]
    every = [locate_settings(path) for path in named] if named else [locate_settings()]
    if arguments.cache_dir is not None and not arguments.no_cache:
        every = [with_cache_dir(settings, arguments.cache_dir) for settings in every]
    if not arguments.contract:
        return [(settings, ()) for settings in every]
    if len(every) == 1:  # one file: an unknown id is said with that file's contracts
        return [(every[0], tuple(arguments.contract))]
    chosen: list[list[str]] = [[] for _ in every]
    for requested in arguments.contract:
        holders = [n for n, s in enumerate(every) if requested in _contract_keys(s)]
        if not holders and ":" in requested:
            where, _, key = requested.rpartition(":")
            holders = [
                n
                for n, s in enumerate(every)
                if os.path.realpath(s.path) == os.path.realpath(where) and key in _contract_keys(s)
            ]
            requested = key
        if not holders:
            raise UsageError(
                "--contract", f"{requested!r} names no contract of the {len(every)} configurations"
            )
        if len(holders) > 1:
            raise UsageError(
                "--contract",
                f"{requested!r} names a contract of "
                + " and of ".join(_text().relative_path(every[n].path) for n in holders)
                + ": name one as PATH:ID",
            )
        chosen[holders[0]].append(requested)
    return [(s, tuple(ids)) for s, ids in zip(every, chosen) if ids]


def _contract_keys(settings: Any) -> set[str]:
    """The ids and names `--contract` may give for the contracts of `settings`."""
    return {
        value
        for spec in settings.contracts
        for value in (spec.options.get("id"), spec.options.get("name"))
        if isinstance(value, str)
    }


def _check_one(
    arguments: argparse.Namespace, settings: Any, contract_ids: tuple[str, ...], selection: Any
) -> int:
    import time

    from layering.commands.check import check_settings

    if arguments.verbose:
        sys.stderr.write(f"layering: checking {_text().relative_path(settings.path)}\n")
    started = time.perf_counter()
    revision = None
    if arguments.since is not None:  # a revision that names nothing is said before any run
        from layering.commands.since import target

        revision = target(settings, arguments.since)
    progress = ProgressLine() if _progress_allowed() else None
    disagreements: list[str] = []
    with _erased(progress):
        if arguments.verify_cache:
            from layering.commands.verify_cache import verify_cache

            report, disagreements = verify_cache(
                settings, contract_ids, selection, arguments.chains, arguments.python
            )
        else:
            report = check_settings(
                settings,
                list(contract_ids),
                selection,
                use_cache=not arguments.no_cache,
                jobs=arguments.jobs,
                progress=progress,
                chains=arguments.chains,
                python=arguments.python,
                kept=_LEFT_AT_EXIT,
            )
        since = None
        if revision is not None:
            from layering.commands.since import check_since

            since = check_since(
                settings,
                revision,
                report,
                contract_ids,
                selection,
                use_cache=not arguments.no_cache,
                chains=arguments.chains,
                python=arguments.python,
                jobs=arguments.jobs,
                progress=progress,
            )
    if arguments.show_timings or arguments.verbose:
        sys.stderr.write(
            f"layering: {_text().relative_path(settings.path)}: {len(report.results)} "
            f"contract{'' if len(report.results) == 1 else 's'} checked in "
            f"{time.perf_counter() - started:.2f} s\n"
        )
    if arguments.format in ("text", "json", "sarif"):  # github shows them as annotations
        sys.stderr.write(_text().warning_lines(report))
    if since is not None:
        return _since_out(arguments.format, report, since, arguments.new_only)
    _out(_render(arguments.format, report))
    for disagreement in disagreements:
        sys.stderr.write(f"layering: error: cache entry disagrees: {disagreement}\n")
    if disagreements:
        sys.stderr.write(
            f"layering: error: {len(disagreements)} cache "
            f"{'entry disagrees' if len(disagreements) == 1 else 'entries disagree'} with the "
            "files; remove the cache directory, and find who wrote it\n"
        )
        return 2
    return report.exit_code


def _prune(arguments: argparse.Namespace) -> int:
    from layering.commands.check import ProbeSelection
    from layering.commands.prune import prune
    from layering.engine.config import locate_settings

    selection = ProbeSelection.STATIC if arguments.no_probe else ProbeSelection.ALL
    settings = locate_settings(_config(arguments))
    removed, skipped = prune(settings, selection, jobs=arguments.jobs)
    shown = _text().relative_path(settings.path)
    for removal in removed:
        where = (
            f"{removal.entry.option}[{removal.entry.position}]"
            if removal.entry.position is not None
            else removal.entry.option
        )
        what = (
            f"name {removal.entry.name!r} of {where}" if removal.entry.name is not None else where
        )
        _out(
            f"{shown}: removed {what} {removal.entry.text!r} from contract '{removal.contract}'\n"
        )
    for note in skipped:
        _out(f"{shown}: {note}\n")
    if not removed:
        _out(f"{shown}: nothing stale to remove\n")
    return 2 if skipped else 0


def _baseline(arguments: argparse.Namespace) -> int:
    import datetime

    from layering.commands.baseline import baseline
    from layering.commands.check import ProbeSelection
    from layering.engine.config import locate_settings
    from layering.reporting.baseline import render

    if arguments.jobs is not None and arguments.jobs < 1:
        return _usage_error("--jobs takes a number of 1 or more")
    comment = (
        arguments.comment
        if arguments.comment is not None
        else f"baseline {datetime.date.today().isoformat()}"
    )
    if "\n" in comment or "\r" in comment:
        return _usage_error("--comment takes one line of text")
    selection = ProbeSelection.STATIC if arguments.no_probe else ProbeSelection.ALL
    settings = locate_settings(_config(arguments))
    outcome = baseline(
        settings,
        comment,
        arguments.contract,
        selection,
        jobs=arguments.jobs,
        dry_run=arguments.dry_run,
    )
    _out(
        render(
            outcome,
            _text().relative_path(settings.path),
            settings.file_format,
            arguments.dry_run,
        )
    )
    return outcome.exit_code


def _explain(arguments: argparse.Namespace) -> int:
    from layering.commands.explain import explain
    from layering.engine.config import locate_settings

    settings = locate_settings(_config(arguments))
    explanation = explain(
        settings,
        arguments.importer,
        arguments.imported,
        arguments.chains,
        use_cache=not arguments.no_cache,
    )
    sys.stderr.write(_text().warnings_text(explanation.warnings))
    _out(formats.renderer("explain", arguments.format)(explanation))
    return 0 if explanation.imports else 1


def _migrate(arguments: argparse.Namespace) -> int:
    from layering.commands.migrate import migrate
    from layering.engine.config import locate_settings

    settings = locate_settings(_config(arguments))
    migration = migrate(settings, arguments.to, force=arguments.force, dry_run=arguments.dry_run)
    relative = _text().relative_path
    if arguments.dry_run:
        _out(migration.text)
    else:
        _out(
            f"{relative(migration.path)}: wrote {migration.contracts} "
            f"contract{'' if migration.contracts == 1 else 's'} from {relative(settings.path)}, "
            "with the same verdicts\n"
        )
    for note in migration.notes:
        sys.stderr.write(f"layering: note: {note}\n")
    return 0


def _audit(arguments: argparse.Namespace) -> int:
    from layering.commands.audit import audit
    from layering.engine.config import locate_settings

    if arguments.jobs is not None and arguments.jobs < 1:
        return _usage_error("--jobs takes a number of 1 or more")
    progress = ProgressLine() if _progress_allowed() else None
    with _erased(progress):
        report = audit(
            locate_settings(_config(arguments)),
            arguments.contract,
            jobs=arguments.jobs,
            progress=progress,
            python=arguments.python,
        )
    _out(formats.renderer("audit", arguments.format)(report))
    return report.exit_code


GRAPH_EPILOG = """\
The depth counts name components: at --depth 2, django.db.models.base is drawn as django.db;
a module with fewer components is drawn as itself. An edge's label is the number of
module-to-module imports it stands for (two modules count once, however many statements join
them). With contracts, the static ones are checked as by `layering check --no-probe`, and each
edge that carries an import a broken contract reports is drawn red, labelled with its id.
External packages are drawn when include_external_packages = true, else only where a broken
contract's import reaches one.

exit codes:
  0  the graph printed, no contract broken
  1  the graph printed, a contract broken (its imports marked)
  2  no graph: a configuration error, an unknown package, a bad --depth, an unreadable file
"""


def _graph_parser(commands) -> None:
    graph = commands.add_parser(
        "graph",
        help="print the import graph of a package at a depth, marking what breaks a contract",
        description="Print the import graph of PACKAGE (default: the root packages) with "
        "submodules "
        "squashed to --depth, edges weighted by imports, as Mermaid, graphviz dot or JSON.",
        epilog=GRAPH_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    graph.add_argument(
        "package",
        nargs="?",
        metavar="PACKAGE",
        help="a package of the root packages (default: the root packages)",
    )
    graph.add_argument(
        "--depth",
        type=_depth,
        metavar="N",
        default=None,
        help="name components kept (default: one level below PACKAGE)",
    )
    graph.add_argument(
        "--format",
        choices=formats.names("graph"),
        default="mermaid",
        help="mermaid (GitHub renders it), dot (graphviz) or json; default: mermaid",
    )
    graph.add_argument(
        "--config", metavar="PATH", help="the configuration file (default: found as for check)"
    )
    graph.add_argument(
        "--contract",
        metavar="ID",
        help="draw the declared stack of this layers contract instead, with the imports that "
        "break it",
    )
    graph.add_argument(
        "--no-contracts", action="store_true", help="draw the graph without checking the contracts"
    )
    graph.add_argument(
        "--no-cache",
        action="store_true",
        help="check the contracts without reading or writing the cache",
    )


def _depth(value: str) -> int:
    if value.isdigit() and int(value) >= 1:
        return int(value)
    raise argparse.ArgumentTypeError("takes a number of name components, 1 or more")


def _graph(arguments: argparse.Namespace) -> int:
    from layering.commands.graph import draw_graph
    from layering.engine.config import locate_settings
    from layering.reporting import graph_formats

    if arguments.contract is not None:
        return _layer_stack(arguments)
    run = draw_graph(
        locate_settings(_config(arguments)),
        arguments.package,
        arguments.depth,
        contracts=not arguments.no_contracts,
        use_cache=not arguments.no_cache,
    )
    text = formats.renderer("graph", arguments.format)(run.graph, run.exit_code)
    sys.stderr.write(_text().warnings_text(run.warnings))
    if run.report is not None:
        sys.stderr.write(
            "".join(f"layering: error: {line}\n" for line in graph_formats.error_lines(run.report))
        )
    sys.stderr.write(
        "".join(
            f"layering: note: {note}\n"
            for note in graph_formats.notes(run.graph, arguments.format, text)
        )
    )
    _out(text)
    return run.exit_code


def _layer_stack(arguments: argparse.Namespace) -> int:
    """`layering graph --contract ID`: the stack of one layers contract."""
    from layering.commands.graph import draw_layer_stack
    from layering.domain.errors import ConfigError, Problem
    from layering.engine.config import locate_settings
    from layering.reporting import graph_formats

    settings = locate_settings(arguments.config)
    given = [
        option
        for option, value in (
            ("PACKAGE", arguments.package),
            ("--depth", arguments.depth),
        )
        if value is not None
    ]
    if given or arguments.format not in formats.names("layer-stack"):
        what = given[0] if given else f"--format {arguments.format}"
        raise ConfigError(
            Problem(
                settings.path,
                0,
                f"{what} does not apply to --contract, which draws one contract's layers",
                hint="--contract draws as " + " or ".join(formats.names("layer-stack")),
            )
        )
    run = draw_layer_stack(
        settings,
        arguments.contract,
        checked=not arguments.no_contracts,
        use_cache=not arguments.no_cache,
    )
    text = formats.renderer("layer-stack", arguments.format)(run.stack, run.exit_code)
    if run.report is not None:
        sys.stderr.write(_text().warnings_text(run.report.warnings))
        sys.stderr.write(
            "".join(f"layering: error: {line}\n" for line in graph_formats.error_lines(run.report))
        )
    _out(text)
    return run.exit_code


INIT_EPILOG = """\
For PACKAGE and each of its subpackages down to --depth, the children's imports decide: when
they admit an order, a layers contract lists the children highest first (children in an import
cycle share a layer, "a : b"; children of one level that import nothing of each other, "a | b");
when no child imports another, an independence contract. Chains count, as in the contracts.
The configuration is checked before it is written, and never replaces one without --force.

exit codes:
  0  written (or, with --check, today's contracts hold every proposal)
  1  with --check: a proposal today's contracts lack or order otherwise
  2  nothing written: the file exists, the package is not found, the run could not be made
"""


def _init_parser(commands) -> None:
    init = commands.add_parser(
        "init",
        help="write the contracts a package's imports justify today (each one kept)",
        description="Infer layers and independence contracts from PACKAGE's imports and write "
        "them "
        "as a commented contracts.toml (or [tool.layering] in pyproject.toml), kept on today's "
        "code.",
        epilog=INIT_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    init.add_argument(
        "package",
        nargs="?",
        metavar="PACKAGE",
        help="the package (default: the configuration's root package, else the one package here "
        "or in src/)",
    )
    init.add_argument(
        "--pyproject", action="store_true", help="write [tool.layering] in pyproject.toml"
    )
    init.add_argument("--force", action="store_true", help="replace an existing configuration")
    init.add_argument(
        "--check",
        action="store_true",
        help="write nothing: say how today's contracts differ from what init proposes",
    )
    init.add_argument(
        "--baseline",
        action="store_true",
        help="children in an import cycle get layers of their own, today's upward imports "
        "excused as `layering baseline` excuses them (known_chains), instead of sharing a layer",
    )
    init.add_argument(
        "--depth",
        type=_depth,
        metavar="N",
        default=2,
        help="the package levels that get contracts, PACKAGE itself counting as 1 (default: 2)",
    )
    init.add_argument(
        "--config",
        metavar="PATH",
        help="with --check: the configuration (default: found as for check)",
    )


def _init(arguments: argparse.Namespace) -> int:
    import datetime

    from layering.commands import init
    from layering.engine.config import locate_settings
    from layering.reporting import inferred

    base = os.getcwd()
    if arguments.check:
        settings = locate_settings(arguments.config)
        package = arguments.package or settings.root_packages[0]
        proposal = init.propose(package, settings.base_dir, arguments.depth)
        differences = init.compare(settings, proposal)
        _out(inferred.render_differences(_text().relative_path(settings.path), differences))
        return 1 if any(not d.same for d in differences) else 0
    package = arguments.package or init.default_package(base)
    path = init.target_path(base, arguments.pyproject)
    if not arguments.force:
        init.refuse_overwrite(path, arguments.pyproject)
    proposal = init.propose(package, base, arguments.depth, apart=arguments.baseline)
    init.write_proposal(
        path,
        inferred.render_config(proposal, arguments.pyproject),
        arguments.pyproject,
        comment=f"init --baseline {datetime.date.today().isoformat()}"
        if arguments.baseline
        else "",
    )
    _out(inferred.render_summary(proposal, _text().relative_path(path)))
    return 0


def _since_out(format: str, report: Any, since: Any, new_only: bool) -> int:
    """The report with what changed since REF (`reporting.since`), and the exit code: with
    `new_only`, 1 only where a finding is new since REF (2 still where a contract could not be
    decided)."""
    from layering.domain.since import exit_code

    render = formats.renderer("since", format)
    extra = {"colour": _colour()} if format == "text" else {}
    _out(render(report, since, new_only, **extra))
    return exit_code(report, since, new_only)


def _lsp(arguments: argparse.Namespace) -> int:
    """`layering lsp`: pygls is imported here only, so that no other command pays for it."""
    try:
        import pygls.lsp.server  # noqa: F401
    except ImportError:
        sys.stderr.write("layering: error: layering lsp needs pygls: install layering[lsp]\n")
        return 2
    from layering import lsp

    gc.enable()  # a long-lived server frees what each run leaves (`run` turned it off)
    return lsp.serve()


def _colour() -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set to anything (no-color.org)."""
    return (
        sys.stdout.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
    )


def _text() -> Any:
    """The text reporting module: warnings, errors and paths as a person reads them."""
    from layering.reporting import text

    return text


def _render(format: str, report: Any) -> str:
    if format == "text":
        return formats.renderer("check", "text")(report, colour=_colour())
    return formats.renderer("check", format)(report)


def _write_error(command: str, format: str, error: Any) -> None:
    """A configuration error, said once for every command: in a machine format on standard
    output where the format has one (where the report would have been), and as text on standard
    error (but for GitHub's annotations, which the job log shows already)."""
    render_error = formats.error_renderer(command, format)
    if render_error is not None:
        _out(render_error(error))
    if render_error is None or formats.errors_also_on_stderr(command, format):
        sys.stderr.write(_text().render_error(error))


@contextlib.contextmanager
def _erased(progress: ProgressLine | None) -> Iterator[None]:
    """The progress line erased once the work it shows ends, however it ends."""
    try:
        yield
    finally:
        if progress:
            progress.erase()


def _progress_allowed() -> bool:
    """A progress line only on a terminal that takes control codes."""
    return (
        sys.stderr.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
    )


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


_LEFT_AT_EXIT: list[object] = []
"""What a check leaves behind for `run` to drop with the process (`check_settings`' `kept`)."""


def run() -> None:
    """Console-script entry point. The cycle collector stays off: a run's objects die with the
    process, which a collection would only walk again (a check holds it off while it decides;
    turned on again after, its first collection walked all that was made meanwhile, 5-15 ms on
    homeassistant's layers and independence). Once the output is out and the exit handlers have
    run, the process leaves without tearing the interpreter down object by object, as mypy's does
    (0.06 s of a 1.5 s run on transformers); not while a profiler or tracer watches it
    (cProfile, coverage and debuggers write what they saw as the interpreter exits)."""
    gc.disable()
    code = main()
    if _watched():
        sys.exit(code)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a reader that went away (`| head`), a stream closed (lsp)
        pass
    atexit._run_exitfuncs()
    os._exit(code)


def _watched() -> bool:
    if sys.getprofile() is not None or sys.gettrace() is not None:
        return True
    monitoring = getattr(
        sys, "monitoring", None
    )  # Python 3.12+: cProfile and coverage register here
    return monitoring is not None and any(
        monitoring.get_tool(tool) is not None for tool in range(6)
    )
