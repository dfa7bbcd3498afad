"""The bench venv (its interpreter, the tools, this repository), the corpora's wheels, and the
machine the benchmark runs on."""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

from .corpora import CORPORA
from .processes import Run, log, one_line, run, tail

REPO = Path(__file__).resolve().parents[2]  # bench/layering_bench/env.py is two levels below it

IMPORT_LINTER_SPECS = ("import-linter==2.17", "import-linter")
TACH_SPECS = ("tach",)
PROBE_DJANGO_SPECS = ("django",)
# The corpora are downloaded for this interpreter tag, not the one running the benchmark:
# Django 6.1 and Home Assistant 2026.x only publish wheels for newer Pythons.  They are
# pure-Python wheels that are only read, never imported, so the tag just picks the release.
DOWNLOAD_PYTHON = "3.14"

MIN_PYTHON = (3, 13)  # the corpora use PEP 695 syntax (Home Assistant 2026 needs >= 3.13.2)


def python_version_of(exe: str) -> tuple[int, ...] | None:
    try:
        r = subprocess.run(
            [exe, "-c", "import sys, venv; print(*sys.version_info[:3])"],
            capture_output=True,
            text=True,
            timeout=30,
        )
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
    roots = [
        Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions",
        Path("/usr/local/bin"),
        Path("/usr/bin"),
    ]
    for root in roots:
        if root.name == "versions" and root.is_dir():
            cands += [
                str(p / "bin" / "python3")
                for p in sorted(root.iterdir())
                if (p / "bin" / "python3").exists()
            ]
        else:
            cands += [
                str(root / f"python3.{m}") for m in (13, 14) if (root / f"python3.{m}").exists()
            ]
    best, best_v = None, None
    for c in dict.fromkeys(cands):
        v = python_version_of(c)
        if (
            v
            and v >= MIN_PYTHON
            and "t" not in Path(c).name.split("python")[-1]
            and (best_v is None or v > best_v)
        ):
            best, best_v = c, v
    if best is None:
        return sys.executable, (
            f"no Python >= {'.'.join(map(str, MIN_PYTHON))} found; corpora using newer syntax "
            "may fail to parse under layering"
        )
    if best == sys.executable:
        return best, "the running interpreter"
    return (
        best,
        f"newest Python >= {'.'.join(map(str, MIN_PYTHON))} found (the running one is older)",
    )


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
        # lint-imports prints through rich, which wraps a long contract name at 80 columns
        # without a terminal: the verdict check reads each `NAME BROKEN` line whole.
        self.env["COLUMNS"] = "1000"
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
            log(
                f"bench venv is Python {venv_v[0]}.{venv_v[1]}, want {base_v[0]}.{base_v[1]}: "
                "recreating it"
            )
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
                    raise SystemExit(
                        f"could not install any of {specs}:\n{tail(last.err if last else '')}"
                    )
            marker.write_text(wanted)
        if skip_repo:
            if not (self.bin / "layering").exists():
                self.layering_install_error = (
                    "no `layering` command in the bench venv (--skip-repo-install)"
                )
            return
        log(f"installing this repository ({REPO}) into the bench venv")
        # Build from a copy so that setuptools' build/ and *.egg-info never land in the work tree.
        src = self.scratch / "src"
        shutil.rmtree(src, ignore_errors=True)
        shutil.copytree(
            REPO,
            src,
            ignore=shutil.ignore_patterns(
                ".git",
                ".bench_scratch",
                self.scratch.name,
                "build",
                "dist",
                "*.egg-info",
                "__pycache__",
                ".venv",
                ".ci-venv",
                ".pytest_cache",
                ".hypothesis",
                ".layering_cache",
                ".import_linter_cache",
            ),
        )
        # First resolve its dependencies (with the `lsp` extra, for `layering lsp`) without
        # disturbing the pinned tools, then force a fresh copy of the repository itself (same
        # version number, new code).
        r = self.pip("install", "-q", f"{src}[lsp]", check=False)
        if r.rc == 0:
            r = self.pip("install", "-q", "--force-reinstall", "--no-deps", str(src), check=False)
        if r.rc != 0:
            self.layering_install_error = "pip install of the repository failed: " + one_line(
                tail(r.err or r.out, 6)
            )
            log(self.layering_install_error)
        elif not (self.bin / "layering").exists():
            self.layering_install_error = "the repository installed no `layering` command"
            log(self.layering_install_error)

    def read_versions(self) -> None:
        code = textwrap.dedent(
            """
            import importlib.metadata as m, json
            out = {}
            for d in ("import-linter", "grimp", "tach", "django", "pygls"):
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
        self.versions["layering"] = (
            (r.out.strip() or r.err.strip()).splitlines()[-1]
            if r.rc == 0
            else (f"unavailable ({one_line(tail(r.err or r.out, 2), 120)})")
        )
        self.versions["python (venv)"] = run(
            [str(self.python), "-c", "import platform; print(platform.python_version())"],
            cwd=self.scratch,
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
                "download",
                "--no-deps",
                "--only-binary=:all:",
                "--python-version",
                DOWNLOAD_PYTHON,
                "--dest",
                str(self.wheels),
                spec,
                check=False,
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
