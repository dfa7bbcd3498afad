"""Import facts: one imported name (or module) of one import statement, with where it stands."""

from __future__ import annotations

import enum
from typing import NamedTuple


class Scope(str, enum.Enum):
    """The innermost construct an import statement sits in."""

    MODULE = "module"
    FUNCTION = "function"
    CLASS = "class"
    TYPE_CHECKING = "type_checking"
    TRY = "try"


class NameUse(str, enum.Enum):
    """How a fact takes its name: by an import statement, or by using a module imported whole.

    The uses are found statically, at their own line: `mod.name` (read, assigned or deleted),
    `getattr(mod, "name")` with a constant name, and patches (`monkeypatch.setattr(mod, "name",
    ...)`, `mock.patch("pkg.mod.name")`, `patch.object(mod, "name")`).
    """

    IMPORT = "import"
    ATTRIBUTE = "attribute"
    GETATTR = "getattr"
    PATCH = "patch"


class ImportFact(NamedTuple):
    """One name that one import statement binds, resolved to the module it comes from.

    `from pkg import sub` where `pkg.sub` is a module is a fact with `module="pkg"`,
    `name="sub"` and `imported="pkg.sub"`; `from pkg.mod import X` has `imported="pkg.mod"`;
    `import a.b` has `module="a.b"`, `name=None` and `imported="a.b"`.
    """

    path: str
    line: int
    importer: str
    imported: str
    module: str
    name: str | None
    first_line: int
    last_line: int
    scope: Scope = Scope.MODULE
    in_function: bool = False
    type_checking: bool = False
    lazy: bool = False
    use: NameUse = NameUse.IMPORT
    conditional: bool = False

    @property
    def dotted(self) -> str:
        """The import read as `<module>.<name>`, as containment rules read it."""
        return self.module if self.name is None else f"{self.module}.{self.name}"

    @property
    def shown_name(self) -> str | None:
        """The name a report shows in parentheses: none for `from pkg import sub` of a submodule,
        which the imported module already names."""
        return None if self.name is None or self.imported == self.dotted else self.name

    @property
    def runtime(self) -> bool:
        """Whether the statement runs when its module is imported."""
        return not (self.in_function or self.type_checking or self.lazy)

    def qualifiers(self) -> tuple[str, ...]:
        """The words that say when this import runs, for report lines."""
        words = [] if self.use is NameUse.IMPORT else [self.use.value]
        if self.in_function:
            words.append("function-level")
        if self.type_checking:
            words.append("TYPE_CHECKING")
        if self.lazy:
            words.append("lazy")
        if self.scope is Scope.TRY:
            words.append("in try")
        return tuple(words)
