#!/usr/bin/env python3
"""Benchmark `layering` against import-linter and tach on real packages.

Run from the repository root:

    python bench/run.py [--scratch DIR] [--repeat N] [--only CORPUS[,CORPUS]] [--quick]

Everything it needs is built in a scratch directory (default `.bench_scratch/` in the
repository root): a virtual environment holding this repository, import-linter, tach and
Django, and the wheels of the corpora (Django, SymPy, Transformers, Home Assistant), unzipped
so each package is read from source, never installed.  Downloads and the tool install are
cached across runs; the repository itself is reinstalled on every run.

Each tool runs as its own process with the corpus directory as the working directory; the
timed quantity is whole-process wall time.  Runs are interleaved (layering, import-linter,
tach, then again with the start rotated) so that drift on the machine hits all tools alike.
The script writes `bench/RESULTS.md` (or `--results PATH`) and a JSON dump beside it in the
scratch directory.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
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
from pathlib import Path

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
# a: one forbidden contract on ONE module, direct imports only.
# b: one forbidden contract subpackage -> subpackage, indirect chains count.
# c: one layers contract over 4-5 subpackages plus one independence contract.
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
WORKLOADS = ("a", "b", "c")
WORKLOAD_TITLES = {
    "a": "(a) forbidden, one module, direct imports only",
    "b": "(b) forbidden, subpackage to subpackage, indirect chains",
    "c": "(c) layers over 4-5 subpackages + independence",
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
# Config writers
# ---------------------------------------------------------------------------------------
def toml_list(xs: list[str]) -> str:
    return "[" + ", ".join(json.dumps(x) for x in xs) + "]"


def contracts_for(corpus: str, workload: str) -> list[dict]:
    c = CORPORA[corpus]
    w = c[workload]
    if workload == "a":
        return [{
            "id": "a", "name": f"{w['source']} must not import {w['forbidden']} (direct)",
            "type": "forbidden", "source_modules": [w["source"]], "forbidden_modules": [w["forbidden"]],
            "allow_indirect_imports": True,
        }]
    if workload == "b":
        return [{
            "id": "b", "name": f"{w['source']} must not import {w['forbidden']} (indirect too)",
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


def layering_config(corpus: str, workload: str) -> str:
    pkg = CORPORA[corpus]["package"]
    head = f'root_packages = ["{pkg}"]\nsource_roots = ["."]\ncache_dir = ".layering_cache"\n'
    return head + "\n" + "\n\n".join(render_contract(c, "contracts") for c in contracts_for(corpus, workload)) + "\n"


def importlinter_config(corpus: str, workload: str) -> str:
    pkg = CORPORA[corpus]["package"]
    head = f'[tool.importlinter]\nroot_packages = ["{pkg}"]\n'
    body = "\n\n".join(render_contract(c, "tool.importlinter.contracts") for c in contracts_for(corpus, workload))
    return head + "\n" + body + "\n"


TACH_HEAD = """\
# Generated by bench/run.py
source_roots = ["."]
exclude = []                      # analyse everything, as import-linter does (tests dirs too)
respect_gitignore = false         # the corpus lives in an ignored scratch dir
ignore_type_checking_imports = false   # import-linter counts TYPE_CHECKING imports too
root_module = "ignore"            # code outside the listed modules is unconstrained
"""


def tach_config(corpus: str, workload: str) -> tuple[str | None, str]:
    """(tach.toml text or None when tach cannot express it, note for the table)."""
    w = CORPORA[corpus][workload]
    if workload == "a":
        return (
            TACH_HEAD
            + f'\n[[modules]]\npath = "{w["source"]}"\ncannot_depend_on = ["{w["forbidden"]}"]\n'
            + f'\n[[modules]]\npath = "{w["forbidden"]}"\n',
            "same semantics (direct imports)",
        )
    if workload == "b":
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


# ---------------------------------------------------------------------------------------
# Benchmark core
# ---------------------------------------------------------------------------------------
class ToolSeries:
    def __init__(self, tool: str):
        self.tool = tool
        self.times: list[float] = []
        self.rss: list[int] = []
        self.rcs: list[int] = []
        self.error: str | None = None
        self.na: str | None = None  # cannot be expressed

    def to_json(self) -> dict:
        return {"times": self.times, "maxrss_kb": self.rss, "rcs": self.rcs, "error": self.error, "na": self.na}

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


def interleaved(commands: dict[str, tuple[list[str], Path, callable | None] | None], repeat: int,
                env: dict, series: dict[str, ToolSeries]) -> None:
    """Run the available commands round-robin, rotating the start each round."""
    names = [n for n in commands if commands[n] is not None and not series[n].error and not series[n].na]
    for r in range(repeat):
        k = r % max(1, len(names))
        order = names[k:] + names[:k]
        for name in order:
            s = series[name]
            if s.error:
                continue
            cmd, cwd, before = commands[name]
            if before:
                before()
            res = run(cmd, cwd, env)
            if res.rc not in (0, 1):
                s.error = f"{name} failed (exit {res.rc}): " + one_line(tail(res.err or res.out, 8))
                log("  " + s.error)
                continue
            s.times.append(res.wall)
            s.rss.append(res.maxrss_kb)
            s.rcs.append(res.rc)


def bench_corpus(env: Env, corpus: str, cdir: Path, repeat: int) -> dict:
    out: dict = {}
    pkg_dir = cdir / CORPORA[corpus]["package"]
    out["files"] = sum(1 for _ in pkg_dir.rglob("*.py"))
    for wl in WORKLOADS:
        lay_cfg = cdir / f"bench_{wl}.layering.toml"
        il_cfg = cdir / f"bench_{wl}.importlinter.toml"
        tach_txt, tach_note = tach_config(corpus, wl)
        lay_cfg.write_text(layering_config(corpus, wl))
        il_cfg.write_text(importlinter_config(corpus, wl))
        tach_file = cdir / "tach.toml"
        if tach_txt is not None:
            tach_file.write_text(tach_txt)
            (cdir / f"bench_{wl}.tach.toml").write_text(tach_txt)
        elif tach_file.exists():
            tach_file.unlink()
        lay_cache = cdir / ".layering_cache"

        def rm_lay_cache() -> None:
            shutil.rmtree(lay_cache, ignore_errors=True)

        wl_out: dict = {"tach_note": tach_note}
        for mode in ("cold", "warm"):
            series = {t: ToolSeries(t) for t in TOOLS}
            if env.layering_install_error:
                series["layering"].error = "layering failed: " + env.layering_install_error
            if tach_txt is None:
                series["tach"].na = tach_note
            lay_cmd = [env.exe("layering"), "check", "--config", lay_cfg.name]
            il_cmd = [env.exe("lint-imports"), "--no-logo", il_cfg.name]
            tach_cmd = [env.exe("tach"), "check"]
            if mode == "cold":
                commands = {
                    "layering": (lay_cmd + ["--no-cache"], cdir, rm_lay_cache),
                    "import-linter": (il_cmd + ["--no-cache"], cdir, None),
                    "tach": (tach_cmd, cdir, None) if tach_txt else None,
                }
            else:
                commands = {
                    "layering": (lay_cmd, cdir, None),
                    "import-linter": (il_cmd, cdir, None),
                    "tach": (tach_cmd, cdir, None) if tach_txt else None,
                }
                # prime the caches (untimed)
                for name, spec in commands.items():
                    if spec is None or series[name].error:
                        continue
                    res = run(spec[0], cdir, env.env)
                    if res.rc not in (0, 1):
                        series[name].error = f"{name} failed (exit {res.rc}): " + one_line(tail(res.err or res.out, 8))
                        log("  " + series[name].error)
            log(f"{corpus} {wl} {mode}: {repeat} interleaved rounds")
            interleaved(commands, repeat, env.env, series)
            wl_out[mode] = {t: s for t, s in series.items()}
            meds = ", ".join(f"{t}={fmt_s(s.med)}" for t, s in series.items())
            log(f"  medians: {meds}; verdicts: " + ", ".join(f"{t}={s.verdict}" for t, s in series.items()))
        out[wl] = wl_out
    (cdir / "tach.toml").unlink(missing_ok=True)
    return out


TIME_BIN = "/usr/bin/time"
START_LOAD = "n/a"


def measure_peak_kb(cmd: list[str], cwd: Path, env: dict) -> tuple[int | None, int]:
    """Peak RSS (KiB) of `cmd` and its exit code.

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
            return int(text[-1]), res.rc
        except (IndexError, ValueError):
            return None, res.rc
    res = run(cmd, cwd, env)
    return res.maxrss_kb, res.rc


