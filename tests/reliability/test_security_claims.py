"""SECURITY.md's claims, each with a test behind it.

Every claim SECURITY.md makes about what `layering` runs, reads and writes and what it never
does, and below it the tests that would fail were it false: this file's tests by name, the
others by node id. Tests marked (strace) watch every process of a run (grimp's Rust code, the
cache builder and the probe children included) and are skipped where `strace` cannot run; the
others watch the layering process through an audit hook (`sys.addaudithook`) or the files
through a snapshot of the whole temporary tree (its home and temporary directories included).

What runs
- Static contracts (forbidden, leaf, contained, loads, layers, independence, protected,
  acyclic_siblings) are decided from the source alone: nothing of the project is imported,
  executed or evaluated; a top-level root package is found without importing it; only a
  configuration that names contract_types imports anything.
    test_static_contracts_run_none_of_the_projects_code
    tests/engine/test_loads_contract.py::test_a_static_run_executes_nothing_of_the_package
- Files are decoded as Python decodes them (UTF-8, a BOM, a coding line).
    tests/reliability/test_source_tree.py::test_file_with_a_coding_cookie_is_decoded
    tests/reliability/test_source_tree.py::test_utf8_bom_is_read_like_python_reads_it
- A file that cannot be read or parsed is reported at its path and line, and the contracts
  that need it could not be decided (exit 2), never kept.
    tests/reliability/test_source_tree.py::test_syntax_error_in_a_file_a_direct_contract_reads
    tests/reliability/test_source_tree.py::test_syntax_error_in_a_file_a_chain_contract_reaches_is_located
    tests/reliability/test_source_tree.py::test_syntax_error_anywhere_stops_a_contract_about_the_whole_graph
    tests/reliability/test_source_tree.py::test_file_that_is_not_utf8_and_declares_no_encoding
    tests/reliability/test_source_tree.py::test_bad_byte_after_the_first_two_lines_is_located
    tests/reliability/test_source_tree.py::test_nul_byte
    tests/reliability/test_source_tree.py::test_unreadable_file_is_located_when_permissions_apply
- A `loads` contract leaves a syntax error in a function body to the graph contracts.
    test_a_syntax_error_in_a_function_body_is_left_to_the_graph_contracts
- `python -m layering` takes the working directory off the import path; the `layering`
  command (and `python -P -m layering`) never has it there.
    tests/frontdoors/test_python_m.py::test_files_named_like_the_standard_library_in_the_working_directory_are_not_run
    test_the_layering_command_never_has_the_working_directory_on_its_path
- A dotted root package inside a regular package is refused without running its
  `__init__.py`; namespace parents are fine.
    tests/reliability/test_source_tree.py::test_dotted_root_inside_a_regular_package_is_refused_without_running_it
    tests/reliability/test_source_tree.py::test_dotted_root_inside_a_namespace_package_works
- External packages are only looked up by name, never imported.
    test_static_contracts_run_none_of_the_projects_code
- `contract_types` modules are imported, in the layering process.
    tests/engine/test_importlinter_configs.py::test_contract_types_of_the_users_own
    tests/engine/test_importlinter_configs.py::test_a_contract_type_that_cannot_be_loaded_is_a_located_error
- `check --no-probe` runs the static contracts only; probes (and `audit`) import the modules.
    test_static_contracts_run_none_of_the_projects_code
    tests/engine/test_probe_contract.py::test_no_probe_and_probe_only
    tests/engine/test_audit_command.py::test_agreement_exits_0
- Each probe runs in a child interpreter, never in the layering process: `<python> -I -B
  probe_child.py` or a fork of a server started so (isolated mode: no PYTHON* variables, no
  user site-packages, neither the working nor the script directory on sys.path; no .pyc
  written); each child in a process group of its own.
    test_a_probe_runs_in_an_isolated_child_with_a_clean_environment
- probe_child.py uses the standard library only and is run by its path.
    tests/adapters/test_probe_runner.py::test_the_child_file_imports_nothing_of_layering
    tests/engine/test_probe_contract.py::test_probes_run_in_the_interpreter_that_python_names
    test_a_configured_python_is_run_for_its_version_then_as_the_probe_child
- A configured `python` is run once with -I -c for its version (3.10 or newer), then as the
  probe child.
    test_a_configured_python_is_run_for_its_version_then_as_the_probe_child
    tests/adapters/test_probe_runner.py::test_an_interpreter_that_cannot_run_probes_is_refused_with_the_reason
    tests/engine/test_probe_contract.py::test_a_python_option_that_cannot_run_probes_is_refused_before_any_probe
- The child's environment is clean: PATH, LANG and LC_ALL=C.UTF-8, TMPDIR/TEMP/TMP if set,
  and nothing else (no tokens, no PYTHONPATH, no settings-module switches).
    test_a_probe_runs_in_an_isolated_child_with_a_clean_environment
    tests/adapters/test_probe_runner.py::test_env_reaches_the_child_and_nothing_else_of_ours_does
- `env` adds only its variables: names checked, PYTHON* refused, values TOML strings, passed
  directly (never through a shell), shown in the report header (text and JSON).
    test_a_probe_runs_in_an_isolated_child_with_a_clean_environment
    test_a_probe_contract_with_a_name_that_is_not_one_starts_no_child
    tests/engine/test_probe_contract.py::test_bad_env_and_setup_are_located_errors
    tests/engine/test_probe_contract.py::test_env_reaches_the_child_and_is_shown_in_the_header
- `setup` entries are checked as dotted identifiers, imported and called, never eval'd.
    tests/engine/test_probe_contract.py::test_bad_env_and_setup_are_located_errors
    tests/engine/test_probe_contract.py::test_what_setup_loads_is_not_blamed_on_the_probed_module
    test_a_probe_contract_with_a_name_that_is_not_one_starts_no_child
    test_layering_calls_no_eval_exec_or_compile_at_run_time
- No shell anywhere; every module name, stub, setup entry and forbidden pattern is validated
  before any child starts; the job reaches the child as marshal data on a pipe, never as
  command-line text.
    test_every_process_layering_starts_is_the_interpreter_without_a_shell
    test_no_process_of_a_run_executes_a_shell (strace)
    test_a_probe_contract_with_a_name_that_is_not_one_starts_no_child
    test_a_configured_python_is_run_for_its_version_then_as_the_probe_child
    tests/reliability/test_probe_names.py::test_text_that_is_not_a_module_name_is_a_located_configuration_error
    tests/engine/test_probe_contract.py::test_injection_in_a_module_name_is_rejected_before_any_child
    tests/adapters/test_probe_runner.py::test_names_that_are_not_dotted_never_reach_a_child
- Each child runs in its own process group with a timeout of at most 3600 s; on timeout the
  whole group is killed.
    test_a_probe_that_times_out_has_its_whole_process_group_killed
    test_a_probe_runs_in_an_isolated_child_with_a_clean_environment
    tests/engine/test_probe_contract.py::test_a_bad_timeout_or_interpreter_is_a_located_error_in_every_format
    tests/reliability/test_disturbed_runs.py::test_a_signal_while_probes_run_kills_them_and_exits_with_its_code

What is read
- The configuration, looked for from the working directory upwards, or the file named.
    tests/engine/test_discovery.py::test_each_import_linter_place_is_found_from_a_subdirectory
    tests/engine/test_discovery.py::test_a_named_file_is_the_one_read
- A symlinked directory is followed only out of the package, never the same one twice.
    tests/reliability/test_source_tree.py::test_symlinked_directory_leading_outside_the_package_is_part_of_it
    tests/reliability/test_source_tree.py::test_symlink_loops_terminate
    tests/reliability/test_source_tree.py::test_symlink_back_into_the_package_is_not_a_second_copy
- The configuration is data: names and patterns validated, options type-checked, nothing
  evaluated.
    test_configuration_text_is_never_evaluated
    tests/reliability/test_config.py::test_every_wrong_type_of_the_run_options_at_once
    tests/reliability/test_config.py::test_module_lists_of_the_wrong_type_and_bad_patterns

What is written
- Only the cache directory (`.layering_cache` beside the configuration by default, with a
  .gitignore and a CACHEDIR.TAG); reports go to stdout/stderr, no report files.
    test_a_run_writes_only_its_cache_directory
    test_no_process_of_a_run_writes_outside_the_cache_directory (strace)
    tests/reliability/test_cache_trust.py::test_a_torn_cache_gitignore_is_written_again
- And the file prune, baseline or migrate edits: a temporary file beside it, renamed over it.
    test_prune_baseline_and_migrate_write_their_file_through_a_temporary_beside_it
    tests/adapters/test_config_editor.py::test_a_failed_rename_leaves_the_file_and_no_temporary
    tests/engine/test_config_file_kept.py::test_a_symlinked_configuration_is_edited_through_the_link
- `--no-cache` or `cache_dir = false`: nothing at all is written.
    test_without_a_cache_nothing_at_all_is_written
    test_no_process_of_a_run_writes_outside_the_cache_directory (strace)
    tests/reliability/test_runs_and_cache.py::test_no_cache_writes_nothing
    tests/reliability/test_runs_and_cache.py::test_cache_disabled_in_the_configuration
- A cache directory that cannot be created or written is skipped, with one warning.
    tests/reliability/test_runs_and_cache.py::test_cache_dir_that_cannot_be_created_is_skipped_and_said_once
    tests/reliability/test_runs_and_cache.py::test_read_only_checkout
- cache_dir may not be, or hold, the configuration's directory or a source root.
    tests/reliability/test_cache_trust.py::test_a_cache_dir_that_would_cover_the_project_is_a_located_error
    test_a_cache_dir_that_holds_a_source_root_is_refused
- No link inside the cache directory is followed: it is replaced, nothing is read or written
  through it.
    tests/reliability/test_cache_trust.py::test_links_in_the_cache_directory_are_replaced_never_followed
    test_no_link_in_the_cache_directory_is_read_or_written_through
- A file saved while a run reads the package is not cached as read.
    tests/reliability/test_cache_trust.py::test_an_import_saved_during_a_first_run_is_not_cached_as_absent
    tests/reliability/test_cache_trust.py::test_an_import_saved_while_a_warm_run_reads_an_edit_is_not_cached_as_absent
    tests/reliability/test_cache_trust.py::test_lines_moved_while_a_run_reads_them_are_read_again
- Every cache file carries its format, its payload's length and an XXH3-128 checksum.
    test_a_cache_file_carries_its_format_length_and_xxh3_128_checksum
- A cache file cut short, edited, foreign or over 1 GiB is never decoded: discarded and
  rebuilt, with a warning.
    tests/reliability/test_cache_trust.py::test_five_bytes_of_garbage_in_a_cache_file_are_a_warning_not_a_crash
    tests/reliability/test_cache_trust.py::test_a_cache_file_beyond_any_cache_size_is_not_read
    tests/reliability/test_cache_trust.py::test_a_hand_edited_results_file_does_not_turn_broken_into_kept
    tests/reliability/test_runs_and_cache.py::test_damaged_cache_is_ignored_and_rebuilt
- A cache of another version of layering, or of other code of it, is not used.
    tests/engine/test_result_cache.py::test_tool_version_change_misses_the_cache
    test_a_cache_written_by_other_code_of_layering_is_not_used
- The checksum is no signature: a forged entry is believed (the cache is trusted input).
    tests/reliability/test_cache_trust.py::test_verify_cache_names_a_forged_verdict
    test_a_cache_written_by_other_code_of_layering_is_not_used
- `--verify-cache` checks every entry, prints the report of a run without the cache, and
  exits 2 naming each entry that disagrees.
    tests/reliability/test_cache_trust.py::test_verify_cache_passes_a_cache_true_to_the_files
    tests/reliability/test_cache_trust.py::test_verify_cache_names_a_forged_verdict
    tests/reliability/test_cache_trust.py::test_verify_cache_names_a_forged_reading_and_file_state

What it never does
- No network access.
    test_a_run_opens_no_socket
    test_no_process_of_a_static_run_opens_a_socket (strace)
    test_layerings_source_holds_no_eval_shell_pickle_or_network_module
- No eval/exec of configuration text, report data or cache contents.
    test_configuration_text_is_never_evaluated
    test_cache_contents_are_never_executed
    test_layering_calls_no_eval_exec_or_compile_at_run_time
    test_layerings_source_holds_no_eval_shell_pickle_or_network_module
- No shell commands.
    test_every_process_layering_starts_is_the_interpreter_without_a_shell
    test_no_process_of_a_run_executes_a_shell (strace)
    test_layerings_source_holds_no_eval_shell_pickle_or_network_module
- No writes outside the cache directory (none with --no-cache), but the edited configuration.
    (What is written, above.)
- No import of the project's modules in the layering process (but contract_types).
    test_static_contracts_run_none_of_the_projects_code
    test_a_probe_runs_in_an_isolated_child_with_a_clean_environment

Not tested here: the Windows variables of the child's environment (SYSTEMROOT, SYSTEMDRIVE,
WINDIR); this file runs on POSIX only.
"""

