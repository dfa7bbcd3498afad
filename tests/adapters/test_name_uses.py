"""Names read on modules imported whole, and the names a module binds, read from real files."""

from __future__ import annotations

import textwrap

from layering.adapters.source_facts import RawBinding, module_bindings, parse_name_uses


def uses(tmp_path, source: str) -> list[tuple[str, str, int, str, bool]]:
    """Each use as (what the alias is bound to, the names read, their last line, the use, in a
    function)."""
    path = tmp_path / "mod.py"
    path.write_text(textwrap.dedent(source).lstrip("\n"))
    found = []
    for use in parse_name_uses(str(path)):
        binding = use.binding
        if binding is None:
            bound = "<string>"
        else:
            bound = (
                ("." * binding.level)
                + (binding.module or "")
                + (f":{binding.name}" if binding.name else "")
            )
        names = ".".join(n.name for n in use.attributes)
        found.append((bound, names, use.attributes[-1].line, use.use.value, use.in_function))
    return sorted(found, key=lambda u: (u[2], u[1]))


def test_aliases_of_each_import_form(tmp_path):
    assert uses(
        tmp_path,
        """
        import a.b.mod as m
        from a.b import mod
        import a.b.c
        from . import sibling
        x = m.NAME
        y = mod.OTHER.attr
        z = a.b.c.D
        sibling.THING = 1
        """,
    ) == [
        ("a.b.mod", "NAME", 5, "attribute", False),
        ("a.b:mod", "OTHER.attr", 6, "attribute", False),
        ("a", "b.c.D", 7, "attribute", False),
        (".:sibling", "THING", 8, "attribute", False),
    ]


def test_getattr_with_a_constant_name_and_patches(tmp_path):
    assert uses(
        tmp_path,
        """
        from unittest import mock
        from a.b import mod

        def test(monkeypatch, name):
            getattr(mod, "GOT")
            getattr(mod, name)
            monkeypatch.setattr(mod, "PATCHED", 1)
            monkeypatch.setattr("a.b.mod.BY_STRING", 1)
            monkeypatch.delattr(mod, "DELETED")

        @mock.patch("a.b.mod.DECORATED")
        def decorated(patched):
            with mock.patch.object(mod, "OBJECT"):
                pass
        """,
    ) == [
        ("a.b:mod", "GOT", 5, "getattr", True),
        ("a.b:mod", "PATCHED", 7, "patch", True),
        ("<string>", "a.b.mod.BY_STRING", 8, "patch", True),
        ("a.b:mod", "DELETED", 9, "patch", True),
        ("<string>", "a.b.mod.DECORATED", 11, "patch", False),
        ("unittest:mock", "patch", 11, "attribute", False),
        ("a.b:mod", "OBJECT", 13, "patch", True),
        ("unittest:mock", "patch.object", 13, "attribute", True),
    ]


def test_an_alias_holds_in_its_own_scope_only(tmp_path):
    found = uses(
        tmp_path,
        """
        import a.b.mod as m

        def parameter(m):
            return m.HIDDEN_BY_PARAMETER

        def assigned():
            m = object()
            return m.HIDDEN_BY_ASSIGNMENT

        def local_import():
            from a.b import mod as inner
            return inner.LOCAL

        def elsewhere():
            return inner.NOT_BOUND_HERE

        def uses_global():
            global m
            m = None
            return m.GLOBAL

        class Holder:
            import a.b.mod as kept
            value = kept.IN_CLASS_BODY

            def method(self):
                return kept.NOT_SEEN_FROM_METHODS

        squares = [m.HIDDEN_BY_LOOP for m in range(3)]
        key = lambda m: m.HIDDEN_BY_LAMBDA
        fallback = m.MODULE_LEVEL
        """,
    )
    assert [names for _, names, *_ in found] == [
        "LOCAL",
        "GLOBAL",
        "IN_CLASS_BODY",
        "MODULE_LEVEL",
    ]


def test_a_fallback_assignment_does_not_hide_the_import(tmp_path):
    found = uses(
        tmp_path,
        """
        try:
            import a.fast as impl
        except ImportError:
            import a.slow as impl
            impl = None
        impl.RUN
        """,
    )
    assert found == [("a.fast", "RUN", 6, "attribute", False)]


def test_type_checking_uses_are_marked(tmp_path):
    path = tmp_path / "mod.py"
    path.write_text(
        "from typing import TYPE_CHECKING\nimport a.mod as m\nif TYPE_CHECKING:\n    T = m.Name\n"
    )
    (use,) = parse_name_uses(str(path))
    assert use.binding == RawBinding("a.mod") and use.type_checking and use.attributes[0].line == 4


def test_a_deep_expression_does_not_exhaust_the_stack(tmp_path):
    path = tmp_path / "mod.py"
    path.write_text("import a.mod as m\nx = " + " + ".join(["m.NAME"] * 2000) + "\n")
    assert len(parse_name_uses(str(path))) == 2000


def test_module_bindings_are_every_module_level_binding(tmp_path):
    path = tmp_path / "mod.py"
    path.write_text(
        textwrap.dedent(
            """
            import os.path
            from a import b as c
            X: int = 1
            Y = Z = 2
            for LOOP in (): pass
            with open(os.devnull) as HANDLE: pass
            try:
                pass
            except Exception as ERROR:
                pass
            if True:
                def func(): pass
                class Klass:
                    INSIDE_CLASS = 1
            def setter():
                global SET_LATER
                LOCAL = 1
            """
        )
    )
    bindings = module_bindings(str(path))
    assert bindings.complete
    assert bindings.names == {
        "os",
        "c",
        "X",
        "Y",
        "Z",
        "LOOP",
        "HANDLE",
        "ERROR",
        "func",
        "Klass",
        "setter",
        "SET_LATER",
    }


def test_module_bindings_are_incomplete_where_the_source_cannot_tell(tmp_path):
    for source in (
        "from a import *\n",
        "def __getattr__(name):\n    return name\n",
        "globals()['X'] = 1\n",
    ):
        path = tmp_path / "mod.py"
        path.write_text(source)
        assert not module_bindings(str(path)).complete, source