def bench_memory(env: Env, corpus: str, cdir: Path, rounds: int) -> dict:
    """Peak RSS of each tool on workload (c), cold and warm (separate, untimed runs)."""
    wl = "c"
    tach_txt, _ = tach_config(corpus, wl)
    if tach_txt:
        (cdir / "tach.toml").write_text(tach_txt)
    lay_cfg = f"bench_{wl}.layering.toml"
    il_cfg = f"bench_{wl}.importlinter.toml"
    out: dict = {}
    log(f"{corpus} {wl}: peak memory, {rounds} rounds per tool and mode")
    for mode in ("cold", "warm"):
        cmds = {
            "layering": [env.exe("layering"), "check", "--config", lay_cfg] + (["--no-cache"] if mode == "cold" else []),
            "import-linter": [env.exe("lint-imports"), "--no-logo", il_cfg] + (["--no-cache"] if mode == "cold" else []),
            "tach": [env.exe("tach"), "check"] if tach_txt else None,
        }
        if env.layering_install_error:
            cmds["layering"] = None
        peaks: dict[str, list[int]] = {t: [] for t in TOOLS}
        errors: dict[str, str] = {}
        if mode == "warm":
            for t, cmd in cmds.items():
                if cmd:
                    run(cmd, cdir, env.env)
        for _ in range(rounds):
            for t, cmd in cmds.items():
                if not cmd or t in errors:
                    continue
                if t == "layering" and mode == "cold":
                    shutil.rmtree(cdir / ".layering_cache", ignore_errors=True)
                kb, rc = measure_peak_kb(cmd, cdir, env.env)
                if rc not in (0, 1) or kb is None:
                    errors[t] = f"exit {rc}"
                    continue
                peaks[t].append(kb)
        out[mode] = {t: (max(v) if v else None) for t, v in peaks.items()}
    (cdir / "tach.toml").unlink(missing_ok=True)
    out["method"] = "GNU time %M" if os.path.exists(TIME_BIN) else "wait4 ru_maxrss (includes the benchmark's own RSS as a floor)"
    return out


