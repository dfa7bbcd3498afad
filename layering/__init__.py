"""`layering`: prove a Python package's import structure, from source and at runtime.

The public API is small: `check()` runs the contracts of a configuration and returns a
`RunReport`; `Verdict` says what each contract concluded. Names are loaded on first use,
so `import layering` (and `layering --version`) costs next to nothing.

This module imports nothing: `python -m layering` runs it before `__main__` can take the
working directory off `sys.path`, and a project's `typing.py` there would be imported in place
of the standard library's (`TYPE_CHECKING` is a name type checkers take as true).
"""

TYPE_CHECKING = False

__version__ = "0.1.0"

__all__ = ["check", "RunReport", "ContractResult", "Verdict", "ConfigError", "__version__"]

if TYPE_CHECKING:
    from layering.api import check
    from layering.domain.errors import ConfigError
    from layering.domain.results import ContractResult, RunReport, Verdict

_LAZY = {
    "check": "layering.api",
    "RunReport": "layering.domain.results",
    "ContractResult": "layering.domain.results",
    "Verdict": "layering.domain.results",
    "ConfigError": "layering.domain.errors",
}


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'layering' has no attribute {name!r}")
