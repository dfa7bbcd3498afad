#!/usr/bin/env python3
"""Benchmark `layering` against import-linter and tach on real packages.

Run from the repository root:

    python bench/run.py [--scratch DIR] [--repeat N] [--only CORPUS[,CORPUS]]
                        [--only-workloads NAME[,NAME]] [--quick]

Everything it needs is built in a scratch directory (default `.bench_scratch/` in the
repository root): a virtual environment holding this repository, import-linter, tach and
Django, and the wheels of the corpora (Django, SymPy, Transformers, Home Assistant), unzipped
so each package is read from source, never installed.  Downloads and the tool install are
cached across runs; the repository itself is reinstalled on every run.

Each tool runs as its own process with the corpus directory as the working directory; the
timed quantity is whole-process wall time.  Runs are interleaved (every command of a workload
once per round, the start rotated each round) so that drift on the machine hits all tools
alike.  The script writes `bench/RESULTS.md` (or `--results PATH`) and a JSON dump beside it in
the scratch directory.  bench/README.md describes every workload.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as _dt
import json
import math
import os
import platform
import pstats
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

import source_edits
import synthetic

REPO = Path(__file__).resolve().parent.parent
BENCH = Path(__file__).resolve().parent

TOOLS = ("layering", "import-linter", "tach")
IMPORT_LINTER_SPECS = ("import-linter==2.17", "import-linter")
TACH_SPECS = ("tach",)
PROBE_DJANGO_SPECS = ("django",)
# The corpora are downloaded for this interpreter tag, not the one running the benchmark:
# Django 6.1 and Home Assistant 2026.x only publish wheels for newer Pythons.  They are
# pure-Python wheels that are only read, never imported, so the tag just picks the release.
DOWNLOAD_PYTHON = "3.14"

# ---------------------------------------------------------------------------------------
# Corpora and workloads.
#
# a:   one forbidden contract on ONE module, direct imports only.
# b:   one forbidden contract subpackage -> subpackage, indirect chains count.
# c:   one layers contract over 4-5 subpackages plus one independence contract.
# cut: one forbidden contract with many chains, whose report names the imports to cut.
# d1, d2, e: workload c after an edit (EditedTree); scale: synthetic packages of growing size.
# ---------------------------------------------------------------------------------------
CORPORA: dict[str, dict] = {
    "django": {
        "specs": ["django==6.1.3"],
        "package": "django",
        "a": {"source": "django.http.request", "forbidden": "django.db"},
        "b": {"source": "django.db", "forbidden": "django.contrib.admin"},
        "c": {
            "layers": ["django.contrib", "django.views", "django.forms", "django.db", "django.utils"],
            "independent": [
                "django.contrib.sessions",
                "django.contrib.messages",
                "django.contrib.humanize",
                "django.contrib.sitemaps",
            ],
        },
        "cut": {"source": "django.utils", "forbidden": "django.db"},
    },
    "sympy": {
        "specs": ["sympy==1.14.0"],
        "package": "sympy",
        "a": {"source": "sympy.core.numbers", "forbidden": "sympy.printing"},
        "b": {"source": "sympy.polys", "forbidden": "sympy.stats"},
        "c": {
            "layers": ["sympy.solvers", "sympy.simplify", "sympy.polys", "sympy.functions", "sympy.core"],
            "independent": ["sympy.physics", "sympy.stats", "sympy.geometry", "sympy.plotting"],
        },
        "cut": {"source": "sympy.polys", "forbidden": "sympy.solvers"},
    },
    "transformers": {
        "specs": ["transformers==5.24.0", "transformers>=5,<6"],
        "package": "transformers",
        "a": {"source": "transformers.activations", "forbidden": "transformers.models"},
        "b": {"source": "transformers.utils", "forbidden": "transformers.pipelines"},
        "c": {
            "layers": [
                "transformers.pipelines",
                "transformers.models",
                "transformers.generation",
                "transformers.integrations",
                "transformers.utils",
            ],
            "independent": [
                "transformers.models.bert",
                "transformers.models.gpt2",
                "transformers.models.llama",
                "transformers.models.t5",
            ],
        },
        "cut": {"source": "transformers.models", "forbidden": "transformers.pipelines"},
    },
    "homeassistant": {
        "specs": ["homeassistant==2026.2.3", "homeassistant<=2026.2.3"],
        "package": "homeassistant",
        "a": {"source": "homeassistant.core", "forbidden": "homeassistant.components"},
        "b": {"source": "homeassistant.util", "forbidden": "homeassistant.helpers"},
        "c": {
            "layers": [
                "homeassistant.components",
                "homeassistant.helpers",
                "homeassistant.auth",
                "homeassistant.util",
            ],
            "independent": [
                "homeassistant.components.hue",
                "homeassistant.components.zwave_js",
                "homeassistant.components.mqtt",
                "homeassistant.components.sonos",
            ],
        },
    },
}
STANDARD_WORKLOADS = ("a", "b", "c", "cut")
EDIT_WORKLOADS = ("d1", "d2", "e")
SECTIONS = (*STANDARD_WORKLOADS, *EDIT_WORKLOADS, "scale", "memory", "startup", "probes")
WORKLOAD_TITLES = {
    "a": "(a) forbidden, one module, direct imports only",
    "b": "(b) forbidden, subpackage to subpackage, indirect chains",
    "c": "(c) layers over 4-5 subpackages + independence",
    "cut": "(cut) forbidden with many chains: the imports to cut",
    "d1": "(d1) c after a function body changed in one file, both tools warm before",
    "d2": "(d2) c after one file gained an internal import, both tools warm before",
    "e": "(e) c on a fresh checkout, each tool's cache directory restored",
}
# Modes of the standard workloads.  cold: no cache (layering's cache dir removed, --no-cache;
# import-linter --no-cache); default: layering as a user runs it, cache on, from an empty cache
# dir; warm: each tool's cache as one untimed run left it.
MODES = ("cold", "default", "warm")

# Issue 14's goals: layering's median / lint-imports' median (a, b, c cold; d1, d2, e cached).
SPEED_GOALS = {"a": 0.10, "b": 0.70, "c": 0.90, "d1": 0.25, "d2": 0.50, "e": 0.35}
SPEED_GOAL_EXCEPTIONS = {("a", "django"): 0.25}  # interpreter start-up is the floor there
SPEED_GOAL_MODES = {"a": "cold", "b": "cold", "c": "cold", "d1": "after a body edit, both warm before",
                    "d2": "after an added import, both warm before", "e": "fresh checkout, caches restored"}
# Issue 10: the minimum number of imports to cut (grimp's graph of these versions).
CUT_MINIMUM = {"django": 6, "sympy": 54, "transformers": 1}
CUT_REPORT_MAX_LINES = 300

SCALE_SIZES = (1_000, 10_000, 50_000)
SCALE_FULL_ROUNDS_UP_TO = 10_000  # larger packages get a third of the rounds (at least one)

CACHE_DIRS = {"layering": ".layering_cache", "import-linter": ".import_linter_cache"}
# The functions that write a cache, by the file that defines them: their cumulative time in a
# profile of a run from an empty cache that builds its cache in its own process
# (`BUILD_IN_THE_RUN`) is the allowance of the issue 16 guard.
CACHE_WRITERS = {
    "grimp/adaptors/caching.py": re.compile(r"_?write\w*"),
    "layering/adapters/import_cache.py": re.compile(r"write"),
    # the builder of a run with nothing cached: hashing the files, signing what grimp read
    "layering/adapters/cache_builder.py": re.compile(r"[a-z_]\w*"),
    # file_states makes the manifest's entries (in the builder, when nothing was cached), sealed
    # gives each file its checksum, and a file read is kept only where it is still as stamped
    "layering/adapters/result_cache.py": re.compile(r"prepare|store\w*|_?write\w*|file_states|encoded|sealed|read_unchanged|unchanged_now"),
    # a run that keeps what it reads stamps each file before it first reads it
    "layering/adapters/package_files.py": re.compile(r"stamp\w*|is_unchanged"),
    # what only the cache holds, computed to be written: the import cache's entries with each
    # module's import signature, what each contract reaches, the verdicts as stored, the key of
    # the settings
    "layering/adapters/grimp_scan.py": re.compile(r"entries|signature|signature_of"),
    "layering/commands/cached_check.py": re.compile(r"store|_summarize|verdicts|signed|settings_digest"),
}

# 20 runtime probes on the installed Django: "django.X must not load django.db".
PROBE_MODULES = [
    # these load django.db (broken)
    "django.http",
    "django.template",
    "django.urls",
    "django.forms",
    "django.views.generic",
    "django.middleware.csrf",
    "django.shortcuts",
    "django.core.serializers",
    "django.core.handlers.wsgi",
    "django.core.management",
    # these do not (kept)
    "django.utils.html",
    "django.core.signing",
    "django.core.mail",
    "django.utils.timezone",
    "django.core.paginator",
    "django.conf",
    "django.dispatch",
    "django.core.validators",
    "django.core.cache",
    "django.utils.translation",
]
PROBE_FORBIDDEN = "django.db"
NAIVE_PROBE = (
    "import {module}, sys; "
    "sys.exit(1 if any(m == {f!r} or m.startswith({f!r} + '.') for m in sys.modules) else 0)"
)



# ---------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------
def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def tail(text: str, n: int = 12) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return "\n".join(lines[-n:])


def one_line(text: str, limit: int = 300) -> str:
    s = " | ".join(ln.strip() for ln in text.strip().splitlines() if ln.strip())
    return s if len(s) <= limit else "..." + s[-limit:]


class Run:
    __slots__ = ("rc", "wall", "maxrss_kb", "out", "err")

    def __init__(self, rc: int, wall: float, maxrss_kb: int, out: str, err: str):
        self.rc, self.wall, self.maxrss_kb, self.out, self.err = rc, wall, maxrss_kb, out, err


def run(cmd: list[str], cwd: Path, env: dict | None = None, timeout: float = 1800) -> Run:
    """Run `cmd` to completion; wall time and the child's own peak RSS (via wait4)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        try:
            proc = subprocess.Popen(cmd, cwd=str(cwd), stdout=out, stderr=err, env=env)
        except OSError as exc:
            return Run(127, 0.0, 0, "", f"cannot start {cmd[0]}: {exc}")
        # A blocking wait4 gives exact timing and the child's own rusage; a timer kills hangs.
        killer = threading.Timer(timeout, proc.kill)
        killer.start()
        try:
            _, status, ru = os.wait4(proc.pid, 0)
        finally:
            killer.cancel()
        wall = time.perf_counter() - t0
        rc = os.waitstatus_to_exitcode(status)
        proc.returncode = rc  # reaped by us; keep Popen from waiting again
        out.seek(0)
        err.seek(0)
        return Run(
            rc,
            wall,
            int(ru.ru_maxrss),
            out.read().decode("utf-8", "replace"),
            err.read().decode("utf-8", "replace"),
        )


def median(xs: list[float]) -> float | None:
    return statistics.median(xs) if xs else None


def fmt_s(x: float | None) -> str:
    if x is None:
        return "n/a"
    return f"{x * 1000:.0f} ms" if x < 10 else f"{x:.2f} s"


def fmt_ratio(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.2f}x"


def ratio(a: float | None, b: float | None) -> float | None:
    if a is None or b is None or b <= 0:
        return None
    return a / b


def verdict_of(rc: int | None) -> str:
    return {0: "kept", 1: "broken"}.get(rc, "error" if rc is not None else "n/a")


# ---------------------------------------------------------------------------------------
# Setup: venv, tools, corpora
# ---------------------------------------------------------------------------------------
MIN_PYTHON = (3, 13)  # the corpora use PEP 695 syntax (Home Assistant 2026 needs >= 3.13.2)