def bench_startup(env: Env, repeat: int) -> dict:
    series = {t: ToolSeries(t) for t in TOOLS}
    if env.layering_install_error:
        series["layering"].error = "layering failed: " + env.layering_install_error
    commands = {
        "layering": ([env.exe("layering"), "--version"], env.scratch, None),
        "import-linter": ([env.exe("lint-imports"), "--version"], env.scratch, None),
        "tach": ([env.exe("tach"), "--version"], env.scratch, None),
    }
    for name, spec in commands.items():  # warm the bytecode caches (untimed)
        if not series[name].error:
            run(spec[0], spec[1], env.env)
    log(f"start-up: {repeat} interleaved rounds")
    interleaved(commands, repeat, env.env, series)
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
    lay = ToolSeries("layering")
    naive = ToolSeries("naive")
    if env.layering_install_error:
        lay.error = "layering failed: " + env.layering_install_error
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
                if res.rc not in (0, 1):
                    lay.error = f"layering failed (exit {res.rc}): " + one_line(tail(res.err or res.out, 8))
                    log("  " + lay.error)
                    continue
                lay.times.append(res.wall)
                lay.rss.append(res.maxrss_kb)
                lay.rcs.append(res.rc)
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


def write_report(path: Path, args, env: Env, corpora_info: dict, results: dict, memory: dict, startup, probes) -> list[str]:
    L: list[str] = []
    now = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    mi = machine_info()
    partial = []
    if args.quick:
        partial.append("--quick")
    if args.only:
        partial.append(f"--only {args.only}")
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
    L.append("| corpus | wheel | .py files |")
    L.append("| --- | --- | --- |")
    for name, info in corpora_info.items():
        L.append(f"| {name} | {info['wheel']} | {results.get(name, {}).get('files', '?')} |")
    L.append("")
    L.append("## Method\n")
    L.append(textwrap.dedent("""\
        Whole-process wall time of each command, run with the corpus directory as cwd. The three
        tools run interleaved (one round = each tool once, start rotated every round), and each
        cell is the median over the rounds. **cold**: layering with its cache dir removed before
        every run and `--no-cache`; import-linter with `--no-cache`. **warm**: both caches primed
        by one untimed run. tach has no cache for `tach check`, so its cold and warm rows are
        the same command. Ratios are layering's median / the other tool's median (lower is
        better for layering). Verdict = exit code (0 kept, 1 broken).
        """))
    L.append("## Timings\n")
    verdict_diffs: list[str] = []
    checked = 0
    for corpus, res in results.items():
        L.append(f"### {corpus}\n")
        L.append("| workload | mode | layering | import-linter | tach | layering/import-linter | layering/tach | verdict layering / import-linter / tach |")
        L.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for wl in WORKLOADS:
            if wl not in res:
                continue
            for mode in ("cold", "warm"):
                s = res[wl][mode]
                lay, il, ta = s["layering"], s["import-linter"], s["tach"]
                lay_cell = fmt_s(lay.med) if not lay.error else "failed"
                il_cell = fmt_s(il.med) if not il.error else "failed"
                ta_cell = "n/a" if ta.na else (fmt_s(ta.med) if not ta.error else "failed")
                if wl == "c" and not ta.na and not ta.error:
                    ta_cell += " ≈"
                L.append(f"| {wl} | {mode} | {lay_cell} | {il_cell} | {ta_cell} | {fmt_ratio(ratio(lay.med, il.med))} "
                         f"| {fmt_ratio(ratio(lay.med, ta.med))} | {lay.verdict} / {il.verdict} / {ta.verdict} |")
                if not lay.error and not il.error:
                    checked += 1
                    if lay.verdict != il.verdict:
                        verdict_diffs.append(f"{corpus} {wl} {mode}: layering {lay.verdict}, import-linter {il.verdict}")
                elif lay.error:
                    verdict_diffs.append(f"{corpus} {wl} {mode}: not compared (layering failed, see Failures)")
        L.append("")
        errs: dict[str, list[str]] = {}
        for wl in WORKLOADS:
            for mode in ("cold", "warm"):
                for t, s in (res[wl][mode].items() if wl in res else []):
                    if s.error:
                        errs.setdefault(s.error, []).append(f"{wl} {mode}")
        if errs:
            L.append("Failures:\n")
            for msg, where in errs.items():
                L.append(f"- {', '.join(where)}: {msg}")
            L.append("")
    L.append("tach notes: (b) is n/a — tach checks direct imports only and cannot express a contract on "
             "indirect chains; (c) ≈ is an approximation (tach `layers` + `cannot_depend_on`, direct imports "
             "only), so its verdict may legitimately differ from import-linter's.\n")

    # memory
    L.append("## Peak memory (max RSS, workload c)\n")
    meth = next(iter(memory.values()))["method"] if memory else ""
    L.append(f"Separate untimed runs, max over the rounds; measured with {meth}.\n")
    L.append("| corpus | mode | layering | import-linter | tach |")
    L.append("| --- | --- | --- | --- | --- |")
    for corpus, mem in memory.items():
        for mode in ("cold", "warm"):
            cells = ["n/a" if mem[mode].get(t) is None else f"{mem[mode][t] / 1024:.0f} MiB" for t in TOOLS]
            L.append(f"| {corpus} | {mode} | " + " | ".join(cells) + " |")
    L.append("")

    # start-up
    L.append("## Start-up (`--version`)\n")
    if startup:
        L.append("| layering | import-linter | tach | layering/import-linter |")
        L.append("| --- | --- | --- | --- |")
        lay, il, ta = startup["layering"], startup["import-linter"], startup["tach"]
        L.append(f"| {fmt_s(lay.med) if not lay.error else 'failed'} | {fmt_s(il.med)} | {fmt_s(ta.med)} "
                 f"| {fmt_ratio(ratio(lay.med, il.med))} |")
        if lay.error:
            L.append(f"\n{lay.error}")
    else:
        L.append("(skipped)")
    L.append("")

    # probes
    L.append("## Runtime probes (20 installed Django modules must not load django.db)\n")
    probe_same = None
    if probes:
        lay, naive = probes["layering"], probes["naive"]
        nb = sorted(m for m, v in probes["naive_verdicts"].items() if v == "broken")
        L.append("One `layering check` on a config with one probe contract over 20 modules, versus the naive "
                 "way: 20 sequential `python -c \"import X, sys; ...'django.db' in sys.modules...\"` subprocesses. "
                 "layering runs with `--no-cache` (probe results are not reused).\n")
        L.append("| layering | naive (20 subprocesses) | layering/naive | verdict layering / naive |")
        L.append("| --- | --- | --- | --- |")
        L.append(f"| {fmt_s(lay.med) if not lay.error else 'failed'} | {fmt_s(naive.med)} | "
                 f"{fmt_ratio(ratio(lay.med, naive.med))} | {lay.verdict} / {naive.verdict} |")
        L.append(f"\nNaive verdicts: {len(nb)} of {len(PROBE_MODULES)} modules load django.db: {', '.join(nb)}.")
        if lay.error:
            L.append(f"\n{lay.error}")
        else:
            per = probes["layering_per_module"]
            if per and len(per) == len(PROBE_MODULES):
                diff = [m for m in PROBE_MODULES if per[m] != probes["naive_verdicts"].get(m)]
                probe_same = not diff and lay.verdict == naive.verdict
                L.append("Per-module verdicts " + ("identical." if not diff else f"DIFFER on: {', '.join(diff)}."))
            else:
                probe_same = lay.verdict == naive.verdict
                L.append(f"Per-module verdicts could not be read from layering's output (found {len(per)}); "
                         "compared the contract verdict only: " + ("identical." if probe_same else "DIFFERENT."))
    else:
        L.append("(skipped)")
    L.append("")

    # verdicts
    L.append("## Verdict check (layering vs import-linter, every workload and mode)\n")
    real_diffs = [d for d in verdict_diffs if "not compared" not in d]
    if checked and not verdict_diffs:
        L.append(f"**verdicts identical** ({checked} cells compared).")
    else:
        if real_diffs:
            L.append(f"**verdicts differ** in {len(real_diffs)} of {checked} compared cells:\n")
        else:
            L.append(f"No differences in {checked} compared cells, but some cells could not be compared:\n")
        L.extend(f"- {d}" for d in verdict_diffs)
    if probes:
        L.append(f"\nProbes: {'identical' if probe_same else ('not compared' if probe_same is None else 'DIFFERENT')}.")
    L.append("")

    # targets
    L.append("## Targets\n")
    L.extend(targets(results, memory, startup, probes))
    L.append("")
    L.append("## Configurations\n")
    L.append("The exact files are written into each corpus dir in the scratch directory as "
             "`bench_<w>.layering.toml`, `bench_<w>.importlinter.toml`, `bench_<w>.tach.toml`.\n")
    for corpus in results:
        c = CORPORA[corpus]
        L.append(f"- **{corpus}**: (a) `{c['a']['source']}` must not import `{c['a']['forbidden']}` (direct only); "
                 f"(b) `{c['b']['source']}` must not import `{c['b']['forbidden']}` (indirect too); "
                 f"(c) layers {' > '.join('`%s`' % x for x in c['c']['layers'])}, independence of "
                 f"{', '.join('`%s`' % x for x in c['c']['independent'])}.")
    L.append("")
    # keep local paths out of the report (failure tails quote them)
    text = "\n".join(L).replace(str(env.scratch), "<scratch>").replace(str(REPO), "<repo>")
    text = text.replace(str(Path.home()), "~")
    path.write_text(text + "\n")
    return text.splitlines()