from __future__ import annotations

import ast
import codecs
import functools
import hashlib
import json
import marshal
import os
import re
import shutil
import signal
import stat
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

import pytest
from cache_support import read_cache_file, results_file, write_cache_file

import layering
from layering.adapters import probe_runner

pytestmark = pytest.mark.skipif(
    os.name != "posix", reason="process groups, /proc and file modes of POSIX"
)

LAYERING_DIR = os.path.dirname(os.path.abspath(layering.__file__))
CACHE = ".layering_cache"


# --------------------------------------------------------------------------- running layering


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def environment(top: Path, **extra: str) -> dict[str, str]:
    """A user's environment, with its home and temporary directories inside `top` (so a snapshot
    of `top` sees whatever is written there) and no PYTHONPATH."""
    (top / "home").mkdir(exist_ok=True)
    (top / "tmp").mkdir(exist_ok=True)
    dropped = (
        "NO_COLOR",
        "PYTHONPATH",
        "PYTHONSAFEPATH",
        "TEMP",
        "TMP",
        "XDG_CACHE_HOME",
        "PYTHONPYCACHEPREFIX",
    )
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(HOME=str(top / "home"), TMPDIR=str(top / "tmp"))
    env.update(extra)
    return env


def layering_run(
    cwd: Path,
    *args: str,
    env: dict[str, str],
    prefix: tuple[str, ...] = ("-m", "layering"),
    launcher: tuple[str, ...] = (),
) -> subprocess.CompletedProcess:
    """`python -m layering ARGS` (or `python PREFIX ARGS`) in `cwd`, checked for tracebacks."""
    result = subprocess.run(
        [*launcher, sys.executable, *prefix, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert "Traceback" not in result.stderr, result.stderr
    return result


def verdicts(output: str) -> dict[str, str]:
    return dict(re.findall(r"^\S.* \[([\w-]+)\] (KEPT|BROKEN|ERROR)$", output, re.M))


def running(pid: int) -> bool:
    """Whether `pid` still runs (a zombie waiting to be reaped does not)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (FileNotFoundError, ProcessLookupError):
        return False


def gone_within(pids: list[int], seconds: float) -> list[int]:
    """Those of `pids` still running after `seconds` (each killed then, not to outlive the
    test)."""
    deadline = time.monotonic() + seconds
    while any(running(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    alive = [pid for pid in pids if running(pid)]
    for pid in alive:
        os.kill(pid, signal.SIGKILL)
    return alive


# --------------------------------------------------------------------------- the files of a tree


def snapshot(top: Path) -> dict[str, tuple]:
    """Every path below `top` (not following links) with what a write would change: kind, mode,
    size, modification and change times, inode, and a file's content digest or a link's target."""
    found: dict[str, tuple] = {}
    for directory, dirnames, filenames in os.walk(top):
        for name in (
            [".", *dirnames, *filenames] if directory == str(top) else [*dirnames, *filenames]
        ):
            path = os.path.normpath(os.path.join(directory, name))
            status = os.lstat(path)
            times = (status.st_mode, status.st_mtime_ns, status.st_ctime_ns, status.st_ino)
            if stat.S_ISLNK(status.st_mode):
                found[os.path.relpath(path, top)] = ("link", os.readlink(path), *times)
            elif stat.S_ISDIR(status.st_mode):
                found[os.path.relpath(path, top)] = ("dir", *times)
            else:
                with open(path, "rb") as handle:
                    digest = hashlib.sha256(handle.read()).hexdigest()
                found[os.path.relpath(path, top)] = ("file", status.st_size, digest, *times)
    return found


def changes(before: dict[str, tuple], after: dict[str, tuple]) -> list[str]:
    return sorted(
        path for path in before.keys() | after.keys() if before.get(path) != after.get(path)
    )


def outside(paths: list[str], cache: str, before: dict[str, tuple]) -> list[str]:
    """The changed `paths` that are not the cache directory or below it; the directory that holds
    the cache counts as inside while the cache directory is made in it (its times change then)."""
    made = cache not in before
    return [
        path
        for path in paths
        if path != cache
        and not path.startswith(cache + os.sep)
        and not (made and path == os.path.dirname(cache))
    ]


# --------------------------------------------------------------------------- the layering process,
# audited

AUDITED = r"""
import json, os, sys
log = os.open(sys.argv.pop(1), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
own = sys.argv.pop(1) + os.sep
del sys.path[0]  # what `python -m layering` drops: the working directory
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
MUTATIONS = {"os.rename": 2, "os.remove": 1, "os.rmdir": 1, "os.mkdir": 1, "os.symlink": 2, "os.link": 2,
             "os.chmod": 1, "os.chown": 1, "os.truncate": 1, "os.utime": 1, "shutil.rmtree": 1,
             "shutil.copyfile": 2, "shutil.copytree": 2, "shutil.move": 2}
STARTS = ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.startfile", "pty.spawn", "os.fork")
busy = []

def text(value):
    if isinstance(value, (bytes, str, os.PathLike)):
        return os.path.abspath(os.fsdecode(value))
    return None

def note(kind, *values):
    os.write(log, (json.dumps([kind, os.getpid(), *values], default=repr) + "\n").encode())

def hook(event, args):
    if busy:
        return
    busy.append(1)
    try:
        if event == "open":
            path, mode, flags = args
            writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (isinstance(flags, int) and flags & WRITE_FLAGS)
            if writes and text(path) is not None:
                note("write", event, [text(path)])
        elif event in MUTATIONS:
            note("write", event, [text(a) for a in args[: MUTATIONS[event]] if text(a) is not None])
        elif event.startswith(("socket.", "http.", "urllib.", "ftplib.", "smtplib.", "ssl.")):
            note("network", event, [repr(a)[:200] for a in args])
        elif event.startswith(STARTS):
            note("start", event, [a if isinstance(a, (str, list, tuple, type(None))) else repr(a) for a in args[:2]])
        elif event in ("exec", "compile"):
            caller = sys._getframe(1).f_code.co_filename
            if os.path.abspath(caller).startswith(own):
                note("code", event, caller)
    finally:
        busy.pop()

sys.addaudithook(hook)
sys.argv[0] = "layering"
import runpy
runpy.run_module("layering", run_name="__main__", alter_sys=True)
"""
"""`python -c AUDITED LOG LAYERING_DIR ARGS`: `layering ARGS`, run as `python -m layering` runs it,
with an audit hook that records in LOG, as JSON lines, what the layering process (and the cache
builder it forks) does: each file it opens for writing or changes ("write"), each network event
("network"), each process it starts ("start"), and each `exec`/`compile` called by layering's
own code ("code")."""


class Audited(NamedTuple):
    result: subprocess.CompletedProcess
    events: list[list]

    def of(self, kind: str) -> list[list]:
        return [event for event in self.events if event[0] == kind]


def audited(cwd: Path, log: Path, *args: str, env: dict[str, str]) -> Audited:
    result = layering_run(
        cwd, log.as_posix(), LAYERING_DIR, *args, env=env, prefix=("-c", AUDITED)
    )
    lines = log.read_text().splitlines() if log.exists() else []
    log.unlink(missing_ok=True)
    return Audited(result, [json.loads(line) for line in lines])


# --------------------------------------------------------------------------- every process, traced

STRACE_CALLS = (
    "execve,open,openat,creat,rename,renameat,renameat2,unlink,unlinkat,mkdir,mkdirat,rmdir,link,linkat,"
    "symlink,symlinkat,truncate,ftruncate,chmod,fchmod,fchmodat,chown,fchown,lchown,fchownat,utimensat,utimes,"
    "mknod,mknodat,socket,connect,bind,sendto,sendmsg,listen"
)

# For each call that changes a file: the arguments that name what it changes, as ("path", i)
# relative to the working directory, ("at", d, i) relative to the directory descriptor d (the
# descriptor's own file when i is NULL), or ("fd", i) the descriptor's file.
CHANGED = {
    "creat": [("path", 0)],
    "rename": [("path", 0), ("path", 1)],
    "renameat": [("at", 0, 1), ("at", 2, 3)],
    "renameat2": [("at", 0, 1), ("at", 2, 3)],
    "unlink": [("path", 0)],
    "unlinkat": [("at", 0, 1)],
    "mkdir": [("path", 0)],
    "mkdirat": [("at", 0, 1)],
    "rmdir": [("path", 0)],
    "link": [("path", 1)],
    "linkat": [("at", 2, 3)],
    "symlink": [("path", 1)],
    "symlinkat": [("at", 1, 2)],
    "truncate": [("path", 0)],
    "ftruncate": [("fd", 0)],
    "chmod": [("path", 0)],
    "fchmod": [("fd", 0)],
    "fchmodat": [("at", 0, 1)],
    "chown": [("path", 0)],
    "lchown": [("path", 0)],
    "fchown": [("fd", 0)],
    "fchownat": [("at", 0, 1)],
    "utimensat": [("at", 0, 1)],
    "utimes": [("path", 0)],
    "mknod": [("path", 0)],
    "mknodat": [("at", 0, 1)],
}
OPEN_WRITES = ("O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND")
LINE = re.compile(r"^(?P<name>\w+)\((?P<args>.*)\)\s+=\s+(?P<result>-?\d+|\?)")


class Call(NamedTuple):
    pid: str
    name: str
    args: list[str]
    line: str


@functools.cache
def strace_missing() -> str | None:
    """Why `strace` cannot watch a run here, or None when it can."""
    strace = shutil.which("strace")
    if strace is None:
        return "strace is not installed"
    try:
        tried = subprocess.run(
            [strace, "-f", "--seccomp-bpf", "-qq", "-o", os.devnull, sys.executable, "-c", "pass"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"strace does not run: {error}"
    if tried.returncode != 0:
        return f"strace cannot trace here: {(tried.stderr.strip().splitlines() or ['?'])[-1]}"
    return None


def _split(args: str) -> list[str]:
    """strace's argument text split at its top-level commas (not inside quotes, brackets,
    braces)."""
    parts, depth, quoted, current, i = [], 0, False, [], 0
    while i < len(args):
        c = args[i]
        if quoted:
            current.append(c)
            if c == "\\":
                current.append(args[i + 1])
                i += 1
            elif c == '"':
                quoted = False
        elif c == '"':
            quoted = True
            current.append(c)
        elif c in "[{(<":
            depth += 1
            current.append(c)
        elif c in "]})>":
            depth -= 1
            current.append(c)
        elif c == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(c)
        i += 1
    parts.append("".join(current).strip())
    return parts


def _string(arg: str) -> str | None:
    """The text of a quoted strace string argument (C escapes undone), None for NULL and others."""
    match = re.fullmatch(r'"((?:[^"\\]|\\.)*)"(\.\.\.)?', arg)
    if match is None:
        return None
    return os.fsdecode(codecs.escape_decode(match.group(1).encode("latin-1"))[0])


def _descriptor(arg: str) -> str | None:
    """The file a descriptor argument names, with `-y` (`3</path>`, `AT_FDCWD</path>`)."""
    match = re.fullmatch(r"(?:\d+|AT_FDCWD)<(.*)>", arg)
    return match.group(1) if match else None


def traced(
    cwd: Path, trace_dir: Path, *args: str, env: dict[str, str]
) -> tuple[subprocess.CompletedProcess, list[Call]]:
    """`python -m layering ARGS` under `strace -f`: its result, and the calls of every process."""
    trace_dir.mkdir(parents=True, exist_ok=True)
    for old in trace_dir.iterdir():
        old.unlink()
    launcher = (
        "strace",
        "-ff",
        # Only the calls traced stop a process (a seccomp filter picks them): the run goes at
        # nearly its own speed, and the trace holds the same calls.
        "--seccomp-bpf",
        "-qq",
        "-y",
        "-s",
        "4096",
        "-e",
        f"trace={STRACE_CALLS}",
        "-o",
        str(trace_dir / "call"),
    )
    result = layering_run(cwd, *args, env=env, launcher=launcher)
    calls = []
    for path in sorted(trace_dir.iterdir()):
        pid = path.suffix.lstrip(".")
        for line in path.read_text(errors="replace").splitlines():
            match = LINE.match(line)
            if match and not match.group("result").startswith("-"):
                calls.append(Call(pid, match.group("name"), _split(match.group("args")), line))
    return result, calls


def changed_paths(call: Call, cwd: Path) -> list[str]:
    """The files a successful call opened for writing or changed."""
    if call.name in ("open", "openat"):
        flags = call.args[1 if call.name == "open" else 2]
        if not any(flag in flags for flag in OPEN_WRITES):
            return []
        spec = [("path", 0)] if call.name == "open" else [("at", 0, 1)]
    else:
        spec = CHANGED.get(call.name, [])
    found = []
    for item in spec:
        if item[0] == "fd":
            found.append(_descriptor(call.args[item[1]]) or "?")
            continue
        name = _string(call.args[item[-1]])
        if name is None and item[0] == "at":
            found.append(_descriptor(call.args[item[1]]) or "?")
            continue
        base = _descriptor(call.args[item[1]]) if item[0] == "at" else None
        found.append(os.path.normpath(os.path.join(base or str(cwd), name or "?")))
    return found


# --------------------------------------------------------------------------- a package, marked

MARKED = {
    "src/shop/__init__.py": "",
    "src/shop/api/__init__.py": "",
    "src/shop/api/views.py": "from shop.domain import orders\nimport extpkg.sub\norders.helper()\n",
    "src/shop/domain/__init__.py": "",
    "src/shop/domain/orders.py": "import shop.db.models\nfrom shop.domain import _rules\n\ndef "
    "helper():\n    pass\n",
    "src/shop/domain/_rules.py": "",
    "src/shop/db/__init__.py": "",
    "src/shop/db/models.py": "",
    "src/shop/plugins/__init__.py": "",
    "src/shop/plugins/alpha/__init__.py": "",
    "src/shop/plugins/alpha/core.py": "from shop.plugins.alpha import util\n",
    "src/shop/plugins/alpha/util.py": "",
    "src/shop/plugins/beta/__init__.py": "",
    "src/shop/plugins/beta/core.py": "",
    "ext/extpkg/__init__.py": "",
    "ext/extpkg/sub.py": "",
}
"""A package whose every module (and the external package `extpkg`, on PYTHONPATH) records its
import in a marker file, so that a run which imported any of them leaves a trace."""

STATIC_CONTRACTS = """\
root_packages = ["shop"]
source_roots = ["src"]
{extra}
[[contracts]]
id = "api-no-db"
type = "forbidden"
source_modules = ["shop.api"]
forbidden_modules = ["shop.db"]

[[contracts]]
id = "api-no-helper"
type = "forbidden"
source_modules = ["shop.api"]
forbidden_names = [{{ module = "shop.domain.orders", names = ["helper"] }}]

[[contracts]]
id = "api-no-extpkg"
type = "forbidden"
source_modules = ["shop.api"]
forbidden_modules = ["extpkg"]

[[contracts]]
id = "api-no-extpkg-sub"
type = "forbidden"
source_modules = ["shop.api"]
forbidden_modules = ["extpkg.sub"]
allow_indirect_imports = true

[[contracts]]
id = "models-leaf"
type = "leaf"
modules = ["shop.db.models"]
within = ["*"]

[[contracts]]
id = "plugins-contained"
type = "contained"
packages = "shop.plugins.*"
within = "shop.plugins"

[[contracts]]
id = "views-loads"
type = "loads"
modules = ["shop.api.views"]
forbidden = ["shop.db"]

[[contracts]]
id = "layers"
type = "layers"
layers = ["shop.api", "shop.domain", "shop.db"]

[[contracts]]
id = "independent-plugins"
type = "independence"
modules = ["shop.plugins.alpha", "shop.plugins.beta"]

[[contracts]]
id = "protected-db"
type = "protected"
protected_modules = ["shop.db"]
allowed_importers = ["shop.domain"]

[[contracts]]
id = "acyclic"
type = "acyclic_siblings"
ancestors = ["shop"]

[[contracts]]
id = "names-from-home"
type = "defining_module"
{private_modules}
[[contracts]]
id = "probe"
type = "probe"
modules = ["shop.api.views"]
forbidden = ["shop.db"]
stub = ["extpkg"]
"""

PRIVATE_MODULES = '\n[[contracts]]\nid = "private"\ntype = "private_modules"\n'

STATIC_VERDICTS = {
    "api-no-db": "BROKEN",
    "api-no-helper": "BROKEN",
    "api-no-extpkg": "BROKEN",
    "api-no-extpkg-sub": "BROKEN",
    "models-leaf": "KEPT",
    "plugins-contained": "KEPT",
    "views-loads": "BROKEN",
    "layers": "KEPT",
    "independent-plugins": "KEPT",
    "protected-db": "KEPT",
    "acyclic": "KEPT",
    "names-from-home": "KEPT",
}


def has_private_modules() -> bool:
    try:
        import importlinter.contracts.private_modules  # noqa: F401
    except ImportError:
        return False
    return True


def marked_project(top: Path, extra: str = "") -> tuple[Path, Path, dict[str, str]]:
    """The marked package under `top/project`: its root, the marker file, and the environment of
    its runs (the external package on PYTHONPATH)."""
    root, marker = top / "project", top / "imported.txt"
    mark = f"open({str(marker)!r}, 'a').write(__name__ + '\\n')\n"
    write(root, {name: mark + text for name, text in MARKED.items()})
    private = PRIVATE_MODULES if has_private_modules() else ""
    write(root, {"contracts.toml": STATIC_CONTRACTS.format(extra=extra, private_modules=private)})
    return root, marker, environment(top, PYTHONPATH=str(root / "ext"))


# =========================================================================== what runs


@pytest.mark.parametrize(
    "extra",
    ["", "include_external_packages = true\n"],
    ids=["externals-added-by-layering", "include_external_packages"],
)
def test_static_contracts_run_none_of_the_projects_code(tmp_path, extra):
    """SECURITY.md: "`forbidden`, `leaf`, `contained`, `loads`, and import-linter's contract types
    (`layers`, `independence`, `protected`, `acyclic_siblings`) are decided from the source text
    alone [...] Nothing of the project is imported, executed, or evaluated." "For a top-level
    package this imports nothing." "External packages are only looked up by name [...]: nothing is
    imported." "Only configurations that name such a type [contract_types] do this."

    Every module of the package and of an installed external package writes a marker when
    imported; every static contract type is decided (cold cache, warm cache, no cache), and
    explain, graph, baseline --dry-run and prune read the same graph: no marker. The same package
    probed does write it, so the marker would show an import."""
    root, marker, env = marked_project(tmp_path, extra)
    runs = [
        ("check", "--no-probe"),
        ("check", "--no-probe"),
        ("check", "--no-probe", "--no-cache"),
        ("check", "--no-probe", "--format", "json"),
        ("explain", "shop.api", "shop.db"),
        ("graph",),
        ("graph", "--format", "json"),
        ("baseline", "--no-probe", "--dry-run"),
        ("prune", "--no-probe"),
    ]
    for args in runs:
        result = layering_run(root, *args, env=env)
        assert not marker.exists(), (
            f"layering {' '.join(args)} imported {marker.read_text().split()}"
        )
        if args[0] == "check" and "json" not in args:
            expected = dict(
                STATIC_VERDICTS, **({"private": "KEPT"} if has_private_modules() else {})
            )
            assert (result.returncode, verdicts(result.stdout)) == (1, expected), (
                result.stdout + result.stderr
            )
            assert "1 probe contract skipped" in result.stdout
    probed = layering_run(root, "check", "--probe-only", env=env)
    assert verdicts(probed.stdout) == {"probe": "BROKEN"}, probed.stdout + probed.stderr
    # The marker works: a probe of the same package imports the module, and it is written.
    assert "shop.api.views" in marker.read_text().split()


def test_a_syntax_error_in_a_function_body_is_left_to_the_graph_contracts(tmp_path):
    """SECURITY.md: "A `loads` contract parses only a file's top-level statements that can import,
    never function bodies: a syntax error inside a function body, which keeps the module from
    importing at all, is left to the graph contracts, the probe and the tests." """
    root = tmp_path / "project"
    write(
        root,
        {
            "src/app/__init__.py": "",
            "src/app/a.py": "import app.heavy\n\ndef f():\n    x = (\n",
            "src/app/heavy.py": "",
            "contracts.toml": 'root_packages = ["app"]\nsource_roots = ["src"]\ncache_dir = '
            "false\n"
            '\n[[contracts]]\nid = "loads"\ntype = "loads"\nmodules = ["app.a"]\nforbidden = '
            '["app.heavy"]\n'
            '\n[[contracts]]\nid = "graph"\ntype = "forbidden"\nsource_modules = '
            '["app.a"]\nforbidden_modules = ["app.heavy"]\n',
        },
    )
    result = layering_run(root, "check", env=environment(tmp_path))
    assert result.returncode == 2, result.stdout + result.stderr
    assert verdicts(result.stdout) == {"loads": "BROKEN", "graph": "ERROR"}
    assert "src/app/a.py:1: LY026 importing app.a loads app.heavy" in result.stdout
    assert "src/app/a.py:4: LY040 syntax error" in result.stdout, result.stdout


@pytest.mark.parametrize("how", ["layering command", "python -P -m layering"])
def test_the_layering_command_never_has_the_working_directory_on_its_path(tmp_path, how):
    """SECURITY.md: "the `layering` command never has it [the working directory] there. (Python's
    own start-up for `-m` comes before layering runs: `python -P -m layering` (Python 3.11+) and
    the
    `layering` command leave the working directory off the path from the start.)"

    The working directory holds files named like modules layering imports (of the standard
    library, grimp, xxhash), each writing a marker when imported: none runs."""
    if how == "layering command":
        command = [str(Path(sys.executable).parent / "layering")]
        if not os.access(command[0], os.X_OK):
            pytest.skip(f"no layering command beside {sys.executable}")
    else:
        if sys.version_info < (3, 11):
            pytest.skip("-P is Python 3.11+")
        command = [sys.executable, "-P", "-m", "layering"]
    root, marker = tmp_path / "project", tmp_path / "ran"
    write(
        root,
        {
            "app/__init__.py": "",
            "app/a.py": "from app import b\n",
            "app/b.py": "",
            "contracts.toml": 'root_packages = ["app"]\ncache_dir = false\n[[contracts]]\nid = '
            '"f"\ntype = "forbidden"\n'
            'source_modules = ["app.a"]\nforbidden_modules = ["app.b"]\n',
        },
    )
    for name in (
        "typing",
        "argparse",
        "json",
        "enum",
        "dataclasses",
        "tomllib",
        "hashlib",
        "subprocess",
        "re",
        "ast",
        "grimp",
        "xxhash",
    ):
        write(root, {f"{name}.py": f"open({str(marker)!r}, 'a').write({name!r} + '\\n')\n"})
    result = subprocess.run(
        [*command, "check"],
        cwd=root,
        env=environment(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert not marker.exists(), f"ran: {marker.read_text().split()}"
    assert result.returncode == 1, result.stdout + result.stderr
    assert "app/a.py:1: LY001 app.a imports app.b" in result.stdout, result.stdout


# --------------------------------------------------------------------------- probes

SPY = """\
import json, os, sys
report = {{
    "pid": os.getpid(), "ppid": os.getppid(), "pgid": os.getpgid(0),
    "isolated": sys.flags.isolated, "ignore_environment": sys.flags.ignore_environment,
    "no_user_site": sys.flags.no_user_site, "dont_write_bytecode": sys.flags.dont_write_bytecode,
    "path": sys.path, "environ": dict(os.environ),
    "layering": sorted(name for name in sys.modules if name.split(".")[0] == "layering"),
}}
with open({report!r}, "w") as handle:
    json.dump(report, handle)
import app.helper
"""

SPAWN_ONLY = """\
import runpy, sys
del sys.path[0]
from layering.adapters import probe_runner
probe_runner._isolation_mode = lambda isolation: "spawn"
sys.argv[0] = "layering"
runpy.run_module("layering", run_name="__main__", alter_sys=True)
"""
"""`layering ARGS` with every probe in a fresh interpreter (the way without a fork server)."""

SHELL_WORDS = "$(touch {marker}) `touch {marker}`; touch {marker} && echo done"
"""An `env` value a shell would run (quotes balanced: a shell that cannot parse it runs none of
it)."""


def probe_project(root: Path, module: str, text: str, **options: str) -> str:
    """A package whose module `app.MODULE` is `text`, and a probe contract of it with `options`
    (TOML values; `forbidden` replaces the default); returns the configuration's text."""
    options = {"modules": f'["app.{module}"]', "forbidden": '["app.heavy"]', **options}
    config = (
        'root_packages = ["app"]\nsource_roots = ["src"]\ncache_dir = false\n\n[[contracts]]\n'
        'id = "probe"\ntype = "probe"\n'
        + "".join(f"{key} = {value}\n" for key, value in options.items())
    )
    files = {"src/app/__init__.py": "", "src/app/helper.py": "", "src/app/heavy.py": ""}
    write(root, {**files, f"src/app/{module}.py": text, "contracts.toml": config})
    return config


@pytest.mark.parametrize("mode", ["fork server", "fresh interpreter"])
def test_a_probe_runs_in_an_isolated_child_with_a_clean_environment(tmp_path, mode):
    """SECURITY.md: "Each probe runs in a child interpreter, never in the `layering` process:
    `<python> -I -B probe_child.py` (or a fork of a server started the same way, on POSIX)."
    "`-I` is isolated mode: `PYTHON*` environment variables are ignored, and neither the user's
    site-packages nor the current or script directory is put on `sys.path`; `-B` writes no `.pyc`
    files into the project." "The child gets a clean environment, not a copy of yours: `PATH`,
    `LANG=C.UTF-8`, `LC_ALL=C.UTF-8`, the temporary-directory variables (`TMPDIR`, `TEMP`, `TMP`)
    if they are set [...] Nothing else: no tokens or credentials from the environment, no
    `PYTHONPATH`, no settings-module switches." "A probe contract's `env` table adds variables to
    that environment, and only those [...] passed to the child process directly, never through a
    shell." "Each child runs in its own process group." """
    root, report, marker = tmp_path / "project", tmp_path / "spy.json", tmp_path / "shell-ran"
    words = SHELL_WORDS.format(marker=marker)
    probe_project(
        root, "spy", SPY.format(report=str(report)), env=f"{{ APP_MODE = {json.dumps(words)} }}"
    )
    planted = tmp_path / "planted"
    planted.mkdir()
    env = environment(
        tmp_path,
        LAYERING_TEST_TOKEN="secret-token",
        AWS_SECRET_ACCESS_KEY="secret-key",
        DJANGO_SETTINGS_MODULE="mysite.settings",
        PYTHONPATH=str(planted),
        PYTHONWARNINGS="error",
        TEMP=str(tmp_path / "tmp"),
    )
    prefix = ("-c", SPAWN_ONLY) if mode == "fresh interpreter" else ("-m", "layering")
    process = subprocess.Popen(
        [sys.executable, *prefix, "check"],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0 and verdicts(out) == {"probe": "KEPT"}, out + err
    seen = json.loads(report.read_text())
    # Not the layering process, nor any process that imported layering.
    assert seen["pid"] != process.pid and seen["layering"] == [], seen
    # The way this test names: a fresh interpreter is the run's own child, a fork is not.
    assert (seen["ppid"] == process.pid) == (mode == "fresh interpreter"), seen
    # A process group of its own, not the run's.
    assert seen["pgid"] == seen["pid"] != os.getpgid(0), seen
    assert (
        seen["isolated"],
        seen["ignore_environment"],
        seen["no_user_site"],
        seen["dont_write_bytecode"],
    ) == (1, 1, 1, 1), seen
    assert seen["environ"] == {
        "PATH": env["PATH"],
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TMPDIR": env["TMPDIR"],
        "TEMP": env["TEMP"],
        "APP_MODE": words,
    }, seen["environ"]
    assert seen["path"][0] == str(root / "src"), seen["path"]
    for absent in ("", str(root), str(planted), os.path.dirname(probe_runner.CHILD_SCRIPT)):
        assert absent not in seen["path"], (absent, seen["path"])
    assert not marker.exists()  # the env value reached the child verbatim, and no shell read it
    assert not [
        path for path in root.rglob("*") if path.name == "__pycache__" or path.suffix == ".pyc"
    ]


def is_child_script(path: str) -> bool:
    """Whether `path` is layering's probe child script, by its path: the copy the `layering`
    command runs (installed in the environment) need not be the one this test imported (the
    checkout, which `python -m pytest` puts first on the path)."""
    tail = os.path.join("layering", "adapters", os.path.basename(probe_runner.CHILD_SCRIPT))
    return os.path.isabs(path) and path.endswith(os.sep + tail) and os.path.isfile(path)


def test_a_configured_python_is_run_for_its_version_then_as_the_probe_child(tmp_path):
    """SECURITY.md: "a configuration that sets `python` makes `layering` run that program, once
    with `-I -c` to read its Python version (it must be 3.10 or newer) and then as the probe
    child." "`probe_child.py` [...] is run by its path" "the job reaches the child as `marshal`
    data on a pipe [...] never as command-line text."

    The configured program logs its arguments and runs the real interpreter: it is asked once,
    with -I -c, then started as `-I -B probe_child.py` (a fork server adds `serve`), and no
    argument names a module of the job."""
    root, log = tmp_path / "project", tmp_path / "argv.log"
    wrapper = root / "bin" / "python"
    write(
        root,
        {
            "bin/python": f"#!/bin/sh\nprintf '%s\\037' \"$@\" >> {log}\nprintf '\\n' >> "
            f'{log}\nexec {sys.executable} "$@"\n'
        },
    )
    wrapper.chmod(0o755)
    probe_project(root, "spy", "import app.helper\n", python='"bin/python"')
    result = layering_run(root, "check", env=environment(tmp_path))
    assert result.returncode == 0 and verdicts(result.stdout) == {"probe": "KEPT"}, (
        result.stdout + result.stderr
    )
    calls = [line.rstrip("\x1f").split("\x1f") for line in log.read_text().splitlines()]
    asked = [call for call in calls if "-c" in call]
    assert (
        len(asked) == 1 and calls[0] == asked[0] and asked[0][0] == "-I" and asked[0][-2] == "-c"
    ), calls
    children = calls[1:]
    assert children, calls
    for call in children:
        assert (
            call[:2] == ["-I", "-B"] and is_child_script(call[2]) and call[3:] in ([], ["serve"])
        ), call
        assert not any("app" in argument for argument in call), call


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads process states from /proc")
@pytest.mark.parametrize("mode", ["fork server", "fresh interpreter"])
def test_a_probe_that_times_out_has_its_whole_process_group_killed(tmp_path, mode):
    """SECURITY.md: "Each child runs in its own process group with a timeout (at most 3600 s); on
    timeout the whole group is killed."

    The probed module starts a helper process (in the probe's process group, as any process it
    starts) and hangs: once the timeout ends the probe, neither the probe child nor its helper
    runs, and the run ends."""
    root, pids = tmp_path / "project", tmp_path / "pids"
    sleeper = (
        "import os, subprocess, sys, time\n"
        "helper = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n"
        f"with open({str(pids)!r}, 'w') as handle:\n"
        "    handle.write(f'{os.getpid()} {helper.pid}')\n"
        "time.sleep(600)\n"
    )
    probe_project(root, "sleeper", sleeper, timeout="3")
    prefix = ("-c", SPAWN_ONLY) if mode == "fresh interpreter" else ("-m", "layering")
    command = [sys.executable, *prefix, "check"]
    env = environment(tmp_path)
    try:
        result = subprocess.run(
            command, cwd=root, env=env, capture_output=True, text=True, timeout=60
        )
    except subprocess.TimeoutExpired:
        result = None
    finally:
        started = [int(pid) for pid in pids.read_text().split()] if pids.exists() else []
        alive = gone_within(started, 2)
    assert result is not None, "the run did not end within 60 s of a probe whose timeout is 3 s"
    assert result.returncode == 2, result.stdout + result.stderr
    assert "no result within 3 s; its process group was killed" in result.stdout, result.stdout
    assert len(started) == 2 and alive == [], (
        f"of the probe child and its helper {started}, {alive} still ran"
    )


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("modules", '["app.spy", "app.spy; touch {marker}"]'),
        ("forbidden", '["app.heavy", "app.heavy; touch {marker}"]'),
        ("forbidden", '["app.heavy", "app.*x"]'),
        ("stub", '["extpkg; touch {marker}"]'),
        ("stub", '["extpkg.*"]'),
        ("setup", '["app.helper:run; touch {marker}"]'),
        ("setup", "[\"__import__('os').system('touch {marker}')\"]"),
        ("env", '{{ "X; touch {marker}" = "1" }}'),
        ("env", '{{ PYTHONSTARTUP = "{marker}" }}'),
        ("expect_loaded", '["app.spy; touch {marker}"]'),
    ],
    ids=[
        "module",
        "forbidden",
        "forbidden-pattern",
        "stub",
        "stub-pattern",
        "setup",
        "setup-code",
        "env-name",
        "env-PYTHON",
        "expect_loaded",
    ],
)
def test_a_probe_contract_with_a_name_that_is_not_one_starts_no_child(tmp_path, option, value):
    """SECURITY.md: "Every module name, stub name, setup entry and forbidden pattern of a probe is
    validated as a dotted identifier (or a `*`/`**` module pattern) before any child starts";
    `env`:
    "each name is checked (letters, digits and `_`; `PYTHON*` names are refused [...])".

    The contract's module is fine and writes a marker when imported; one entry of one option is
    not a name: the run is a configuration error at that option's line (exit 2), and no child is
    started."""
    root, marker = tmp_path / "project", tmp_path / "ran"
    spy = f"open({str(marker)!r}, 'a').write('imported')\n"
    config = probe_project(root, "spy", spy, **{option: value.format(marker=marker)})
    line = next(
        n for n, text in enumerate(config.splitlines(), 1) if text.startswith(option + " =")
    )
    result = layering_run(root, "check", env=environment(tmp_path))
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"contracts.toml:{line}: error: contract " in result.stderr, result.stderr
    assert not marker.exists()


# =========================================================================== what is written


def test_a_run_writes_only_its_cache_directory(tmp_path):
    """SECURITY.md: "Only the cache directory [is written] [...] The cache directory is `cache_dir`
    in the configuration, by default `.layering_cache` next to the configuration file [...] It
    holds a `.gitignore` and a `CACHEDIR.TAG`"; "no writes outside the cache directory"; "Reports
    go to standard output [...] `layering` writes no report files of its own."

    A snapshot of the whole temporary tree (the project, and the home and temporary directories
    of the runs) before and after each command: only the cache directory changes, also for a
    run started in a subdirectory, with probes, and after an edit."""
    world = tmp_path / "world"
    root, marker, env = marked_project(world)
    marker.touch()  # the probes below write it: not layering's
    cache = os.path.join("project", CACHE)
    commands = [
        ("src/shop", ("check", "--no-probe")),
        (".", ("check",)),
        (".", ("check", "--format", "json")),
        (".", ("check", "--format", "sarif")),
        (".", ("check", "--format", "github")),
        (".", ("explain", "shop.api", "shop.db")),
        (".", ("graph",)),
        (".", ("graph", "--format", "dot")),
        (".", ("audit",)),
        (".", ("baseline", "--dry-run")),
        (".", ("prune",)),
        ("edit", ("check",)),
        (".", ("check", "--verify-cache")),
    ]
    for where, args in commands:
        if where == "edit":
            write(
                root,
                {
                    "src/shop/db/models.py": (root / "src/shop/db/models.py").read_text()
                    + "import json\n"
                },
            )
            where = "."
        before = snapshot(world)
        result = layering_run(root / where, *args, env=env)
        assert result.returncode in (0, 1), (args, result.stdout + result.stderr)
        after = snapshot(world)
        assert outside(changes(before, after), cache, before) in ([], ["imported.txt"]), (
            args,
            outside(changes(before, after), cache, before),
        )
        if where != "." and args == ("check", "--no-probe"):
            assert sorted(os.listdir(root / CACHE))[:2] == [".gitignore", "CACHEDIR.TAG"], (
                os.listdir(root / CACHE)
            )
            assert not (root / where / CACHE).exists()


@pytest.mark.parametrize("off", ["--no-cache", "cache_dir = false"])
def test_without_a_cache_nothing_at_all_is_written(tmp_path, off):
    """SECURITY.md: "`cache_dir = false`, or `--no-cache` on the command line, turns it off: then
    nothing at all is written." "no writes outside the cache directory (none at all with
    `--no-cache`)"; "`layering` writes no report files of its own."

    A snapshot of the whole temporary tree is the same, to the file times, after every command in
    every report format, probes included."""
    world = tmp_path / "world"
    root, marker, env = marked_project(
        world, "cache_dir = false\n" if off == "cache_dir = false" else ""
    )
    marker.touch()  # the probes below write it: not layering's
    flag = ("--no-cache",) if off == "--no-cache" else ()
    commands = [
        ("check", *flag),
        *[("check", "--format", name, *flag) for name in ("json", "sarif", "github")],
        ("explain", "shop.api", "shop.db", *flag),
        *[("graph", "--format", name, *flag) for name in ("mermaid", "dot", "json")],
    ]
    if off == "cache_dir = false":  # commands without --no-cache
        commands += [("audit",), ("baseline", "--dry-run")]
    for args in commands:
        before = snapshot(world)
        result = layering_run(root, *args, env=env)
        assert result.returncode in (0, 1), (args, result.stdout + result.stderr)
        after = snapshot(world)
        assert [path for path in changes(before, after) if path != "imported.txt"] == [], (
            args,
            changes(before, after),
        )


EDITS = {
    "prune": (
        ("prune",),
        "contracts.toml",
        {
            "contracts.toml": 'root_packages = ["app"]\ncache_dir = false\n\n[[contracts]]\nid = '
            '"f"\ntype = "forbidden"\n'
            'source_modules = ["app.a"]\nforbidden_modules = ["app.b"]\nallow = ["app.a -> '
            'app.b"]  # stale\n'
        },
    ),
    "baseline": (
        ("baseline",),
        "contracts.toml",
        {
            "contracts.toml": 'root_packages = ["app"]\ncache_dir = false\n\n[[contracts]]\nid = '
            '"f"\ntype = "forbidden"\n'
            'source_modules = ["app.b"]\nforbidden_modules = ["app.a"]\n'
        },
    ),
    "migrate": (
        ("migrate", ".importlinter", "--to", "pyproject.toml"),
        "pyproject.toml",
        {
            ".importlinter": "[importlinter]\nroot_package = "
            "app\n\n[importlinter:contract:f]\nname = F\ntype = forbidden\n"
            "source_modules = app.a\nforbidden_modules = app.c\n",
            "pyproject.toml": '[project]\nname = "app"\n',
        },
    ),
}


@pytest.mark.parametrize("command", list(EDITS))
def test_prune_baseline_and_migrate_write_their_file_through_a_temporary_beside_it(
    tmp_path, command
):
    """SECURITY.md: "Only the cache directory, and the files `layering prune`, `baseline` and
    `migrate` are asked to edit or write (atomically: a temporary file beside it, renamed over
    it)."; "no writes outside the cache directory [...] except the configuration that `prune`,
    `baseline` or `migrate` is asked to write".

    The layering process, audited, opens for writing only a new file in the edited file's
    directory and renames it over the file; the file's old inode (a hard link kept to it) still
    holds the old text in full; nothing else of the tree changes."""
    args, name, files = EDITS[command]
    world = tmp_path / "world"
    root = world / "project"
    write(
        root,
        {
            "app/__init__.py": "",
            "app/a.py": "import json\n",
            "app/b.py": "from app import a\n",
            "app/c.py": "",
            **files,
        },
    )
    env = environment(world)
    target = root / name
    old = target.read_bytes()
    keep = tmp_path / "old-inode"
    os.link(target, keep)
    before = snapshot(world)
    run = audited(root, tmp_path / "audit.log", *args, env=env)
    assert run.result.returncode == 0, run.result.stdout + run.result.stderr
    assert target.read_bytes() != old and keep.read_bytes() == old
    assert changes(before, snapshot(world)) == ["project", f"project/{name}"], changes(
        before, snapshot(world)
    )
    writes = run.of("write")
    renames = [event for event in writes if event[2] == "os.rename"]
    assert [event[3][1] for event in renames] == [str(target)], writes
    temporary = renames[0][3][0]
    assert os.path.dirname(temporary) == str(root) and temporary != str(target), temporary
    for event in writes:
        assert set(event[3]) <= {temporary, str(target)} and (
            str(target) not in event[3] or event in renames
        ), (event, writes)


def test_a_cache_dir_that_holds_a_source_root_is_refused(tmp_path):
    """SECURITY.md: "`cache_dir` may not be the configuration's directory, a source root, or a
    directory that holds either (a located error)" (here: one that holds a source root but not the
    configuration's directory); nothing is written."""
    root = tmp_path / "project"
    write(
        root,
        {
            "lib/src/app/__init__.py": "",
            "lib/src/app/a.py": "import json\n",
            "contracts.toml": 'root_packages = ["app"]\nsource_roots = ["lib/src"]\ncache_dir = '
            '"lib"\n\n[[contracts]]\n'
            'id = "f"\ntype = "forbidden"\nsource_modules = ["app.a"]\nforbidden_modules = '
            '["json"]\n',
        },
    )
    env = environment(tmp_path)
    before = snapshot(tmp_path)
    result = layering_run(root, "check", env=env)
    assert result.returncode == 2
    assert result.stderr.startswith(
        "contracts.toml:3: error: 'cache_dir' = 'lib' is the source root 'lib/src' or holds it"
    ), result.stderr
    assert changes(before, snapshot(tmp_path)) == []


# --------------------------------------------------------------------------- the cache

HI_LO = {
    "src/app/__init__.py": "",
    "src/app/hi/__init__.py": "",
    "src/app/hi/a.py": "from app import mid\n",
    "src/app/mid.py": "from app.lo import b\nX = 1\n",
    "src/app/lo/__init__.py": "",
    "src/app/lo/b.py": "Y = 2\n",
    "contracts.toml": 'root_packages = ["app"]\nsource_roots = ["src"]\n\n[[contracts]]\nid = '
    '"hi-not-lo"\n'
    'type = "forbidden"\nsource_modules = ["app.hi"]\nforbidden_modules = ["app.lo"]\n',
}
"""A package that breaks its contract through `app.mid`: a cache that said otherwise would show."""


def forge_kept(results: Path) -> None:
    entry = read_cache_file(results)
    verdicts_ = marshal.loads(entry["results"])
    verdicts_[0]["verdict"] = "kept"
    verdicts_[0]["violations"] = []
    entry["results"] = marshal.dumps(verdicts_, 4)
    write_cache_file(results, entry)


def forge_no_imports(imports: Path) -> None:
    header, modules = read_cache_file(imports)
    digest, signature, _statements = modules["app.mid"]
    modules["app.mid"] = (digest, signature, ())  # app.mid imports nothing, it says
    write_cache_file(imports, (header, modules))


def test_no_link_in_the_cache_directory_is_read_or_written_through(tmp_path):
    """SECURITY.md: "Inside the cache directory no link is followed: a link where a cache file, its
    `.gitignore` or its `grimp` directory should be is replaced, and nothing is read or written
    through it."

    Every file of a cache is moved out and replaced by a link to it; the verdicts and grimp's
    readings out there are forged (with their checksums) to say KEPT. The run prints what a run
    without the cache prints, each link is a file again, and nothing out there changed."""
    root, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    write(root, HI_LO)
    env = environment(tmp_path)
    expected = layering_run(root, "check", "--no-cache", env=env)
    assert expected.returncode == 1
    assert layering_run(root, "check", env=env).stdout == expected.stdout
    elsewhere.mkdir()
    cache = root / CACHE
    linked = []
    for path in sorted(p for p in cache.rglob("*") if p.is_file()):
        moved = elsewhere / str(path.relative_to(cache)).replace(os.sep, "--")
        shutil.move(str(path), moved)
        if path.name.startswith("results-"):
            forge_kept(moved)
        elif path.name == "imports.marshal":
            forge_no_imports(moved)
        path.symlink_to(moved)
        linked.append(path)
    assert {p.name for p in linked} >= {
        ".gitignore",
        "CACHEDIR.TAG",
        "manifest.marshal",
        "imports.marshal",
    }
    kept = snapshot(elsewhere)
    again = layering_run(root, "check", env=env)
    assert (again.returncode, again.stdout) == (1, expected.stdout), again.stdout + again.stderr
    assert changes(kept, snapshot(elsewhere)) == []
    for path in linked:
        assert not path.is_symlink(), path
    assert [p for p in cache.rglob("*") if p.is_symlink()] == []


def test_a_cache_file_carries_its_format_length_and_xxh3_128_checksum(tmp_path):
    """SECURITY.md: "Every cache file carries its format, the length of its payload and a checksum
    of it (XXH3-128)" (the checksum recomputed here with xxhash itself)."""
    xxhash = pytest.importorskip("xxhash")
    root = tmp_path / "project"
    write(root, HI_LO)
    assert layering_run(root, "check", env=environment(tmp_path)).returncode == 1
    files = [p for p in (root / CACHE).rglob("*.marshal")]
    assert len(files) >= 3, files
    header = struct.Struct("<16sIQ16s")
    for path in files:
        data = path.read_bytes()
        _magic, format_, length, digest = header.unpack_from(data)
        payload = data[header.size :]
        assert format_ > 0 and length == len(payload), path
        assert digest == xxhash.xxh3_128_digest(payload), path


def test_a_cache_written_by_other_code_of_layering_is_not_used(tmp_path):
    """SECURITY.md: "A cache written by another version of layering (or of its own code, in a
    development checkout) is not used."

    A copy of layering's code runs the checks. A forged verdict in its cache is believed (the
    cache is trusted input); once one file of the copy changes, the cache is not used and the
    run decides again."""
    root, lib = tmp_path / "project", tmp_path / "lib"
    shutil.copytree(LAYERING_DIR, lib / "layering", ignore=shutil.ignore_patterns("__pycache__"))
    env = environment(tmp_path, PYTHONPATH=str(lib))
    where = layering_run(
        root.parent, "-c", "import layering; print(layering.__file__)", env=env, prefix=()
    )
    assert where.stdout.strip() == str(lib / "layering" / "__init__.py"), where.stdout
    write(root, HI_LO)
    assert layering_run(root, "check", env=env).returncode == 1
    forge_kept(Path(results_file(root)))
    assert layering_run(root, "check", env=env).returncode == 0  # the same code believes its cache
    edited = lib / "layering" / "reporting" / "text.py"
    edited.write_text(edited.read_text() + "\n# another line of layering's own code\n")
    again = layering_run(root, "check", env=env)
    assert again.returncode == 1 and verdicts(again.stdout) == {"hi-not-lo": "BROKEN"}, (
        again.stdout + again.stderr
    )


# =========================================================================== what it never does


def test_configuration_text_is_never_evaluated(tmp_path):
    """SECURITY.md: "The configuration is parsed as TOML data, or as INI with Python's
    `configparser`. Nothing in it is evaluated as code [...]: module names are validated as dotted
    identifiers, patterns as `*`/`**` module patterns, and every other option is checked for its
    type."; "no `eval`/`exec` of configuration text"; setup entries are called "never through
    `eval`".

    Code, format fields and shell text in every kind of value of a TOML and an INI
    configuration: each is a located error or shown as text, and none runs."""
    root, marker = tmp_path / "project", tmp_path / "ran"
    code = f"__import__('os').system('touch {marker}')"
    fmt = "{0.__class__.__init__.__globals__}%(x)s"
    shell = f"$(touch {marker})"
    write(root, {"src/app/__init__.py": "", "src/app/a.py": "import json\n"})
    values = [code, fmt, shell]
    toml_contracts = "".join(
        f"\n[[contracts]]\nid = {json.dumps(value)}\nname = {json.dumps(value)}\ntype = "
        '"forbidden"\n'
        f"source_modules = [{json.dumps(value)}]\nforbidden_modules = [{json.dumps(value)}]\n"
        f'allow = [{json.dumps(value + " -> app.a")}, {{ importer = "app.a", module = '
        f"{json.dumps(value)}, names = [{json.dumps(value)}] }}]\n"
        f'\n[[contracts]]\nname = {json.dumps("probe " + value)}\ntype = "probe"\nmodules = '
        f"[{json.dumps(value)}]\n"
        f"forbidden = [{json.dumps(value)}]\nstub = [{json.dumps(value)}]\nsetup = "
        f"[{json.dumps(value)}]\n"
        f"timeout = {json.dumps(value)}\nenv = {{ {json.dumps(value)} = {json.dumps(value)} }}\n"
        f"\n[[contracts]]\nname = {json.dumps('type ' + value)}\ntype = {json.dumps(value)}\n"
        for value in values
    )
    write(
        root,
        {
            "contracts.toml": 'root_packages = ["app"]\nsource_roots = ["src"]\ncache_dir = '
            f"false\n{toml_contracts}"
        },
    )
    env = environment(tmp_path)
    result = layering_run(root, "check", env=env)
    assert result.returncode == 2, result.stdout + result.stderr
    for option in (
        "source_modules",
        "forbidden_modules",
        "allow",
        "modules",
        "forbidden",
        "stub",
        "setup",
        "timeout",
        "env",
    ):
        assert f"option '{option}': " in result.stderr, option
    assert not marker.exists()
    # The free-text options (name) are shown as text when the run is made.
    write(
        root,
        {
            "contracts.toml": 'root_packages = ["app"]\nsource_roots = ["src"]\ncache_dir = '
            "false\n"
            + "".join(
                f'\n[[contracts]]\nname = {json.dumps(value)}\ntype = "forbidden"\nsource_modules '
                '= ["app.a"]\nforbidden_modules = ["json"]\n'
                for value in values
            )
        },
    )
    shown = layering_run(root, "check", env=env)
    assert shown.returncode == 1 and all(
        f"\n{value} BROKEN\n" in shown.stdout for value in values
    ), shown.stdout + shown.stderr
    (root / "contracts.toml").unlink()
    ini_contracts = "".join(
        f"\n[importlinter:contract:c{n}]\nname = {value}\ntype = forbidden\nsource_modules =\n    "
        f"{value}\n"
        f"forbidden_modules = {value}\nignore_imports =\n    {value} -> app.a\n"
        for n, value in enumerate(values)
    )
    write(
        root,
        {
            ".importlinter": "[importlinter]\nroot_package = app\ncontract_types =\n    mine: "
            f"{shell}\n{ini_contracts}"
        },
    )
    ini = layering_run(root / "src", "check", "--no-cache", env=env)
    assert ini.returncode == 2 and ".importlinter:" in ini.stderr, ini.stdout + ini.stderr
    assert not marker.exists()


def test_cache_contents_are_never_executed(tmp_path):
    """SECURITY.md: "no `eval`/`exec` of [...] cache contents (the cache is `marshal` data, decoded
    only once its checksum holds)".

    Every cache file is replaced, with a checksum that holds, by `marshal` data holding code
    objects that would write a marker if run (the file's whole payload, and a table of them): the
    runs say what a run without the cache says, and nothing runs."""
    root, marker = tmp_path / "project", tmp_path / "ran"
    write(root, HI_LO)
    env = environment(tmp_path)
    expected = layering_run(root, "check", "--no-cache", env=env)
    payload = compile(f"open({str(marker)!r}, 'w').write('ran')", "<cache>", "exec")
    for shape in (
        lambda: payload,
        lambda: {
            "format": payload,
            "files": {"app.mid": payload},
            "results": payload,
            "__reduce__": payload,
        },
    ):
        layering_run(root, "check", env=env)
        for path in (root / CACHE).rglob("*.marshal"):
            write_cache_file(path, shape())
        damaged = layering_run(root, "check", env=env)
        assert (damaged.returncode, damaged.stdout) == (expected.returncode, expected.stdout), (
            damaged.stderr
        )
        again = layering_run(root, "check", env=env)
        assert (again.returncode, again.stdout) == (expected.returncode, expected.stdout), (
            again.stderr
        )
        assert not marker.exists()


def test_layering_calls_no_eval_exec_or_compile_at_run_time(tmp_path):
    """SECURITY.md: "no `eval`/`exec` of configuration text, report data, or cache contents";
    setup entries "imported and called [...] never through `eval`".

    The layering process runs with an audit hook that sees every `exec`, `eval` and `compile`
    (including those of the cache builder it forks): none is called by layering's own code, over
    runs with and without the cache, probes with setup entries, explain, graph and audit."""
    root, marker, env = marked_project(tmp_path)
    text = (root / "contracts.toml").read_text() + 'setup = ["shop.domain._rules"]\n'
    (root / "contracts.toml").write_text(text)
    log = tmp_path / "audit.log"
    for args in [
        ("check",),
        ("check",),
        ("check", "--no-cache"),
        ("check", "--format", "json"),
        ("explain", "shop.api", "shop.db"),
        ("graph",),
        ("audit",),
    ]:
        run = audited(root, log, *args, env=env)
        assert run.result.returncode in (0, 1), (args, run.result.stdout + run.result.stderr)
        assert run.of("code") == [], (args, run.of("code"))
        assert any(event[0] == "start" for event in run.events) or args[0] in (
            "explain",
            "graph",
        ), (args, run.events)


def test_a_run_opens_no_socket(tmp_path):
    """SECURITY.md: "no network access (neither `layering` nor the static analysis opens a
    connection; probed modules are your code, see above)".

    The layering process (and the cache builder it forks) runs with an audit hook that sees every
    socket, HTTP or URL event: there is none, with the cache cold, warm and off, in every report
    format, for explain and graph."""
    root, marker, env = marked_project(tmp_path)
    log = tmp_path / "audit.log"
    runs = [
        ("check", "--no-probe"),
        ("check", "--no-probe"),
        ("check", "--no-probe", "--no-cache"),
        ("check", "--no-probe", "--verify-cache"),
    ]
    runs += [("check", "--no-probe", "--format", name) for name in ("json", "sarif", "github")]
    runs += [("explain", "shop.api", "shop.db"), ("graph",)]
    for args in runs:
        run = audited(root, log, *args, env=env)
        assert run.result.returncode in (0, 1), (args, run.result.stdout + run.result.stderr)
        assert run.of("network") == [], (args, run.of("network"))


def test_every_process_layering_starts_is_the_interpreter_without_a_shell(tmp_path):
    """SECURITY.md: "No shell is involved anywhere."; "no shell commands"; "Each probe runs in a
    child interpreter [...]: `<python> -I -B probe_child.py`".

    The audit hook sees every process the layering process starts: each is the interpreter with
    -I -B and the probe child's path (or -I -B -c to ask a configured interpreter its version),
    as an argument list, never a shell or a command line."""
    root, marker, env = marked_project(tmp_path)
    (root / "contracts.toml").write_text(
        (root / "contracts.toml").read_text() + f'python = "{sys.executable}"\n'
    )
    log = tmp_path / "audit.log"
    for args in [("check",), ("audit",), ("check", "--no-cache", "--jobs", "1")]:
        run = audited(root, log, *args, env=env)
        assert run.result.returncode in (0, 1), (args, run.result.stdout + run.result.stderr)
        started = [event for event in run.of("start") if event[2] != "os.fork"]
        assert started, (args, run.events)
        popens = [
            values[1] for _kind, _pid, event, values in started if event == "subprocess.Popen"
        ]
        for _kind, _pid, event, values in started:
            # subprocess itself may start a Popen through os.posix_spawn (Python 3.13): the same
            # argument list, after its subprocess.Popen event
            assert event == "subprocess.Popen" or (
                event == "os.posix_spawn" and values[1] in popens
            ), (event, values)
            executable, argv = values
            assert executable in (None, sys.executable) and isinstance(argv, list), values
            assert argv[0] == sys.executable and argv[1:3] == ["-I", "-B"], argv
            assert (is_child_script(argv[3]) and argv[4:] in ([], ["serve"])) or argv[3] == "-c", (
                argv
            )


def test_layerings_source_holds_no_eval_shell_pickle_or_network_module():
    """SECURITY.md: "no network access", "no `eval`/`exec` of configuration text, report data, or
    cache contents", "no shell commands": layering's own code (every module, read as source)
    calls no `eval`, `exec` or `compile`, imports no `pickle`-like decoder and no network module,
    and starts nothing through a shell (`os.system`, `os.popen`, `shell=True`, `*_shell`)."""
    decoders = {"pickle", "shelve", "dill", "cloudpickle", "yaml", "jsonpickle"}
    network = {
        "socket",
        "ssl",
        "http",
        "urllib.request",
        "ftplib",
        "smtplib",
        "xmlrpc",
        "asyncio",
        "requests",
        "httpx",
        "urllib3",
        "telnetlib",
    }
    shells = {
        "system",
        "popen",
        "getoutput",
        "getstatusoutput",
        "create_subprocess_shell",
        "execl",
        "execlp",
        "execv",
        "execvp",
        "spawnl",
        "spawnv",
        "posix_spawn",
        "posix_spawnp",
    }
    found = []
    for path in sorted(Path(LAYERING_DIR).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            where = f"{path.relative_to(LAYERING_DIR)}:{getattr(node, 'lineno', 0)}"
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("eval", "exec", "compile")
            ):
                found.append(f"{where}: {node.func.id}()")
            if isinstance(node, ast.Attribute) and node.attr in shells:
                found.append(f"{where}: .{node.attr}")
            if (
                isinstance(node, ast.keyword)
                and node.arg == "shell"
                and not (isinstance(node.value, ast.Constant) and node.value.value is False)
            ):
                found.append(f"{where}: shell=")
            names = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            for name in names:
                # The language server hands its diagnostics to pygls's event loop (asyncio); it
                # serves over standard input and output only, as checked below.
                if (
                    name == "asyncio"
                    and path.name == "lsp.py"
                    and path.parent == Path(LAYERING_DIR)
                ):
                    continue
                if name.split(".")[0] in decoders or any(
                    name == n or name.startswith(n + ".") for n in network
                ):
                    found.append(f"{where}: import {name}")
            if isinstance(node, ast.Attribute) and node.attr in ("start_tcp", "start_ws"):
                found.append(f"{where}: .{node.attr}")
    assert found == []
    server = (Path(LAYERING_DIR) / "lsp.py").read_text(encoding="utf-8")
    assert ".start_io()" in server


# --------------------------------------------------------------------------- every process, with
# strace


def _skip_without_strace() -> None:
    reason = strace_missing()
    if reason is not None:
        pytest.skip(reason)


def test_no_process_of_a_static_run_opens_a_socket(tmp_path):
    """SECURITY.md: "no network access (neither `layering` nor the static analysis opens a
    connection [...])".

    Every process of a static run (grimp's Rust code and the cache builder included), traced:
    none creates a socket, connects, binds or sends, with the cache cold, warm and off, and for
    explain and graph."""
    _skip_without_strace()
    root, marker, env = marked_project(tmp_path)
    for args in [
        ("check", "--no-probe"),
        ("check", "--no-probe"),
        ("check", "--no-probe", "--no-cache"),
        ("explain", "shop.api", "shop.db"),
        ("graph",),
    ]:
        result, calls = traced(root, tmp_path / "trace", *args, env=env)
        assert result.returncode in (0, 1), (args, result.stdout + result.stderr)
        network = [
            call.line
            for call in calls
            if call.name in ("socket", "connect", "bind", "sendto", "sendmsg", "listen")
        ]
        assert network == [], (args, network)


def _interpreters_bytecode(path: str, top: Path) -> bool:
    """A `.pyc` the interpreter writes for a module of layering or of its dependencies (outside
    the tree of the test), when it imports one whose bytecode is missing or out of date."""
    return (
        path.endswith(".pyc")
        and f"{os.sep}__pycache__{os.sep}" in path
        and not path.startswith(str(top))
    )


def test_no_process_of_a_run_writes_outside_the_cache_directory(tmp_path):
    """SECURITY.md: "no writes outside the cache directory (none at all with `--no-cache`)";
    "`cache_dir = false`, or `--no-cache` [...]: then nothing at all is written"; `-B` "writes no
    `.pyc` files into the project".

    Every process of a run (grimp, the cache builder, the probe children), traced: each file
    opened for writing, renamed, removed, made, linked or changed lies in the cache directory
    (none with --no-cache), or is /dev/null. (The interpreter's own bytecode of layering's
    modules, outside the project, is left out.)"""
    _skip_without_strace()
    root, marker, env = marked_project(tmp_path)
    cache = str(root / CACHE)
    runs = [("check",), ("check",), ("audit",), ("explain", "shop.api", "shop.db")]
    runs += [("check", "--no-cache"), ("graph", "--no-cache")]
    for number, args in enumerate(runs):
        result, calls = traced(root, tmp_path / "trace", *args, env=env)
        assert result.returncode in (0, 1), (args, result.stdout + result.stderr)
        paths = {path for call in calls for path in changed_paths(call, root)}
        if number == 0:  # the trace sees writes: those of the cache it makes
            assert {
                os.path.join(cache, "manifest.marshal"),
                os.path.join(cache, ".gitignore"),
            } <= paths, paths
        inside = () if "--no-cache" in args else (cache,)
        written = sorted(
            path
            for path in paths
            if path not in (os.devnull, str(marker), *inside)
            and not path.startswith(tuple(directory + os.sep for directory in inside))
            and not _interpreters_bytecode(path, tmp_path)
        )
        assert written == [], (args, written)


def test_no_process_of_a_run_executes_a_shell(tmp_path):
    """SECURITY.md: "No shell is involved anywhere."; "no shell commands".

    Every program any process of a run executes, traced: only the interpreter (the probe
    children and the fork server), never a shell or another program."""
    _skip_without_strace()
    root, marker, env = marked_project(tmp_path)
    for args in [("check",), ("audit",)]:
        result, calls = traced(root, tmp_path / "trace", *args, env=env)
        assert result.returncode in (0, 1), (args, result.stdout + result.stderr)
        programs = {_string(call.args[0]) for call in calls if call.name == "execve"}
        assert programs == {sys.executable}, (args, programs)