def python_version_of(exe: str) -> tuple[int, ...] | None:
    try:
        r = subprocess.run([exe, "-c", "import sys, venv; print(*sys.version_info[:3])"],
                           capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    if r.returncode != 0:
        return None
    try:
        return tuple(int(x) for x in r.stdout.split())
    except ValueError:
        return None


def choose_python(explicit: str | None) -> tuple[str, str]:
    """The interpreter for the bench venv, and why.

    All three tools run in one venv on one interpreter. layering parses with the `ast` of the
    interpreter it runs on, so the venv must be new enough for the corpora's syntax: prefer the
    running Python if it is >= 3.13, else the newest >= 3.13 found on PATH or under pyenv.
    """
    if explicit:
        return explicit, "chosen with --python"
    cands: list[str] = [sys.executable]
    for name in ("python3.14", "python3.13"):
        w = shutil.which(name)
        if w:
            cands.append(w)
    roots = [Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions", Path("/usr/local/bin"), Path("/usr/bin")]
    for root in roots:
        if root.name == "versions" and root.is_dir():
            cands += [str(p / "bin" / "python3") for p in sorted(root.iterdir()) if (p / "bin" / "python3").exists()]
        else:
            cands += [str(root / f"python3.{m}") for m in (13, 14) if (root / f"python3.{m}").exists()]
    best, best_v = None, None
    for c in dict.fromkeys(cands):
        v = python_version_of(c)
        if v and v >= MIN_PYTHON and "t" not in Path(c).name.split("python")[-1] and (best_v is None or v > best_v):
            best, best_v = c, v
    if best is None:
        return sys.executable, (f"no Python >= {'.'.join(map(str, MIN_PYTHON))} found; corpora using newer syntax "
                                "may fail to parse under layering")
    if best == sys.executable:
        return best, "the running interpreter"
    return best, f"newest Python >= {'.'.join(map(str, MIN_PYTHON))} found (the running one is older)"


class Env:
    def __init__(self, scratch: Path, python: str = sys.executable, python_why: str = ""):
        self.base_python = python
        self.python_why = python_why
        self.scratch = scratch
        self.venv = scratch / "venv"
        self.bin = self.venv / ("Scripts" if os.name == "nt" else "bin")
        self.python = self.bin / "python"
        self.wheels = scratch / "wheels"
        self.corpora = scratch / "corpora"
        self.env = dict(os.environ)
        for var in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONSAFEPATH"):
            self.env.pop(var, None)
        self.env["VIRTUAL_ENV"] = str(self.venv)
        self.env["PATH"] = str(self.bin) + os.pathsep + self.env.get("PATH", "")
        self.env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
        self.layering_install_error: str | None = None
        self.versions: dict[str, str] = {}

    def exe(self, name: str) -> str:
        return str(self.bin / name)

    def pip(self, *args: str, check: bool = True) -> Run:
        r = run([str(self.python), "-m", "pip", *args], cwd=self.scratch, env=self.env)
        if check and r.rc != 0:
            raise SystemExit(f"pip {' '.join(args)} failed:\n{tail(r.err or r.out, 30)}")
        return r

    def setup_venv(self, skip_repo: bool = False) -> None:
        self.scratch.mkdir(parents=True, exist_ok=True)
        base_v = python_version_of(self.base_python)
        venv_v = python_version_of(str(self.python)) if self.python.exists() else None
        if venv_v is not None and base_v is not None and venv_v[:2] != base_v[:2]:
            log(f"bench venv is Python {venv_v[0]}.{venv_v[1]}, want {base_v[0]}.{base_v[1]}: recreating it")
            shutil.rmtree(self.venv)
        if not self.python.exists():
            log(f"creating venv with {self.base_python} ({self.python_why})")
            r = run([self.base_python, "-m", "venv", str(self.venv)], cwd=self.scratch)
            if r.rc != 0:
                raise SystemExit(f"venv creation failed:\n{tail(r.err)}")
        marker = self.venv / ".bench_tools"
        wanted = "tools-v1"
        if not marker.exists() or marker.read_text() != wanted:
            log("installing import-linter, tach and django into the bench venv")
            for specs in (IMPORT_LINTER_SPECS, TACH_SPECS, PROBE_DJANGO_SPECS):
                last = None
                for spec in specs:
                    last = self.pip("install", "-q", spec, check=False)
                    if last.rc == 0:
                        break
                if last is None or last.rc != 0:
                    raise SystemExit(f"could not install any of {specs}:\n{tail(last.err if last else '')}")
            marker.write_text(wanted)
        if skip_repo:
            if not (self.bin / "layering").exists():
                self.layering_install_error = "no `layering` command in the bench venv (--skip-repo-install)"
            return
        log(f"installing this repository ({REPO}) into the bench venv")
        # Build from a copy so that setuptools' build/ and *.egg-info never land in the work tree.
        src = self.scratch / "src"
        shutil.rmtree(src, ignore_errors=True)
        shutil.copytree(REPO, src, ignore=shutil.ignore_patterns(
            ".git", ".bench_scratch", self.scratch.name, "build", "dist", "*.egg-info", "__pycache__",
            ".venv", ".ci-venv", ".pytest_cache", ".hypothesis", ".layering_cache", ".import_linter_cache",
        ))
        # First resolve its dependencies without disturbing the pinned tools, then force a
        # fresh copy of the repository itself (same version number, new code).
        r = self.pip("install", "-q", str(src), check=False)
        if r.rc == 0:
            r = self.pip("install", "-q", "--force-reinstall", "--no-deps", str(src), check=False)
        if r.rc != 0:
            self.layering_install_error = "pip install of the repository failed: " + one_line(tail(r.err or r.out, 6))
            log(self.layering_install_error)
        elif not (self.bin / "layering").exists():
            self.layering_install_error = "the repository installed no `layering` command"
            log(self.layering_install_error)

    def read_versions(self) -> None:
        code = textwrap.dedent(
            """
            import importlib.metadata as m, json
            out = {}
            for d in ("import-linter", "grimp", "tach", "django"):
                try: out[d] = m.version(d)
                except Exception: out[d] = "not installed"
            print(json.dumps(out))
            """
        )
        r = run([str(self.python), "-c", code], cwd=self.scratch, env=self.env)
        try:
            self.versions.update(json.loads(r.out))
        except ValueError:
            pass
        r = run([self.exe("layering"), "--version"], cwd=self.scratch, env=self.env)
        self.versions["layering"] = (r.out.strip() or r.err.strip()).splitlines()[-1] if r.rc == 0 else (
            f"unavailable ({one_line(tail(r.err or r.out, 2), 120)})"
        )
        self.versions["python (venv)"] = run(
            [str(self.python), "-c", "import platform; print(platform.python_version())"], cwd=self.scratch
        ).out.strip()

    def fetch_corpus(self, name: str) -> tuple[Path, str]:
        """Download (cached) and unzip (cached) the corpus wheel; returns (dir, wheel filename)."""
        spec_list = CORPORA[name]["specs"]
        self.wheels.mkdir(parents=True, exist_ok=True)
        wheel = None
        for spec in spec_list:
            wheel = self._cached_wheel(name, spec)
            if wheel:
                break
            log(f"downloading {spec}")
            r = self.pip(
                "download", "--no-deps", "--only-binary=:all:", "--python-version", DOWNLOAD_PYTHON,
                "--dest", str(self.wheels), spec, check=False,
            )
            if r.rc == 0:
                wheel = self._cached_wheel(name, spec)
                if wheel:
                    break
            log(f"  {spec} not available: {one_line(tail(r.err, 2), 200)}")
        if wheel is None:
            raise SystemExit(f"could not download any of {spec_list}")
        dest = self.corpora / name
        marker = dest / ".bench_unpacked"
        if not (marker.exists() and marker.read_text() == wheel.name):
            log(f"unzipping {wheel.name}")
            if dest.exists():
                shutil.rmtree(dest)
            dest.mkdir(parents=True)
            with zipfile.ZipFile(wheel) as zf:
                zf.extractall(dest)
            marker.write_text(wheel.name)
        return dest, wheel.name

    def _cached_wheel(self, name: str, spec: str) -> Path | None:
        m = re.fullmatch(r"([A-Za-z0-9_.\-]+)==([^,;]+)", spec)
        norm = re.sub(r"[-_.]+", "_", name).lower()
        cands = sorted(self.wheels.glob("*.whl"))
        mine = [w for w in cands if re.sub(r"[-_.]+", "_", w.name.split("-")[0]).lower() == norm]
        if m:
            mine = [w for w in mine if w.name.split("-")[1] == m.group(2)]
        return mine[-1] if mine else None




# ---------------------------------------------------------------------------------------
# Projects and their configurations
# ---------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Project:
    """A package to check and the directory every run starts in (configs and caches live there).

    `workloads` maps a workload name to its contracts' modules, as in CORPORA.
    """

    name: str
    root: Path
    package: str
    workloads: dict

    @property
    def package_dir(self) -> Path:
        return self.root / self.package

    def moved_to(self, root: Path) -> Project:
        return dataclasses.replace(self, root=root)


def corpus_project(corpus: str, root: Path) -> Project:
    return Project(corpus, root, CORPORA[corpus]["package"], CORPORA[corpus])


@dataclasses.dataclass(frozen=True)
class Configs:
    """The file names (relative to the project root) of one workload's configurations."""

    layering: str
    import_linter: str


def toml_list(xs: list[str]) -> str:
    return "[" + ", ".join(json.dumps(x) for x in xs) + "]"


def contracts_for(project: Project, workload: str) -> list[dict]:
    w = project.workloads[workload]
    if workload == "a":
        return [{
            "id": "a", "name": f"{w['source']} must not import {w['forbidden']} (direct)",
            "type": "forbidden", "source_modules": [w["source"]], "forbidden_modules": [w["forbidden"]],
            "allow_indirect_imports": True,
        }]
    if workload in ("b", "cut"):
        return [{
            "id": workload, "name": f"{w['source']} must not import {w['forbidden']} (indirect too)",
            "type": "forbidden", "source_modules": [w["source"]], "forbidden_modules": [w["forbidden"]],
            "allow_indirect_imports": False,
        }]
    return [
        {"id": "c_layers", "name": "layers", "type": "layers", "layers": w["layers"]},
        {"id": "c_independence", "name": "independence", "type": "independence", "modules": w["independent"]},
    ]


def render_contract(c: dict, table: str) -> str:
    lines = [f"[[{table}]]"]
    for k, v in c.items():
        if isinstance(v, bool):
            lines.append(f"{k} = {'true' if v else 'false'}")
        elif isinstance(v, list):
            lines.append(f"{k} = {toml_list(v)}")
        else:
            lines.append(f"{k} = {json.dumps(v)}")
    return "\n".join(lines)


def layering_config(project: Project, workload: str) -> str:
    head = f'root_packages = ["{project.package}"]\nsource_roots = ["."]\ncache_dir = "{CACHE_DIRS["layering"]}"\n'
    return head + "\n" + "\n\n".join(render_contract(c, "contracts") for c in contracts_for(project, workload)) + "\n"


def importlinter_config(project: Project, workload: str) -> str:
    head = f'[tool.importlinter]\nroot_packages = ["{project.package}"]\n'
    body = "\n\n".join(render_contract(c, "tool.importlinter.contracts") for c in contracts_for(project, workload))
    return head + "\n" + body + "\n"


TACH_HEAD = """\
# Generated by bench/run.py
source_roots = ["."]
exclude = []                      # analyse everything, as import-linter does (tests dirs too)
respect_gitignore = false         # the corpus lives in an ignored scratch dir
ignore_type_checking_imports = false   # import-linter counts TYPE_CHECKING imports too
root_module = "ignore"            # code outside the listed modules is unconstrained
"""


def tach_config(project: Project, workload: str) -> tuple[str | None, str]:
    """(tach.toml text or None when tach cannot express it, note for the table)."""
    w = project.workloads[workload]
    if workload == "a":
        return (
            TACH_HEAD
            + f'\n[[modules]]\npath = "{w["source"]}"\ncannot_depend_on = ["{w["forbidden"]}"]\n'
            + f'\n[[modules]]\npath = "{w["forbidden"]}"\n',
            "same semantics (direct imports)",
        )
    if workload != "c":
        return None, "n/a: tach checks direct imports only, cannot express indirect chains"
    layers = w["layers"]
    names = [f"L{i}" for i in range(len(layers))]
    text = TACH_HEAD + f"\nlayers = {toml_list(names)}\n"
    for mod, layer in zip(layers, names):
        text += f'\n[[modules]]\npath = "{mod}"\nlayer = "{layer}"\n'
    indep = w["independent"]
    for mod in indep:
        if mod in layers:
            continue
        others = [o for o in indep if o != mod]
        text += f'\n[[modules]]\npath = "{mod}"\ncannot_depend_on = {toml_list(others)}\n'
    return text, "approximation: tach layers + cannot_depend_on check direct imports only"


def write_configs(project: Project, workload: str) -> Configs:
    """Write the workload's layering and import-linter configurations into the project root."""
    lay, il = f"bench_{workload}.layering.toml", f"bench_{workload}.importlinter.toml"
    (project.root / lay).write_text(layering_config(project, workload))
    (project.root / il).write_text(importlinter_config(project, workload))
    return Configs(lay, il)


def write_tach_config(project: Project, workload: str) -> tuple[str | None, str]:
    """Write `tach.toml` (and a copy named for the workload) where tach can express the
    workload, else remove it; returns what `tach_config` does."""
    tach_text, tach_note = tach_config(project, workload)
    tach_file = project.root / "tach.toml"
    if tach_text is None:
        tach_file.unlink(missing_ok=True)
    else:
        tach_file.write_text(tach_text)
        (project.root / f"bench_{workload}.tach.toml").write_text(tach_text)
    return tach_text, tach_note


def layering_cmd(env: Env, configs: Configs) -> list[str]:
    return [env.exe("layering"), "check", "--config", configs.layering]


def lint_imports_cmd(env: Env, configs: Configs) -> list[str]:
    return [env.exe("lint-imports"), "--no-logo", configs.import_linter]


# ---------------------------------------------------------------------------------------
# Timing core
# ---------------------------------------------------------------------------------------
class ToolSeries:
    """The runs of one command in one mode: the wall times of the timed runs that gave a
    verdict, and every run's exit code (with its stderr when it is neither 0 nor 1)."""

    def __init__(self, tool: str, mode: str):
        self.tool = tool
        self.mode = mode
        self.times: list[float] = []
        self.rss: list[int] = []
        self.rcs: list[int] = []
        self.report_lines: list[int] = []
        self.runs: list[dict] = []
        self.error: str | None = None
        self.na: str | None = None  # cannot be expressed

    def record(self, res: Run, timed: bool = True) -> None:
        entry = {"rc": res.rc, "wall": round(res.wall, 4), "timed": timed}
        if res.rc not in (0, 1):
            entry["stderr"] = res.err
            self.error = f"{self.tool} failed (exit {res.rc}): " + one_line(tail(res.err or res.out, 8))
            log("  " + self.error)
        self.runs.append(entry)
        if timed and res.rc in (0, 1):
            self.times.append(res.wall)
            self.rss.append(res.maxrss_kb)
            self.rcs.append(res.rc)
            self.report_lines.append(len(res.out.splitlines()))

    def to_json(self) -> dict:
        return {"tool": self.tool, "mode": self.mode, "times": self.times, "maxrss_kb": self.rss, "rcs": self.rcs,
                "report_lines": self.report_lines, "runs": self.runs, "error": self.error, "na": self.na}

    @property
    def med(self) -> float | None:
        return None if (self.error or self.na) else median(self.times)

    @property
    def verdict(self) -> str:
        if self.na:
            return "n/a"
        if self.error:
            return "error"
        vs = {verdict_of(rc) for rc in self.rcs}
        return vs.pop() if len(vs) == 1 else "inconsistent:" + "/".join(sorted(vs))

    @property
    def cell(self) -> str:
        """The table cell: the median, or why there is none."""
        return "n/a" if self.na else ("failed" if self.error else fmt_s(self.med))


Series = dict[str, dict[str, ToolSeries]]  # mode -> tool -> series


def tool_series(env: Env, tool: str, mode: str) -> ToolSeries:
    """An empty series; layering's has already failed when layering could not be installed."""
    series = ToolSeries(tool, mode)
    if tool == "layering" and env.layering_install_error:
        series.error = "layering failed: " + env.layering_install_error
    return series


def new_series(env: Env, cells: list[tuple[str, str]]) -> Series:
    """An empty series for each (mode, tool)."""
    series: Series = {}
    for mode, tool in cells:
        series.setdefault(mode, {})[tool] = tool_series(env, tool, mode)
    return series


@dataclasses.dataclass
class Timed:
    """One command of the interleaved rounds, and what must be made true before each run."""

    series: ToolSeries
    cmd: list[str]
    prepare: Callable[[], None] | None = None


def interleave(timed: list[Timed], cwd: Path, repeat: int, env: dict) -> None:
    """Run each command once per round, the start rotated every round, so that drift on the
    machine hits all commands alike."""
    live = [t for t in timed if not t.series.error and not t.series.na]
    for r in range(repeat):
        k = r % max(1, len(live))
        for t in live[k:] + live[:k]:
            if t.series.error:
                continue
            if t.prepare:
                t.prepare()
            os.sync()  # what earlier runs and the preparation wrote is not flushed during this one
            t.series.record(run(t.cmd, cwd, env))


def run_untimed(env: Env, project: Project, series: ToolSeries, cmd: list[str]) -> Run:
    """A run that is not timed (a warm-up, a profile, a JSON report), recorded in `series`."""
    res = run(cmd, project.root, env.env)
    series.record(res, timed=False)
    return res


class CacheDirs:
    """The tools' cache directories in a project root, and copies of them taken while warm."""

    def __init__(self, root: Path, copies: Path):
        self.root = root
        self.copies = copies

    def clear(self, tool: str) -> None:
        shutil.rmtree(self.root / CACHE_DIRS[tool], ignore_errors=True)

    def keep_copies(self) -> None:
        for name in CACHE_DIRS.values():
            shutil.rmtree(self.copies / name, ignore_errors=True)
            if (self.root / name).is_dir():
                shutil.copytree(self.root / name, self.copies / name)

    def holds_files(self, tool: str) -> bool:
        return any(path.is_file() for path in (self.root / CACHE_DIRS[tool]).rglob("*"))

    def restore(self, tool: str) -> None:
        self.clear(tool)
        kept = self.copies / CACHE_DIRS[tool]
        if kept.is_dir():
            shutil.copytree(kept, self.root / CACHE_DIRS[tool])


def cache_dirs(env: Env, project: Project) -> CacheDirs:
    return CacheDirs(project.root, env.scratch / "warm_caches" / project.name)


def warm_up(env: Env, project: Project, caches: CacheDirs, timed: list[Timed]) -> None:
    """Start each tool from an empty cache, run it once (untimed), and keep the warm caches."""
    for tool in CACHE_DIRS:
        caches.clear(tool)
    for t in timed:
        if not t.series.error:
            run_untimed(env, project, t.series, t.cmd)
    caches.keep_copies()


# ---------------------------------------------------------------------------------------
# Standard workloads (a, b, c, cut): cold, default from an empty cache, warm
# ---------------------------------------------------------------------------------------
def time_standard_workload(env: Env, project: Project, workload: str, repeat: int) -> tuple[Series, Configs, str]:
    """Every mode of both tools (and tach, where it can express the workload) in one set of
    interleaved rounds; also returns the note on tach's configuration."""
    configs = write_configs(project, workload)
    tach_text, tach_note = write_tach_config(project, workload)
    caches = cache_dirs(env, project)
    series = new_series(env, [("cold", "layering"), ("default", "layering"), ("warm", "layering"),
                              ("cold", "import-linter"), ("warm", "import-linter"), ("cold", "tach")])
    lay, il = layering_cmd(env, configs), lint_imports_cmd(env, configs)
    warm = [
        Timed(series["warm"]["layering"], lay, lambda: caches.restore("layering")),
        Timed(series["warm"]["import-linter"], il, lambda: caches.restore("import-linter")),
    ]
    timed = [
        Timed(series["cold"]["layering"], lay + ["--no-cache"], lambda: caches.clear("layering")),
        Timed(series["default"]["layering"], lay, lambda: caches.clear("layering")),
        warm[0],
        Timed(series["cold"]["import-linter"], il + ["--no-cache"]),
        warm[1],
        Timed(series["cold"]["tach"], [env.exe("tach"), "check"]),
    ]
    if tach_text is None:
        series["cold"]["tach"].na = tach_note
    warm_up(env, project, caches, warm)
    log(f"{project.name} {workload}: {repeat} interleaved rounds")
    interleave(timed, project.root, repeat, env.env)
    log_medians(series)
    return series, configs, tach_note


def log_medians(series: Series) -> None:
    cells = [f"{tool} {mode}={s.cell} ({s.verdict})" for mode, by_tool in series.items() for tool, s in by_tool.items()]
    log("  medians: " + ", ".join(cells))


# ---------------------------------------------------------------------------------------
# Issue 16 guard: what writing the cache costs, from a profile
# ---------------------------------------------------------------------------------------
@dataclasses.dataclass
class CacheWriteProfile:
    """The cumulative time of the cache-writing functions in a profiled run from an empty cache."""

    seconds: float | None
    profiled_total: float | None
    functions: list[str]
    cache_written: bool = False
    note: str = ""


# `python -m cProfile -o OUT -m layering ...`, but keeping layering's exit code (cProfile's own
# entry swallows it): layering's module entry runs under the profiler as runpy runs it there.
PROFILE_LAYERING = """\
import cProfile, runpy, sys
out = sys.argv.pop(1)
sys.argv[0] = "layering"
profile = cProfile.Profile()
try:
    profile.runcall(runpy.run_module, "layering", run_name="__main__", alter_sys=True)
except SystemExit as stop:
    code = stop.code
else:
    code = 0
profile.dump_stats(out)
sys.exit(code)
"""


# The time it takes to write the cache is the whole of that work, wherever it runs. A run from an
# empty cache does most of it in a builder beside the run (a forked process), which the run's
# profile does not see; so the profiled run builds its cache in its own process instead, as the
# builder's fallback does when the builder fails. What the builder costs the run it runs beside
# (starting it, handing it what was read, waiting for it) is then the timed difference itself.
BUILD_IN_THE_RUN = """\
import sys

from layering.adapters import cache_builder


class InTheRun:
    \"\"\"A builder that takes nothing: `CacheBuilder.finish` then builds all in the run.\"\"\"

    def __init__(self, *args):
        pass

    def send(self, read):
        pass

    def finish(self, verdicts):
        return None

    def cancel(self):
        pass


if not (hasattr(cache_builder, "_can_fork") and hasattr(cache_builder, "_Thread")):
    print("bench: layering's cache builder changed; update BUILD_IN_THE_RUN", file=sys.stderr)
    raise SystemExit(2)
cache_builder._can_fork = lambda: False
cache_builder._Thread = InTheRun
"""


def profile_cache_writes(env: Env, project: Project, configs: Configs, series: ToolSeries) -> CacheWriteProfile:
    """One untimed `layering check` from an empty cache dir under cProfile (layering's module
    entry, on the bench venv's Python), its cache built in the run's process
    (`BUILD_IN_THE_RUN`); sums the cache writers' time without counting a writer called by
    another writer twice."""
    caches = cache_dirs(env, project)
    caches.clear("layering")
    out = env.scratch / "profiles" / f"{project.name}-{Path(configs.layering).stem}.prof"
    out.parent.mkdir(parents=True, exist_ok=True)
    cmd = [str(env.python), "-c", BUILD_IN_THE_RUN + PROFILE_LAYERING, str(out), "check", "--config", configs.layering]
    if series.error or run_untimed(env, project, series, cmd).rc not in (0, 1):
        return CacheWriteProfile(None, None, [], note="the profiled run failed")
    try:
        stats = pstats.Stats(str(out))
    except Exception as error:  # noqa: BLE001 - any unreadable profile is reported, not fatal
        return CacheWriteProfile(None, None, [], note=f"the profile could not be read ({error})")
    writers = {func for func in stats.stats if is_cache_writer(func)}
    outside_calls = sum(
        caller_ct
        for func in writers
        for caller, (_, _, _, caller_ct) in stats.stats[func][4].items()
        if caller not in writers
    )
    names = sorted({f"{shorten_profile_path(path)}:{name}" for path, _, name in writers})
    written = caches.holds_files("layering")
    missing = written and not any(name.startswith("layering/") for name in names)
    note = "layering wrote its cache, but no layering cache writer was found: update CACHE_WRITERS" if missing else ""
    return CacheWriteProfile(outside_calls, stats.total_tt, names, written, note)


def is_cache_writer(func: tuple[str, int, str]) -> bool:
    path, _, name = func
    posix = path.replace(os.sep, "/")
    return any(posix.endswith(suffix) and pattern.fullmatch(name) for suffix, pattern in CACHE_WRITERS.items())


def shorten_profile_path(path: str) -> str:
    posix = path.replace(os.sep, "/")
    return next((suffix for suffix in CACHE_WRITERS if posix.endswith(suffix)), posix)


# Where a run's time goes: the cumulative time of the functions that do each part of the work
# (path suffix, function name). Parts may overlap (an import made while deciding counts in both).
PHASES = [
    ("imports (start-up and lazy)", [("<frozen importlib._bootstrap>", "_find_and_load")]),
    ("walking the package", [("layering/adapters/package_files.py", "find_package_files")]),
    ("file states (stat, hashing changed files)", [("layering/adapters/result_cache.py", "_state")]),
    ("reading the caches", [("layering/adapters/result_cache.py", "_read"), ("layering/adapters/import_cache.py", "load")]),
    ("deciding from the cache (reuse)", [("layering/commands/cached_check.py", "reuse")]),
    ("scanning changed files alone", [("layering/adapters/grimp_scan.py", "read_modules")]),
    ("grimp scanning files (Rust)", [("layering/adapters/grimp_scan.py", "scan")]),
    ("assembling the graph", [("layering/adapters/grimp_scan.py", "_assemble")]),
    ("deciding contracts", [("layering/commands/check.py", "_decide")]),
    ("writing the caches", [("layering/adapters/result_cache.py", "store"), ("layering/adapters/result_cache.py", "store_manifest"), ("layering/adapters/import_cache.py", "write")]),
    ("rendering the report", [("layering/cli.py", "_render")]),
]


def profile_phases(env: Env, project: Project, lay: list[str], prepare: Callable[[], None], name: str) -> dict[str, float] | None:
    """One untimed run of `lay` (layering's check command) under cProfile after `prepare`: the
    profiled total and each part of PHASES, in seconds; None when the run failed."""
    prepare()
    out = env.scratch / "profiles" / f"{project.name}-{name}.prof"
    out.parent.mkdir(parents=True, exist_ok=True)
    cmd = [str(env.python), "-c", PROFILE_LAYERING, str(out), *lay[lay.index("check"):]]
    result = run(cmd, project.root, env.env)
    if result.rc not in (0, 1):
        return None
    try:
        stats = pstats.Stats(str(out))
    except Exception:  # noqa: BLE001 - an unreadable profile is no phase table, not a failed bench
        return None
    parts = {"profiled run": stats.total_tt}
    for label, functions in PHASES:
        wanted = set(functions)
        parts[label] = sum(
            entry[3]
            for (path, _, function), entry in stats.stats.items()
            if any(path.replace(os.sep, "/").endswith(suffix) and function == f for suffix, f in wanted)
        )
    return parts


# ---------------------------------------------------------------------------------------
# Issue 10: the cut, read from the JSON report and removed from a copy of the code
# ---------------------------------------------------------------------------------------
@dataclasses.dataclass
class CutCheck:
    """What layering's JSON report says of a broken contract's cut, and whether removing the
    cut's import statements from a copy of the code keeps the contract."""

    chains: int | None = None
    first_group_cut: int | None = None
    cut_entries: int | None = None
    statements_removed: int = 0
    kept_after_removal: bool | None = None
    problems: list[str] = dataclasses.field(default_factory=list)


def check_cut(env: Env, project: Project, configs: Configs, series: ToolSeries) -> CutCheck:
    res = run_untimed(env, project, series, layering_cmd(env, configs) + ["--no-cache", "--format", "json"])
    try:
        contract = json.loads(res.out)["contracts"][0]
    except (ValueError, KeyError, IndexError):
        return CutCheck(problems=[f"no JSON report (exit {res.rc}): " + one_line(tail(res.err or res.out, 4))])
    groups = contract.get("chain_groups", [])
    found = CutCheck(
        chains=sum(group["chains"] for group in groups),
        first_group_cut=groups[0]["cut"] if groups else 0,
        cut_entries=len(contract.get("cut", [])),
    )
    if contract["verdict"] != "broken":
        found.problems.append(f"the contract is {contract['verdict']}: there is nothing to cut")
        return found
    copy = copy_package(project, env.scratch / "cut_check" / project.name)
    removals = [cut_removal(project, copy, entry) for entry in contract["cut"]]
    found.statements_removed, problems = source_edits.remove_imports(removals)
    found.problems += problems
    (copy.root / configs.layering).write_text(layering_config(copy, "cut"))
    after = run_untimed(env, copy, series, layering_cmd(env, configs) + ["--no-cache"])
    found.kept_after_removal = after.rc == 0 if after.rc in (0, 1) else None
    return found


def copy_package(project: Project, root: Path) -> Project:
    """A fresh copy of the project's package under `root`: its Python files, all the tools read
    (Home Assistant's wheel holds five times as many data files)."""
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    shutil.copytree(project.package_dir, root / project.package, ignore=non_python_files)
    return project.moved_to(root)


def non_python_files(directory: str, names: list[str]) -> list[str]:
    return [n for n in names if not n.endswith(".py") and not os.path.isdir(os.path.join(directory, n))]


def cut_removal(project: Project, copy: Project, entry: dict) -> source_edits.ImportToRemove:
    """The statements of one `cut` entry, in the copy (report paths are relative to the
    configuration's directory, or absolute)."""
    path = Path(entry["path"])
    if path.is_absolute():
        path = path.relative_to(project.root)
    return source_edits.ImportToRemove(copy.root / path, entry["importer"], entry["imported"], tuple(entry["lines"]))


# ---------------------------------------------------------------------------------------
# Issue 14: workload c after an edit (d1, d2, e), and the scaling table
# ---------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class EditTarget:
    """The file the edit workloads change, and the import d2 adds to it."""

    path: Path
    module: str
    added_import: str


def choose_edit_target(project: Project) -> EditTarget:
    """The middle module with a function; d2 imports into it the first module of c's lowest
    layer it does not import yet (importing the lowest layer is what the layers contract allows)."""
    path = source_edits.middle_module_with_function(project.package_dir)
    lowest_layer = project.workloads["c"]["layers"][-1]
    added = source_edits.first_module_not_imported(project.package_dir, lowest_layer, path)
    return EditTarget(path, source_edits.module_name(project.package_dir, path), added)


class EditedTree:
    """A project put back before every timed run to the state both tools were warmed on (the
    edited file's bytes and modification time, both cache directories), then edited."""

    def __init__(self, project: Project, caches: CacheDirs, target: EditTarget):
        self.project = project
        self.caches = caches
        self.target = target
        self.original = target.path.read_bytes()
        status = target.path.stat()
        self.times_ns = (status.st_atime_ns, status.st_mtime_ns)

    def reset(self) -> None:
        self.target.path.write_bytes(self.original)
        os.utime(self.target.path, ns=self.times_ns)
        for tool in CACHE_DIRS:
            self.caches.restore(tool)

    def body_edit(self) -> None:
        """d1: one function body changed, the file's imports as they were."""
        self.reset()
        source_edits.edit_function_body(self.target.path)

    def import_edit(self) -> None:
        """d2: the file gained one internal import."""
        self.reset()
        source_edits.append_import(self.target.path, self.target.added_import)

    def fresh_checkout(self) -> None:
        """e: the cache directories restored and every other file of the project given a new
        modification time, its bytes unchanged: a CI job's checkout of the same tree and its
        cache step, as both tools see them (setting the times, not rewriting the bytes, keeps
        each run's preparation to a fraction of a second)."""
        self.reset()
        now = time.time_ns()
        for path in self.project.root.rglob("*"):
            if path.is_file() and path.relative_to(self.project.root).parts[0] not in CACHE_DIRS.values():
                os.utime(path, ns=(now, now))


EDIT_MODES = ("cache", "no-cache")  # each tool with its warm cache; each tool without a cache


@dataclasses.dataclass
class EditResults:
    """What the edit workloads changed, the untimed warm-up runs, and each workload's series."""

    target: EditTarget
    warm_up: dict[str, ToolSeries]
    series: dict[str, Series] = dataclasses.field(default_factory=dict)
    phases: dict[str, dict[str, float] | None] = dataclasses.field(default_factory=dict)


def time_edit_workloads(env: Env, project: Project, workloads: list[str], repeat: int) -> EditResults:
    """Workload c after each edit of `workloads`: both tools with their caches (warm before the
    edit) and both without a cache, in one set of interleaved rounds per edit. The project is
    put back as it was at the end."""
    configs = write_configs(project, "c")
    caches = cache_dirs(env, project)
    tree = EditedTree(project, caches, choose_edit_target(project))
    lay, il = layering_cmd(env, configs), lint_imports_cmd(env, configs)
    results = EditResults(tree.target, {tool: tool_series(env, tool, "warm-up") for tool in ("layering", "import-linter")})
    warm_up(env, project, caches, [Timed(results.warm_up["layering"], lay), Timed(results.warm_up["import-linter"], il)])
    edits = {"d1": tree.body_edit, "d2": tree.import_edit, "e": tree.fresh_checkout}
    try:
        for workload in workloads:
            series = new_series(env, [(mode, tool) for mode in EDIT_MODES for tool in ("layering", "import-linter")])
            for mode in EDIT_MODES:
                for tool, s in series[mode].items():
                    s.error = s.error or results.warm_up[tool].error
            timed = [
                Timed(series["cache"]["layering"], lay, edits[workload]),
                Timed(series["cache"]["import-linter"], il, edits[workload]),
                Timed(series["no-cache"]["layering"], lay + ["--no-cache"], edits[workload]),
                Timed(series["no-cache"]["import-linter"], il + ["--no-cache"], edits[workload]),
            ]
            log(f"{project.name} {workload} (edited {tree.target.module}): {repeat} interleaved rounds")
            interleave(timed, project.root, repeat, env.env)
            log_medians(series)
            results.series[workload] = series
            results.phases[workload] = profile_phases(env, project, lay, edits[workload], f"{workload}")
    finally:
        tree.reset()
    return results


def time_corpus_edits(env: Env, corpus: str, cdir: Path, workloads: list[str], repeat: int) -> EditResults:
    """The edit workloads on a fresh copy of the corpus (the unzipped corpus stays as it is)."""
    copy = copy_package(corpus_project(corpus, cdir), env.scratch / "edits" / corpus)
    return time_edit_workloads(env, copy, workloads, repeat)


def scale_project(env: Env, modules: int) -> Project:
    root = env.scratch / "synthetic" / str(modules)
    log(f"synthetic package of {modules} modules (generated once, then reused)")
    synthetic.generate(root, modules)
    contracts = {"c": {"layers": synthetic.layer_names(), "independent": synthetic.independent_siblings()}}
    return Project(f"synthetic-{modules}", root, synthetic.PACKAGE, contracts)


def scale_rounds(modules: int, repeat: int) -> int:
    return repeat if modules <= SCALE_FULL_ROUNDS_UP_TO else max(1, repeat // 3)


def time_scaling(env: Env, repeat: int) -> dict[int, EditResults]:
    """Workload c's kind of contracts (layers + independence, both kept) on synthetic packages of
    growing size: cold (no cache) and d1, from the d1 rounds."""
    return {modules: time_edit_workloads(env, scale_project(env, modules), ["d1"], scale_rounds(modules, repeat))
            for modules in SCALE_SIZES}


# ---------------------------------------------------------------------------------------
# One corpus
# ---------------------------------------------------------------------------------------
@dataclasses.dataclass
class WorkloadResult:
    """A standard workload's timings, the issue 16 guard's rounds and cache-write profile, the
    cut check of issue 10 (workload cut only), and the untimed layering runs behind those."""

    series: Series
    tach_note: str
    guard: dict[str, ToolSeries]
    cache_writes: CacheWriteProfile
    untimed_runs: ToolSeries
    cut: CutCheck | None = None


# The guard decides on differences of a few percent of a run, which the machine's noise hides in
# the workloads' few rounds of six commands: it has rounds of its own, of the two runs it compares.
GUARD_ROUNDS = 15


def time_guard(env: Env, project: Project, configs: Configs) -> dict[str, ToolSeries]:
    """layering `--no-cache` and in the default mode from an empty cache, one after the other,
    the first of the two alternating, `GUARD_ROUNDS` rounds."""
    caches = cache_dirs(env, project)
    lay = layering_cmd(env, configs)
    guard = {"cold": tool_series(env, "layering", "cold"), "default": tool_series(env, "layering", "default")}
    log(f"{project.name}: the guard's {GUARD_ROUNDS} rounds")
    interleave([Timed(guard["cold"], lay + ["--no-cache"], lambda: caches.clear("layering")),
                Timed(guard["default"], lay, lambda: caches.clear("layering"))], project.root, GUARD_ROUNDS, env.env)
    return guard


def bench_standard_workload(env: Env, project: Project, workload: str, repeat: int) -> WorkloadResult:
    series, configs, tach_note = time_standard_workload(env, project, workload, repeat)
    guard = time_guard(env, project, configs)
    untimed = tool_series(env, "layering", "untimed")
    log(f"{project.name} {workload}: profiling the cache writes of one run from an empty cache")
    cache_writes = profile_cache_writes(env, project, configs, untimed)
    cut = None
    if workload == "cut":
        log(f"{project.name} cut: reading the cut and removing it from a copy of the code")
        cut = check_cut(env, project, configs, untimed)
    (project.root / "tach.toml").unlink(missing_ok=True)
    return WorkloadResult(series, tach_note, guard, cache_writes, untimed, cut)


def bench_corpus(env: Env, corpus: str, cdir: Path, sections: list[str], repeat: int, memory_rounds: int) -> dict:
    project = corpus_project(corpus, cdir)
    out: dict = {"files": sum(1 for _ in project.package_dir.rglob("*.py")), "standard": {}}
    for workload in STANDARD_WORKLOADS:
        if workload in sections and workload in project.workloads:
            out["standard"][workload] = bench_standard_workload(env, project, workload, repeat)
    edits = [w for w in EDIT_WORKLOADS if w in sections]
    if edits:
        out["edits"] = time_corpus_edits(env, corpus, cdir, edits, repeat)
    if "memory" in sections:
        out["memory"] = bench_memory(env, project, memory_rounds)
    return out


TIME_BIN = "/usr/bin/time"
START_LOAD = "n/a"


def measure_peak_kb(cmd: list[str], cwd: Path, env: dict) -> tuple[int | None, Run]:
    """Peak RSS (KiB) of `cmd`, and its run.

    Uses GNU time as a tiny launcher when present: a child forked straight from this (large)
    benchmark process would inherit this process's RSS high-water mark in ru_maxrss.
    """
    if os.path.exists(TIME_BIN):
        fd, tmp = tempfile.mkstemp(prefix="bench_rss_")
        os.close(fd)
        try:
            res = run([TIME_BIN, "-f", "%M", "-o", tmp] + cmd, cwd, env)
            text = Path(tmp).read_text().strip().splitlines()
        finally:
            os.unlink(tmp)
        try:
            return int(text[-1]), res
        except (IndexError, ValueError):
            return None, res
    res = run(cmd, cwd, env)
    return res.maxrss_kb, res


def bench_memory(env: Env, project: Project, rounds: int) -> dict:
    """Peak RSS of each tool on workload (c), cold and warm (separate, untimed runs)."""
    configs = write_configs(project, "c")
    tach_text, _ = write_tach_config(project, "c")
    caches = cache_dirs(env, project)
    lay, il = layering_cmd(env, configs), lint_imports_cmd(env, configs)
    out: dict = {}
    log(f"{project.name} c: peak memory, {rounds} rounds per tool and mode")
    for mode in ("cold", "warm"):
        extra = ["--no-cache"] if mode == "cold" else []
        cmds = {
            "layering": None if env.layering_install_error else lay + extra,
            "import-linter": il + extra,
            "tach": [env.exe("tach"), "check"] if tach_text else None,
        }
        recorded = {t: ToolSeries(t, mode) for t in TOOLS}  # exit codes (and stderr) of every run
        peaks: dict[str, list[int]] = {t: [] for t in TOOLS}
        if mode == "warm":
            for t, cmd in cmds.items():
                if cmd:
                    recorded[t].record(run(cmd, project.root, env.env), timed=False)
        for _ in range(rounds):
            for t, cmd in cmds.items():
                if not cmd or recorded[t].error:
                    continue
                if t == "layering" and mode == "cold":
                    caches.clear("layering")
                kb, res = measure_peak_kb(cmd, project.root, env.env)
                recorded[t].record(res, timed=False)
                if kb is not None and not recorded[t].error:
                    peaks[t].append(kb)
        out[mode] = {t: (max(v) if v else None) for t, v in peaks.items()}
        out[f"{mode} layering runs"] = recorded["layering"]
    (project.root / "tach.toml").unlink(missing_ok=True)
    out["method"] = "GNU time %M" if os.path.exists(TIME_BIN) else "wait4 ru_maxrss (includes the benchmark's own RSS as a floor)"
    return out


def bench_startup(env: Env, repeat: int) -> dict[str, ToolSeries]:
    series = new_series(env, [("start-up", t) for t in TOOLS])["start-up"]
    timed = [Timed(series[t], [env.exe(exe), "--version"]) for t, exe in zip(TOOLS, ("layering", "lint-imports", "tach"))]
    for t in timed:  # warm the bytecode caches (untimed)
        if not t.series.error:
            t.series.record(run(t.cmd, env.scratch, env.env), timed=False)
    log(f"start-up: {repeat} interleaved rounds")
    interleave(timed, env.scratch, repeat, env.env)
    return series


def bench_probes(env: Env, repeat: int) -> dict:
    pdir = env.scratch / "probes"
    pdir.mkdir(parents=True, exist_ok=True)
    site = run([str(env.python), "-c", "import django, os; print(os.path.dirname(os.path.dirname(django.__file__)))"],
               cwd=pdir, env=env.env).out.strip()
    rel_site = os.path.relpath(site, pdir)
    cfg = pdir / "contracts.toml"
    cfg.write_text(
        f'root_packages = ["django"]\nsource_roots = [{json.dumps(rel_site)}]\ncache_dir = ".layering_cache"\n\n'
        + render_contract({
            "id": "probe", "name": f"django modules must not load {PROBE_FORBIDDEN}", "type": "probe",
            "modules": PROBE_MODULES, "forbidden": [PROBE_FORBIDDEN],
        }, "contracts") + "\n"
    )
    lay = tool_series(env, "layering", "probes")
    naive = ToolSeries("naive", "probes")
    naive_verdicts: dict[str, str] = {}
    lay_outputs: list[str] = []
    lay_cmd = [env.exe("layering"), "check", "--config", cfg.name, "--no-cache"]
    if not lay.error:
        helptext = run([env.exe("layering"), "check", "--help"], pdir, env.env)
        if "json" in helptext.out + helptext.err:
            lay_cmd += ["--format", "json"]  # lets us compare verdicts module by module
    log(f"probes: {repeat} paired rounds (layering, then 20 sequential naive subprocesses)")
    for r in range(repeat):
        order = ["layering", "naive"] if r % 2 == 0 else ["naive", "layering"]
        for which in order:
            if which == "layering":
                if lay.error:
                    continue
                shutil.rmtree(pdir / ".layering_cache", ignore_errors=True)
                res = run(lay_cmd, pdir, env.env)
                lay.record(res)
                if not lay.error:
                    lay_outputs.append(res.out)
            else:
                t0 = time.perf_counter()
                rcs = []
                peak = 0
                for m in PROBE_MODULES:
                    res = run([str(env.python), "-c", NAIVE_PROBE.format(module=m, f=PROBE_FORBIDDEN)], pdir, env.env)
                    rcs.append(res.rc)
                    peak = max(peak, res.maxrss_kb)
                    naive_verdicts[m] = verdict_of(res.rc)
                naive.times.append(time.perf_counter() - t0)
                naive.rss.append(peak)
                naive.rcs.append(1 if any(rc == 1 for rc in rcs) else (0 if all(rc == 0 for rc in rcs) else 2))
    per_module = parse_probe_output(lay_outputs[-1]) if lay_outputs else {}
    return {"layering": lay, "naive": naive, "naive_verdicts": naive_verdicts, "layering_per_module": per_module}


def parse_probe_output(text: str) -> dict[str, str]:
    """Best effort: per-module probe verdicts from layering's output (JSON or text).

    Each offending module has a finding "LY020 importing <module> loads <forbidden>" (the
    `message` of a violation in JSON); the probe modules not named there are taken as clean.
    """
    messages: list[str] = []
    try:
        data = json.loads(text)
    except ValueError:
        messages = [text]
    else:
        def walk(node):
            if isinstance(node, dict):
                if isinstance(node.get("message"), str):
                    messages.append(node["message"])
                for v in node.values():
                    walk(v)
            elif isinstance(node, list):
                for v in node:
                    walk(v)
        walk(data)
        if not isinstance(data, dict) or "contracts" not in data:
            return {}
    named = set(re.findall(r"importing ([\w.]+) loads ", "\n".join(messages)))
    if not named and "KEPT" not in text and '"kept"' not in text:
        return {}
    return {m: ("broken" if m in named else "kept") for m in PROBE_MODULES}


# ---------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------
def machine_info() -> dict:
    cpu = ""
    try:
        for ln in Path("/proc/cpuinfo").read_text().splitlines():
            if ln.startswith("model name"):
                cpu = ln.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu_count": os.cpu_count(),
        "cpu_model": cpu or platform.processor() or "unknown",
        "python": platform.python_version(),
        "platform": platform.platform(terse=False),
        "loadavg": "%.2f %.2f %.2f" % os.getloadavg() if hasattr(os, "getloadavg") else "n/a",
    }




def table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines + [""]


def state(ok: bool | None) -> str:
    return "met" if ok else ("not met" if ok is False else "not measured")


def met(ok: bool | None) -> str:
    return f"**{state(ok)}**"


def all_met(oks: list[bool | None]) -> bool | None:
    """False if any is False, else None if any is unknown (or there are none), else True."""
    if False in oks:
        return False
    return None if (None in oks or not oks) else True


def at_most(value: float | None, limit: float) -> bool | None:
    return None if value is None else value <= limit


METHOD = """\
Whole-process wall time of each command, run with the project directory as cwd. All the
commands of one workload run interleaved (one round = each command once, the start rotated
every round), and each cell is the median over the rounds; ratios are layering's median / the
other tool's median (lower is better for layering). Verdict = exit code (0 kept, 1 broken).

Modes of workloads a, b, c and cut: **cold**: layering with its cache dir removed before every
run and `--no-cache`, import-linter with `--no-cache`; **default**: layering as a user runs it,
cache on, with its cache dir removed before every run (so it builds and writes its cache);
**warm**: each tool's cache dir put back, before every run, as one untimed run left it. The
default row compares with import-linter cold (stricter than import-linter from an empty cache,
which writes its cache too). tach has no cache for `tach check`: one run per round, shown in
every row.

Workloads d1, d2 and e (workload c's contracts) run on a copy of the corpus. Before every timed
run the edited file (bytes and modification time) and both cache dirs are put back as they were
after one untimed warm-up run of each tool, then the edit is made: so each tool sees its own
warm cache and the same edit. **d1** adds a `pass` statement at the end of a function body
(imports unchanged); **d2** appends an internal import; **e** gives every file of the project a
new modification time (same bytes) and restores the cache dirs, as a CI checkout of the same
tree and its cache step leave them. Each tool also runs without a cache in the same rounds.
"""


def write_report(path: Path, args, env: Env, corpora_info: dict, results: dict, scale, startup, probes) -> list[str]:
    L: list[str] = []
    now = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    mi = machine_info()
    partial = [flag for flag, on in (("--quick", args.quick), (f"--only {args.only}", args.only),
                                     (f"--only-workloads {args.only_workloads}", args.only_workloads)) if on]
    L.append("# layering benchmark results\n")
    L.append(f"Generated by `python bench/run.py` on {now}"
             + (f" (partial run: {' '.join(partial)})" if partial else "") + f"; {args.repeat} interleaved rounds per cell.\n")
    L.append("## Machine\n")
    L.append(f"- CPUs: {mi['cpu_count']} ({mi['cpu_model']})")
    L.append(f"- Python: bench venv (all tools) {env.versions.get('python (venv)', '?')} ({env.python_why}); "
             f"driver {mi['python']}")
    L.append(f"- Platform: {mi['platform']}")
    L.append(f"- Load average (1/5/15 min) at start: {START_LOAD}; at the end: {mi['loadavg']} "
             "(other work on the machine inflates absolute times; the interleaving keeps ratios fair)\n")
    L.append("## Tool versions\n")
    for k in ("layering", "import-linter", "grimp", "tach", "django"):
        extra = " (installed, for the probes)" if k == "django" else ""
        L.append(f"- {k}: {env.versions.get(k, '?')}{extra}")
    L.append("")
    L.append("## Corpora\n")
    L.append("Each wheel is unzipped and read from source (not installed).\n")
    L += table(["corpus", "wheel", ".py files"],
               [[name, info["wheel"], str(results.get(name, {}).get("files", "?"))] for name, info in corpora_info.items()])
    L.append("## Method\n")
    L.append(METHOD)
    L += standard_section(results)
    L += cache_guard_section(results)
    L += cut_section(results)
    L += edits_section(results)
    L += scale_section(scale)
    L += memory_section(results)
    L += startup_section(startup)
    probe_lines, probe_same = probes_section(probes)
    L += probe_lines
    L += verdict_section(results, scale, probes, probe_same)
    L.append("## Targets\n")
    L.append("What limits each goal missed, with the profiles behind it: `bench/LIMITS.md`.\n")
    L += speed_targets(results)
    L += cache_targets(results)
    L += cut_targets(results)
    L += earlier_targets(results, startup, probes)
    L += configurations_section(results, scale)
    # keep local paths out of the report (failure tails quote them)
    text = "\n".join(L).replace(str(env.scratch), "<scratch>").replace(str(REPO), "<repo>")
    text = text.replace(str(Path.home()), "~")
    path.write_text(text + "\n")
    return text.splitlines()


def standard_rows(workload: str, series: Series) -> list[list[str]]:
    tach = series["cold"]["tach"]
    il_of = {"cold": series["cold"]["import-linter"], "default": series["cold"]["import-linter"],
             "warm": series["warm"]["import-linter"]}
    rows = []
    for mode in MODES:
        lay, il = series[mode]["layering"], il_of[mode]
        il_cell = il.cell + (" (cold)" if mode == "default" else "")
        tach_cell = tach.cell + (" ≈" if workload == "c" and tach.med is not None else "")
        rows.append([workload, mode, lay.cell, il_cell, tach_cell, fmt_ratio(ratio(lay.med, il.med)),
                     fmt_ratio(ratio(lay.med, tach.med)), f"{lay.verdict} / {il.verdict} / {tach.verdict}"])
    return rows


def standard_section(results: dict) -> list[str]:
    L = ["## Timings: workloads a, b, c and cut\n"]
    for corpus, res in results.items():
        if not res["standard"]:
            continue
        L.append(f"### {corpus}\n")
        rows = [row for wl, wr in res["standard"].items() for row in standard_rows(wl, wr.series)]
        L += table(["workload", "mode", "layering", "import-linter", "tach", "layering/import-linter", "layering/tach",
                    "verdict layering / import-linter / tach"], rows)
        L += failures([(wl, s) for wl, wr in res["standard"].items() for by_tool in wr.series.values() for s in by_tool.values()]
                      + [(wl, s) for wl, wr in res["standard"].items() for s in wr.guard.values()]
                      + [(wl, wr.untimed_runs) for wl, wr in res["standard"].items()])
    L.append("tach notes: (b) and (cut) are n/a — tach checks direct imports only and cannot express a contract "
             "on indirect chains; (c) ≈ is an approximation (tach `layers` + `cannot_depend_on`, direct imports "
             "only), so its verdict may legitimately differ from import-linter's.\n")
    return L


def failures(where_series: list[tuple[str, ToolSeries]]) -> list[str]:
    errs: dict[str, list[str]] = {}
    for where, s in where_series:
        if s.error:
            errs.setdefault(s.error, []).append(f"{where} {s.mode}")
    if not errs:
        return []
    return ["Failures:\n"] + [f"- {', '.join(where)}: {msg}" for msg, where in errs.items()] + [""]


def paired_differences(a: ToolSeries, b: ToolSeries) -> list[float] | None:
    """`a`'s time less `b`'s, round by round (both run in each interleaved round: a slow spell
    of the machine slows both), sorted; None unless both have a time in every round."""
    if a.med is None or b.med is None or len(a.times) != len(b.times):
        return None
    return sorted(x - y for x, y in zip(a.times, b.times))


# The guard calls the default mode slower only where the rounds show it: more of them over the
# allowance than a fair coin would give in 1 run of 20 (a one-sided sign test). With the median
# alone, a cell whose two modes run the same code fails by chance, as often as not.
GUARD_SIGNIFICANCE = 0.05


def rounds_over(a: ToolSeries, b: ToolSeries, allowance: float | None = 0.0) -> tuple[int, int] | None:
    """In how many of their rounds `a` took longer than `b` plus `allowance`, and of how many
    rounds; None when a time or the allowance is missing."""
    differences = paired_differences(a, b)
    if differences is None or allowance is None:
        return None
    return sum(d > allowance for d in differences), len(differences)


def sign_test(over: int, rounds: int) -> float:
    """The chance that `over` or more of `rounds` fair coin flips come up heads: how often so
    many rounds would be over if the one run were not slower than the other."""
    return sum(math.comb(rounds, k) for k in range(over, rounds + 1)) / 2**rounds


def shown_slower(a: ToolSeries, b: ToolSeries, allowance: float | None = 0.0) -> bool | None:
    """Whether the rounds show `a` slower than `b` plus `allowance`: over it in so many of their
    rounds that a fair coin would give as many heads in fewer than `GUARD_SIGNIFICANCE` of runs."""
    counted = rounds_over(a, b, allowance)
    return None if counted is None else sign_test(*counted) < GUARD_SIGNIFICANCE


def guard_holds(wr: WorkloadResult) -> bool | None:
    """Issue 16: the default mode is slower than `--no-cache` by at most the cache-write time;
    it fails only where the rounds show it (`GUARD_SIGNIFICANCE`)."""
    shown = shown_slower(wr.guard["default"], wr.guard["cold"], wr.cache_writes.seconds)
    return None if shown is None else not shown


def guard_cell(wr: WorkloadResult) -> str:
    """The guard's verdict; "within noise" where the median of the differences is over the
    allowance but too few rounds are to show it."""
    counted = rounds_over(wr.guard["default"], wr.guard["cold"], wr.cache_writes.seconds)
    verdict = met(guard_holds(wr))
    if counted is None:
        return verdict
    over, rounds = counted
    if over * 2 > rounds and guard_holds(wr):
        verdict += " (within noise)"
    return f"{verdict}: {over} of {rounds} rounds over"


def fmt_differences(differences: list[float] | None) -> str:
    """The median of the rounds' differences, with the middle half of them."""
    if not differences:
        return "n/a"
    quarter = len(differences) // 4
    return f"{fmt_signed(median(differences))} ({fmt_signed(differences[quarter])} to {fmt_signed(differences[-1 - quarter])})"


def cache_guard_section(results: dict) -> list[str]:
    L = ["## Issue 16: the cache's guard (default mode from an empty cache vs `--no-cache`)\n",
         "The default mode may be slower than `--no-cache` by at most the time it takes to write the cache. "
         "That time is the cumulative time of the cache-writing functions (hashing the files, signing what grimp "
         "read, computing what only the cache holds: what each contract reaches, the verdicts as stored; "
         "encoding and writing it all) in one untimed run from an empty cache of `python -m layering check` "
         "under cProfile, out of the whole profiled run. In a user's run most of that work is done by a builder "
         "beside the run, which the run's profile cannot see, so the profiled run builds its cache in its own "
         "process (the builder's fallback). cProfile slows Python code down, so the allowance is generous "
         "rather than tight. The two modes are timed in "
         f"{GUARD_ROUNDS} rounds of their own, one after the other (which first alternates); the difference is "
         "the median of the rounds' differences (default less `--no-cache`), with the middle half of them in "
         "brackets: the machine's noise. The guard fails where the rounds show the default mode slower than "
         "that: so many rounds over the allowance that a fair coin would give as many heads in fewer than "
         f"{GUARD_SIGNIFICANCE:.0%} of runs (a one-sided sign test; 12 or more of 15). \"Within noise\" marks a "
         "cell whose median is over the allowance in fewer rounds than that.\n"]
    rows = []
    functions: set[str] = set()
    notes: set[str] = set()
    for corpus, res in results.items():
        for wl, wr in res["standard"].items():
            cold, default = wr.guard["cold"].med, wr.guard["default"].med
            writes = wr.cache_writes
            differences = paired_differences(wr.guard["default"], wr.guard["cold"])
            rows.append([corpus, wl, fmt_s(cold), fmt_s(default), fmt_ratio(ratio(default, cold)), fmt_differences(differences),
                         cache_write_cell(writes), guard_cell(wr)])
            functions.update(writes.functions)
            if writes.note:
                notes.add(f"{corpus} {wl}: {writes.note}")
    if not rows:
        return L[:1] + ["(skipped)\n"]
    L += table(["corpus", "workload", "layering --no-cache", "default, from empty", "default/--no-cache", "difference (rounds)",
                "cache writes (profiled run)", "guard"], rows)
    L.append("Cache-writing functions found in the profiles: " + (", ".join(f"`{f}`" for f in sorted(functions)) or "none") + ".\n")
    L += [f"- {note}" for note in sorted(notes)] + ([""] if notes else [])
    return L


def cache_write_cell(writes: CacheWriteProfile) -> str:
    if writes.seconds is None:
        return "n/a"
    written = "" if writes.cache_written else " (no cache written)"
    return f"{fmt_s(writes.seconds)} of {fmt_s(writes.profiled_total)}{written}"


def fmt_signed(x: float | None) -> str:
    if x is None:
        return "n/a"
    return ("+" if x >= 0 else "-") + fmt_s(abs(x))


def cut_section(results: dict) -> list[str]:
    L = ["## Issue 10: reports that name the imports to cut\n"]
    shape, timing = [], []
    for corpus, res in results.items():
        wr = res["standard"].get("cut")
        if wr is None:
            continue
        w = CORPORA[corpus]["cut"]
        lay, il = wr.series["default"]["layering"], wr.series["cold"]["import-linter"]
        cut = wr.cut
        shape.append([corpus, f"`{w['source']}` -> `{w['forbidden']}`", str(cut.chains),
                      f"{cut.first_group_cut} / {cut.cut_entries}", str(CUT_MINIMUM[corpus]),
                      f"{first(lay.report_lines)} / {first(il.report_lines)}", f"{lay.verdict} / {il.verdict}",
                      f"{yes_no(cut.kept_after_removal)} ({cut.statements_removed} statements)"])
        s = wr.series
        timing.append([corpus, s["cold"]["layering"].cell, s["default"]["layering"].cell, s["warm"]["layering"].cell,
                       s["cold"]["import-linter"].cell, s["warm"]["import-linter"].cell,
                       fmt_ratio(ratio(s["cold"]["layering"].med, s["cold"]["import-linter"].med)),
                       fmt_ratio(ratio(s["default"]["layering"].med, s["cold"]["import-linter"].med)),
                       fmt_ratio(ratio(s["warm"]["layering"].med, s["warm"]["import-linter"].med))])
    if not shape:
        return L + ["(skipped)\n"]
    L.append("One `forbidden` contract with chains per corpus. Report lines: the text report at default "
             "settings (layering in default mode, lint-imports). Chains and cut from layering's "
             "`--format json` (`chain_groups[0].cut` / entries of `cut`). Then each import statement of the "
             "`cut` is replaced by `pass` in a copy of the package and `layering check` runs on the copy.\n")
    L += table(["corpus", "contract", "chains", "cut (first group / entries)", "minimum (issue)",
                "report lines layering / lint-imports", "verdict layering / lint-imports",
                "removing the cut keeps the contract"], shape)
    L += table(["corpus", "layering cold", "layering default, from empty", "layering warm", "lint-imports cold",
                "lint-imports warm", "cold / cold", "default / lint-imports cold", "warm / warm"], timing)
    for corpus, res in results.items():
        problems = res["standard"]["cut"].cut.problems if "cut" in res["standard"] else []
        if problems:
            L.append(f"{corpus}: problems while checking the cut:\n")
            L += [f"- {p}" for p in problems[:10]]
            L += [f"- ... and {len(problems) - 10} more" for _ in problems[10:11]]
            L.append("")
    return L


def first(values: list[int]) -> str:
    return str(values[0]) if values else "n/a"


def yes_no(value: bool | None) -> str:
    return "n/a" if value is None else ("yes" if value else "no")


def edit_row(name: str, series: Series) -> list[str]:
    cache, nocache = series["cache"], series["no-cache"]
    lay, il = cache["layering"], cache["import-linter"]
    return [name, lay.cell, il.cell, fmt_ratio(ratio(lay.med, il.med)), nocache["layering"].cell,
            nocache["import-linter"].cell, fmt_ratio(ratio(lay.med, nocache["layering"].med)),
            f"{lay.verdict} / {il.verdict}"]


def edit_series(corpus_result: dict) -> dict[str, Series]:
    """The series of each edit workload run on a corpus."""
    return corpus_result["edits"].series if "edits" in corpus_result else {}


def all_series(edits: EditResults) -> list[tuple[str, ToolSeries]]:
    """(workload, series) of every run of the edit workloads, the warm-up's too."""
    return [("warm-up", s) for s in edits.warm_up.values()] + [
        (wl, s) for wl, by_mode in edits.series.items() for by_tool in by_mode.values() for s in by_tool.values()
    ]


EDIT_HEADER = ["workload", "layering", "lint-imports", "layering/lint-imports", "layering --no-cache",
               "lint-imports --no-cache", "layering cache/--no-cache", "verdict layering / lint-imports"]


def edits_section(results: dict) -> list[str]:
    L = ["## Issue 14: workload c after an edit (d1, d2, e)\n"]
    shown = False
    for corpus, res in results.items():
        if "edits" not in res:
            continue
        shown = True
        target = res["edits"].target
        L.append(f"### {corpus}\n")
        L.append(f"Edited module: `{target.module}`; d2 adds `import {target.added_import}`.\n")
        L += table(EDIT_HEADER, [edit_row(wl, series) for wl, series in edit_series(res).items()])
        L += failures(all_series(res["edits"]))
        L += phase_table(res["edits"].phases)
    return L if shown else L + ["(skipped)\n"]


def phase_table(phases: dict[str, dict[str, float] | None]) -> list[str]:
    """Where layering's time goes in each edit workload: one more run of it under cProfile
    (which slows Python code, not grimp's Rust scanner), each part's cumulative time."""
    shown = {wl: parts for wl, parts in phases.items() if parts}
    if not shown:
        return []
    labels = ["profiled run"] + [label for label, _ in PHASES if any(parts.get(label) for parts in shown.values())]
    rows = [[label] + [f"{shown[wl].get(label, 0) * 1000:.0f} ms" for wl in shown] for label in labels]
    return ["Where layering's time goes (one more run of each workload under cProfile; parts overlap where one "
            "calls another, e.g. an import made while deciding):\n"] + table(["part"] + list(shown), rows)


def scale_section(scale: dict | None) -> list[str]:
    L = ["## Issue 14: scaling (synthetic layered packages, layers + independence, both kept)\n"]
    if not scale:
        return L + ["(skipped)\n"]
    L.append(f"`{synthetic.PACKAGE}`: {synthetic.LAYERS} layers, subpackages of {synthetic.PACKAGE_SIZE} modules, "
             f"each module importing {synthetic.IMPORTS_PER_MODULE} modules of lower layers and defining "
             f"{synthetic.FUNCTIONS_PER_MODULE} functions. cold = `--no-cache`; d1 = after a body edit, both tools "
             f"warm before (packages above {SCALE_FULL_ROUNDS_UP_TO:,} modules get a third of the rounds).\n")
    rows = []
    for modules, res in scale.items():
        s = res.series["d1"]
        lay_cold, il_cold = s["no-cache"]["layering"], s["no-cache"]["import-linter"]
        lay_d1, il_d1 = s["cache"]["layering"], s["cache"]["import-linter"]
        rows.append([f"{modules:,}", lay_cold.cell, il_cold.cell, fmt_ratio(ratio(lay_cold.med, il_cold.med)),
                     lay_d1.cell, il_d1.cell, fmt_ratio(ratio(lay_d1.med, il_d1.med)),
                     f"{lay_d1.verdict} / {il_d1.verdict}"])
    L += table(["modules", "layering cold", "lint-imports cold", "cold ratio", "layering d1", "lint-imports d1",
                "d1 ratio", "verdict layering / lint-imports"], rows)
    L += growth_lines(scale)
    L += failures([(f"{m:,} modules {wl}", s) for m, res in scale.items() for wl, s in all_series(res)])
    return L


def growth_lines(scale: dict) -> list[str]:
    sizes = list(scale)
    if len(sizes) < 2:
        return []
    small, large = sizes[0], sizes[-1]
    parts = []
    for label, mode, tool in (("layering cold", "no-cache", "layering"), ("lint-imports cold", "no-cache", "import-linter"),
                              ("layering d1", "cache", "layering"), ("lint-imports d1", "cache", "import-linter")):
        times = [scale[m].series["d1"][mode][tool].med for m in (small, large)]
        parts.append(f"{label} {fmt_ratio(ratio(times[1], times[0]))}")
    return [f"Growth from {small:,} to {large:,} modules ({large // small}x the modules): " + ", ".join(parts) + ".\n"]


def memory_section(results: dict) -> list[str]:
    memory = {corpus: res["memory"] for corpus, res in results.items() if "memory" in res}
    L = ["## Peak memory (max RSS, workload c)\n"]
    if not memory:
        return L + ["(skipped)\n"]
    L.append(f"Separate untimed runs, max over the rounds; measured with {next(iter(memory.values()))['method']}.\n")
    rows = [[corpus, mode] + ["n/a" if mem[mode].get(t) is None else f"{mem[mode][t] / 1024:.0f} MiB" for t in TOOLS]
            for corpus, mem in memory.items() for mode in ("cold", "warm")]
    return L + table(["corpus", "mode", *TOOLS], rows)


def startup_section(startup: dict | None) -> list[str]:
    L = ["## Start-up (`--version`)\n"]
    if not startup:
        return L + ["(skipped)\n"]
    lay, il, ta = startup["layering"], startup["import-linter"], startup["tach"]
    L += table(["layering", "import-linter", "tach", "layering/import-linter"],
               [[lay.cell, il.cell, ta.cell, fmt_ratio(ratio(lay.med, il.med))]])
    return L + ([lay.error, ""] if lay.error else [])


def probes_section(probes: dict | None) -> tuple[list[str], bool | None]:
    L = ["## Runtime probes (20 installed Django modules must not load django.db)\n"]
    if not probes:
        return L + ["(skipped)\n"], None
    lay, naive = probes["layering"], probes["naive"]
    nb = sorted(m for m, v in probes["naive_verdicts"].items() if v == "broken")
    L.append("One `layering check` on a config with one probe contract over 20 modules, versus the naive "
             "way: 20 sequential `python -c \"import X, sys; ...'django.db' in sys.modules...\"` subprocesses. "
             "layering runs with `--no-cache` (probe results are not reused).\n")
    L += table(["layering", "naive (20 subprocesses)", "layering/naive", "verdict layering / naive"],
               [[lay.cell, naive.cell, fmt_ratio(ratio(lay.med, naive.med)), f"{lay.verdict} / {naive.verdict}"]])
    L.append(f"Naive verdicts: {len(nb)} of {len(PROBE_MODULES)} modules load django.db: {', '.join(nb)}.")
    if lay.error:
        return L + [f"\n{lay.error}", ""], None
    per = probes["layering_per_module"]
    if per and len(per) == len(PROBE_MODULES):
        diff = [m for m in PROBE_MODULES if per[m] != probes["naive_verdicts"].get(m)]
        same = not diff and lay.verdict == naive.verdict
        L.append("Per-module verdicts " + ("identical." if not diff else f"DIFFER on: {', '.join(diff)}."))
    else:
        same = lay.verdict == naive.verdict
        L.append(f"Per-module verdicts could not be read from layering's output (found {len(per)}); "
                 "compared the contract verdict only: " + ("identical." if same else "DIFFERENT."))
    return L + [""], same


def compared_pairs(results: dict, scale: dict | None) -> list[tuple[str, ToolSeries, ToolSeries]]:
    """Every (where, layering series, lint-imports series) whose verdicts must agree."""
    pairs = []
    for corpus, res in results.items():
        for wl, wr in res["standard"].items():
            for mode in MODES:
                il_mode = "warm" if mode == "warm" else "cold"
                pairs.append((f"{corpus} {wl} {mode}", wr.series[mode]["layering"], wr.series[il_mode]["import-linter"]))
        for wl, series in edit_series(res).items():
            for mode in EDIT_MODES:
                pairs.append((f"{corpus} {wl} {mode}", series[mode]["layering"], series[mode]["import-linter"]))
    for modules, res in (scale or {}).items():
        for mode in EDIT_MODES:
            s = res.series["d1"][mode]
            pairs.append((f"synthetic {modules:,} d1 {mode}", s["layering"], s["import-linter"]))
    return pairs


def verdict_section(results: dict, scale: dict | None, probes, probe_same: bool | None) -> list[str]:
    L = ["## Verdict check (layering vs import-linter, every workload and mode)\n"]
    checked, diffs = 0, []
    for where, lay, il in compared_pairs(results, scale):
        if lay.error or il.error:
            diffs.append(f"{where}: not compared (a tool failed, see Failures)")
        else:
            checked += 1
            if lay.verdict != il.verdict:
                diffs.append(f"{where}: layering {lay.verdict}, import-linter {il.verdict}")
    real = [d for d in diffs if "not compared" not in d]
    if checked and not diffs:
        L.append(f"**verdicts identical** ({checked} cells compared).")
    elif real:
        L.append(f"**verdicts differ** in {len(real)} of {checked} compared cells:\n")
    else:
        L.append(f"No differences in {checked} compared cells, but some cells could not be compared:\n")
    L += [f"- {d}" for d in diffs]
    if probes:
        L.append(f"\nProbes: {'identical' if probe_same else ('not compared' if probe_same is None else 'DIFFERENT')}.")
    return L + [""]


def target_line(label: str, ok: bool | None, detail: str) -> str:
    return f"- {label}: {met(ok)} — {detail}"


def standard_med(results: dict, corpus: str, wl: str, mode: str, tool: str) -> float | None:
    wr = results[corpus]["standard"].get(wl)
    return wr.series[mode][tool].med if wr else None


def speed_targets(results: dict) -> list[str]:
    """Issue 14's table: layering / lint-imports on every corpus (a, b, c cold; d1, d2, e cached)."""
    L = ["### Issue 14: speed where users wait (layering / lint-imports, every corpus)\n"]
    for wl, goal in SPEED_GOALS.items():
        parts, oks = [], []
        for corpus, res in results.items():
            if wl in STANDARD_WORKLOADS:
                r = ratio(standard_med(results, corpus, wl, "cold", "layering"), standard_med(results, corpus, wl, "cold", "import-linter"))
            elif wl in edit_series(res):
                cached = edit_series(res)[wl]["cache"]
                r = ratio(cached["layering"].med, cached["import-linter"].med)
            else:
                r = None
            limit = SPEED_GOAL_EXCEPTIONS.get((wl, corpus), goal)
            parts.append(f"{corpus} {fmt_ratio(r)}" + (f" (goal {limit:.2f}x)" if limit != goal else ""))
            oks.append(at_most(r, limit))
        L.append(target_line(f"{wl} ({SPEED_GOAL_MODES[wl]}) <= {goal:.2f}x", all_met(oks), ", ".join(parts)))
    return L + [""]


def cache_targets(results: dict) -> list[str]:
    L = ["### Issue 16: the cache never costs more than it saves\n"]
    parts, oks = [], []
    for corpus, res in results.items():
        for wl, wr in res["standard"].items():
            oks.append(guard_holds(wr))
            parts.append(f"{corpus} {wl} {state(oks[-1])}")
    L.append(target_line("guard: default from empty <= `--no-cache` + cache-write time, every workload", all_met(oks), ", ".join(parts) or "n/a"))
    slower, within_noise = [], []
    oks = []
    for corpus, res in results.items():
        # the default mode from an empty cache writes the cache: the guard above is its rule
        cells = [(f"{corpus} {wl} warm", wr.series["warm"]["layering"], wr.series["cold"]["layering"]) for wl, wr in res["standard"].items()]
        cells += [(f"{corpus} {wl}", series["cache"]["layering"], series["no-cache"]["layering"]) for wl, series in edit_series(res).items()]
        for where, cached, uncached in cells:
            shown = shown_slower(cached, uncached)
            oks.append(None if shown is None else not shown)
            r = ratio(cached.med, uncached.med)
            if oks[-1] is not True:
                slower.append(f"{where} {fmt_ratio(r)}")
            elif r is not None and r > 1.0:
                within_noise.append(f"{where} {fmt_ratio(r)}")
    detail = ("slower or unmeasured: " + ", ".join(slower)) if slower else f"{len(oks)} cells, none shown slower"
    if within_noise:
        detail += "; over 1.00x within noise (too few rounds slower to show it): " + ", ".join(within_noise)
    L.append(target_line("no workload slower with a cache to use than with `--no-cache` (warm, d1, d2, e)", all_met(oks), detail))
    r = ratio(standard_med(results, "transformers", "cut", "default", "layering"),
              standard_med(results, "transformers", "cut", "cold", "import-linter")) if "transformers" in results else None
    L.append(target_line("transformers cut, default mode from an empty cache <= lint-imports (cold)", at_most(r, 1.0), fmt_ratio(r)))
    return L + [""]


def cut_targets(results: dict) -> list[str]:
    L = ["### Issue 10: reports that scale\n"]
    cuts = {corpus: res["standard"]["cut"] for corpus, res in results.items() if "cut" in res["standard"]}
    if not cuts:
        return L + ["(cut workload not run)", ""]

    def each(check: Callable[[str, WorkloadResult], tuple[bool | None, str]]) -> tuple[bool | None, str]:
        found = [check(corpus, wr) for corpus, wr in cuts.items()]
        return all_met([ok for ok, _ in found]), ", ".join(f"{corpus} {text}" for corpus, (_, text) in zip(cuts, found))

    def lines(corpus, wr):
        n = wr.series["default"]["layering"].report_lines
        return (at_most(n[0], CUT_REPORT_MAX_LINES) if n else None), first(n)

    def size(corpus, wr):
        got = wr.cut.first_group_cut
        return (None if got is None else got == CUT_MINIMUM[corpus]), f"{got} (minimum {CUT_MINIMUM[corpus]})"

    def removal(corpus, wr):
        return wr.cut.kept_after_removal, yes_no(wr.cut.kept_after_removal)

    def faster(mode):
        def check(corpus, wr):
            r = ratio(wr.series[mode]["layering"].med, wr.series["cold"]["import-linter"].med)
            return at_most(r, 1.0), fmt_ratio(r)
        return check

    L.append(target_line(f"text report at default settings <= {CUT_REPORT_MAX_LINES} lines", *each(lines)))
    L.append(target_line("cut size equals the minimum", *each(size)))
    L.append(target_line("removing the cut keeps the contract", *each(removal)))
    L.append(target_line("layering default from an empty cache <= lint-imports (cold)", *each(faster("default"))))
    L.append(target_line("layering cold <= lint-imports cold", *each(faster("cold"))))
    return L + [""]


def earlier_targets(results: dict, startup, probes) -> list[str]:
    """The targets this benchmark was first written for."""
    L = ["### Earlier targets\n"]

    def check_all(wl, mode, tool, limit):
        parts, oks = [], []
        for corpus in results:
            r = ratio(standard_med(results, corpus, wl, mode, "layering"), standard_med(results, corpus, wl, mode, tool))
            parts.append(f"{corpus} {fmt_ratio(r)}")
            oks.append(at_most(r, limit))
        return all_met(oks), ", ".join(parts)

    L.append(target_line("(a) <= 0.10x import-linter cold, every corpus", *check_all("a", "cold", "import-linter", 0.10)))
    L.append(target_line("(a) <= 0.25x tach (layering cold), every corpus", *check_all("a", "cold", "tach", 0.25)))
    L.append(target_line("(b) <= 0.70x import-linter cold, every corpus", *check_all("b", "cold", "import-linter", 0.70)))
    L.append(target_line("(c) <= 0.60x import-linter cold, every corpus", *check_all("c", "cold", "import-linter", 0.60)))
    r = ratio(standard_med(results, "homeassistant", "c", "warm", "layering"),
              standard_med(results, "homeassistant", "c", "warm", "import-linter")) if "homeassistant" in results else None
    L.append(target_line("(c) homeassistant warm <= 0.60x import-linter warm", at_most(r, 0.60), fmt_ratio(r)))
    r = startup and ratio(startup["layering"].med, startup["import-linter"].med)
    L.append(target_line("start-up <= 0.35x import-linter", at_most(r, 0.35), fmt_ratio(r) if startup else "skipped"))
    r = probes and ratio(probes["layering"].med, probes["naive"].med)
    L.append(target_line("probes <= 0.35x naive", at_most(r, 0.35), fmt_ratio(r) if probes else "skipped"))
    mem = results.get("homeassistant", {}).get("memory")
    if mem is None:
        L.append(target_line("peak memory <= import-linter on homeassistant (c)", None, "not measured"))
    else:
        parts, oks = [], []
        for m in ("cold", "warm"):
            lay, il = mem[m].get("layering"), mem[m].get("import-linter")
            oks.append(None if lay is None or il is None else lay <= il)
            parts.append(f"{m}: not measured" if oks[-1] is None else
                         f"{m}: layering {lay / 1024:.0f} MiB vs import-linter {il / 1024:.0f} MiB")
        L.append(target_line("peak memory <= import-linter on homeassistant (c), cold and warm", all_met(oks), "; ".join(parts)))
    return L + [""]


def configurations_section(results: dict, scale: dict | None) -> list[str]:
    L = ["## Configurations\n",
         "The exact files are written into each project dir in the scratch directory as "
         "`bench_<w>.layering.toml`, `bench_<w>.importlinter.toml`, `bench_<w>.tach.toml`.\n"]
    for corpus in results:
        c = CORPORA[corpus]
        cut = f"; (cut) `{c['cut']['source']}` must not import `{c['cut']['forbidden']}` (indirect too)" if "cut" in c else ""
        L.append(f"- **{corpus}**: (a) `{c['a']['source']}` must not import `{c['a']['forbidden']}` (direct only); "
                 f"(b) `{c['b']['source']}` must not import `{c['b']['forbidden']}` (indirect too); "
                 f"(c) layers {' > '.join('`%s`' % x for x in c['c']['layers'])}, independence of "
                 f"{', '.join('`%s`' % x for x in c['c']['independent'])}{cut}.")
    if scale:
        L.append(f"- **synthetic**: layers {' > '.join('`%s`' % x for x in synthetic.layer_names())}, independence of "
                 f"{', '.join('`%s`' % x for x in synthetic.independent_siblings())}.")
    return L + [""]


def jsonable(x):
    """The results as JSON data: series with all their runs, dataclasses as objects."""
    if isinstance(x, ToolSeries):
        return x.to_json()
    if dataclasses.is_dataclass(x):
        return {f.name: jsonable(getattr(x, f.name)) for f in dataclasses.fields(x)}
    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if isinstance(x, Path):
        return str(x)
    return x


def dump_json(path: Path, env: Env, results: dict, scale, startup, probes) -> None:
    path.write_text(json.dumps(jsonable({"versions": env.versions, "machine": machine_info(), "results": results,
                                         "scale": scale, "startup": startup, "probes": probes}), indent=1))


# ---------------------------------------------------------------------------------------
def run_on_bench_python(python: str, argv: list[str]) -> None:
    """Re-run this script on the bench interpreter when the running one is older than the
    corpora's syntax: the source edits parse the corpora with `ast`."""
    running, chosen = sys.version_info[:2], python_version_of(python)
    if running >= MIN_PYTHON or chosen is None or chosen[:2] < MIN_PYTHON or os.environ.get("BENCH_REEXECUTED"):
        return
    log(f"re-running the benchmark on Python {'.'.join(map(str, chosen))} ({python}): "
        "the source edits parse the corpora, which need its syntax")
    os.environ["BENCH_REEXECUTED"] = "1"
    os.execv(python, [python, str(Path(__file__).resolve()), *argv])


def selected(ap: argparse.ArgumentParser, text: str, choices, what: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()] or list(choices)
    unknown = [n for n in names if n not in choices]
    if unknown:
        ap.error(f"unknown {what} {unknown}; choose from {list(choices)}")
    return names


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scratch", type=Path, default=REPO / ".bench_scratch",
                    help="scratch directory (venv, wheels, corpora); default .bench_scratch/ in the repo root")
    ap.add_argument("--repeat", type=int, default=None, help="interleaved rounds per cell (default 7, 3 with --quick)")
    ap.add_argument("--only", default="", help="comma-separated corpora to run (default: all of %s)" % ", ".join(CORPORA))
    ap.add_argument("--only-workloads", default="",
                    help="comma-separated parts to run (default: all of %s)" % ", ".join(SECTIONS))
    ap.add_argument("--quick", action="store_true", help="fewer rounds (3), fewer start-up rounds and probe rounds")
    ap.add_argument("--results", type=Path, default=BENCH / "RESULTS.md", help="where to write the Markdown report")
    ap.add_argument("--skip-repo-install", action="store_true",
                    help="do not (re)install the repository; use the `layering` already in the bench venv")
    ap.add_argument("--python", default=None,
                    help="interpreter for the bench venv (default: the running one if >= 3.13, else the newest >= 3.13 found)")
    ap.add_argument("--no-startup", action="store_true", help="skip the start-up comparison")
    ap.add_argument("--no-probes", action="store_true", help="skip the runtime-probe comparison")
    args = ap.parse_args(argv)
    if args.repeat is None:
        args.repeat = 3 if args.quick else 7
    names = selected(ap, args.only, CORPORA, "corpus")
    sections = [s for s in selected(ap, args.only_workloads, SECTIONS, "workload")
                if not (s == "startup" and args.no_startup) and not (s == "probes" and args.no_probes)]

    py, why = choose_python(args.python)
    run_on_bench_python(py, argv)
    global START_LOAD
    START_LOAD = machine_info()["loadavg"]
    env = Env(args.scratch.resolve(), py, why)
    env.setup_venv(skip_repo=args.skip_repo_install)
    env.read_versions()
    log("versions: " + ", ".join(f"{k} {v}" for k, v in env.versions.items()))

    corpora_info = {}
    for n in names:
        cdir, wheel = env.fetch_corpus(n)
        corpora_info[n] = {"dir": cdir, "wheel": wheel}

    memory_rounds = 2 if args.quick else 3
    results = {n: bench_corpus(env, n, corpora_info[n]["dir"], sections, args.repeat, memory_rounds) for n in names}
    scale = time_scaling(env, args.repeat) if "scale" in sections else None
    startup = bench_startup(env, 5 if args.quick else max(10, args.repeat)) if "startup" in sections else None
    probes = bench_probes(env, 2 if args.quick else max(3, min(args.repeat, 5))) if "probes" in sections else None

    lines = write_report(args.results, args, env, corpora_info, results, scale, startup, probes)
    dump_json(env.scratch / "results.json", env, results, scale, startup, probes)
    log(f"wrote {args.results}")
    start = next(i for i, ln in enumerate(lines) if ln.startswith("## Timings"))
    print("\n".join(lines[start:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