def targets(results: dict, memory: dict, startup, probes) -> list[str]:
    out = []

    def line(label: str, ok: bool | None, detail: str) -> None:
        state = "met" if ok else ("not met" if ok is False else "not measured")
        out.append(f"- {label}: **{state}** — {detail}")

    def cell(corpus, wl, mode, tool):
        try:
            return results[corpus][wl][mode][tool].med
        except KeyError:
            return None

    def check_all(wl, mode, tool, limit):
        parts, oks = [], []
        for corpus in results:
            r = ratio(cell(corpus, wl, mode, "layering"), cell(corpus, wl, mode, tool))
            parts.append(f"{corpus} {fmt_ratio(r)}")
            oks.append(None if r is None else r <= limit)
        ok = None if (not oks or None in oks) and not any(o is False for o in oks) else all(o is True for o in oks)
        if any(o is False for o in oks):
            ok = False
        return ok, ", ".join(parts)

    ok, d = check_all("a", "cold", "import-linter", 0.10)
    line("(a) <= 0.10x import-linter cold, every corpus", ok, d)
    ok, d = check_all("a", "cold", "tach", 0.25)
    line("(a) <= 0.25x tach (layering cold), every corpus", ok, d)
    ok, d = check_all("b", "cold", "import-linter", 0.70)
    line("(b) <= 0.70x import-linter cold, every corpus", ok, d)
    ok, d = check_all("c", "cold", "import-linter", 0.60)
    line("(c) <= 0.60x import-linter cold, every corpus", ok, d)
    r = ratio(cell("homeassistant", "c", "warm", "layering"), cell("homeassistant", "c", "warm", "import-linter"))
    line("(c) homeassistant warm <= 0.60x import-linter warm", None if r is None else r <= 0.60, fmt_ratio(r))
    if startup:
        r = ratio(startup["layering"].med, startup["import-linter"].med)
        line("start-up <= 0.35x import-linter", None if r is None else r <= 0.35, fmt_ratio(r))
    else:
        line("start-up <= 0.35x import-linter", None, "skipped")
    if probes:
        r = ratio(probes["layering"].med, probes["naive"].med)
        line("probes <= 0.35x naive", None if r is None else r <= 0.35, fmt_ratio(r))
    else:
        line("probes <= 0.35x naive", None, "skipped")
    mem = memory.get("homeassistant")
    if mem is None:
        line("peak memory <= import-linter on homeassistant (c)", None, "homeassistant not run")
    else:
        parts, oks = [], []
        for m in ("cold", "warm"):
            lay, il = mem[m].get("layering"), mem[m].get("import-linter")
            if lay is None or il is None:
                parts.append(f"{m}: not measured")
                oks.append(None)
            else:
                parts.append(f"{m}: layering {lay / 1024:.0f} MiB vs import-linter {il / 1024:.0f} MiB")
                oks.append(lay <= il)
        ok = False if False in oks else (None if None in oks else True)
        line("peak memory <= import-linter on homeassistant (c), cold and warm", ok, "; ".join(parts))
    return out


