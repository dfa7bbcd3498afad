"""`layering`: prove a Python package's import structure, from source and at runtime.

The public API is small: `check()` runs the contracts of a configuration and returns a
`RunReport`; `Verdict` says what each contract concluded. Names are loaded on first use,
so `import layering` (and `layering --version`) costs next to nothing.

This module imports nothing: `python -m layering` runs it before `__main__` can take the
working directory off `sys.path`, and a project's `typing.py` there would be imported in place
of the standard library's (`TYPE_CHECKING` is a name type checkers take as true).
"""

TYPE_CHECKING = False

__all__ = ["check", "RunReport", "ContractResult", "Verdict", "ConfigError", "__version__"]

if TYPE_CHECKING:
    from layering.api import check
    from layering.domain.errors import ConfigError
    from layering.domain.results import ContractResult, RunReport, Verdict
    from layering.domain.version import VERSION as __version__

_LAZY = {
    "check": ("layering.api", "check"),
    "RunReport": ("layering.domain.results", "RunReport"),
    "ContractResult": ("layering.domain.results", "ContractResult"),
    "Verdict": ("layering.domain.results", "Verdict"),
    "ConfigError": ("layering.domain.errors", "ConfigError"),
    "__version__": ("layering.domain.version", "VERSION"),
}


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        module, attribute = _LAZY[name]
        return getattr(importlib.import_module(module), attribute)
    raise AttributeError(f"module 'layering' has no attribute {name!r}")
