"""Shared pieces of the reliability tests (a module of its own: `conftest` is a name every test
directory has): a small package, contract snippets, and a check
that a run ended the way a person can act on (a located message, an exit code, no traceback)."""

from __future__ import annotations


PACKAGE = {
    "src/app/__init__.py": "",
    "src/app/a.py": "from app import b\n",
    "src/app/b.py": "import json\n",
    "src/app/c.py": "import app.a\n",
}

HEADER = """\
root_packages = ["app"]
source_roots = ["src"]
"""


def forbidden(source: str, target: str, *, indirect: bool = False, id: str = "f", extra: str = "") -> str:
    """A forbidden contract: direct imports only when `indirect` is true (no graph needed)."""
    return f"""
[[contracts]]
id = "{id}"
type = "forbidden"
source_modules = ["{source}"]
forbidden_modules = ["{target}"]
allow_indirect_imports = {"true" if indirect else "false"}
{extra}"""


class Outcome:
    """A finished `layering check`: its exit code and output, checked for tracebacks on creation."""

    def __init__(self, result) -> None:
        self.code = result.returncode
        self.out = result.stdout
        self.err = result.stderr
        for text in (self.out, self.err):
            assert "Traceback" not in text, text
            assert "Segmentation fault" not in text, text
        assert self.code in (0, 1, 2), (self.code, self.out, self.err)

    @property
    def both(self) -> str:
        return self.out + self.err

    def __repr__(self) -> str:  # shown by pytest when an assertion fails
        return f"Outcome(code={self.code}, out={self.out!r}, err={self.err!r})"