def dump_json(path: Path, env: Env, results: dict, memory: dict, startup, probes) -> None:
    def conv(x):
        if isinstance(x, ToolSeries):
            return x.to_json()
        if isinstance(x, dict):
            return {k: conv(v) for k, v in x.items()}
        return x
    path.write_text(json.dumps({"versions": env.versions, "machine": machine_info(), "results": conv(results), "memory": memory,
                                "startup": conv(startup), "probes": conv(probes)}, indent=1))


# ---------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scratch", type=Path, default=REPO / ".bench_scratch",
                    help="scratch directory (venv, wheels, corpora); default .bench_scratch/ in the repo root")
    ap.add_argument("--repeat", type=int, default=None, help="interleaved rounds per cell (default 7, 3 with --quick)")
    ap.add_argument("--only", default="", help="comma-separated corpora to run (default: all of %s)" % ", ".join(CORPORA))
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
    names = [n.strip() for n in args.only.split(",") if n.strip()] or list(CORPORA)
    unknown = [n for n in names if n not in CORPORA]
    if unknown:
        ap.error(f"unknown corpus {unknown}; choose from {list(CORPORA)}")

    global START_LOAD
    START_LOAD = machine_info()["loadavg"]
    py, why = choose_python(args.python)
    env = Env(args.scratch.resolve(), py, why)
    env.setup_venv(skip_repo=args.skip_repo_install)
    env.read_versions()
    log("versions: " + ", ".join(f"{k} {v}" for k, v in env.versions.items()))

    corpora_info = {}
    for n in names:
        cdir, wheel = env.fetch_corpus(n)
        corpora_info[n] = {"dir": cdir, "wheel": wheel}

    results = {}
    memory = {}
    for n in names:
        results[n] = bench_corpus(env, n, corpora_info[n]["dir"], args.repeat)
        memory[n] = bench_memory(env, n, corpora_info[n]["dir"], 2 if args.quick else 3)

    startup = None if args.no_startup else bench_startup(env, 5 if args.quick else max(10, args.repeat))
    probes = None if args.no_probes else bench_probes(env, 2 if args.quick else max(3, min(args.repeat, 5)))

    lines = write_report(args.results, args, env, corpora_info, results, memory, startup, probes)
    dump_json(env.scratch / "results.json", env, results, memory, startup, probes)
    log(f"wrote {args.results}")
    start = next(i for i, ln in enumerate(lines) if ln.startswith("## Timings"))
    print("\n".join(lines[start:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
