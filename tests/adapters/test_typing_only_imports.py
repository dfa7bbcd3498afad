"""Which imports only annotations that are not evaluated at run time need, read with `ast`."""

from __future__ import annotations

import sys
import textwrap

import pytest

from layering.adapters.typing_only import typing_only_imports


def _typing_only(source: str) -> set[tuple[int, str]]:
    return set(typing_only_imports("m.py", textwrap.dedent(source).lstrip("\n")))


DEFERRED = "from __future__ import annotations\n"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # With the __future__ import, no annotation is evaluated.
        (DEFERRED + "from a import A\ndef f(x: A) -> A: ...\n", {(2, "A")}),
        (DEFERRED + "from a import A\nclass C:\n    x: A\n", {(2, "A")}),
        (DEFERRED + "import a.b\ndef f(x: a.b.C): ...\n", {(2, "a.b")}),
        # Without it, a signature's and a class's annotations are evaluated...
        ("from a import A\ndef f(x: A): ...\n", set()),
        ("from a import A\nclass C:\n    x: A\n", set()),
        # ... but a string is not, nor a function's local annotation, nor a string inside an
        # evaluated annotation.
        ('from a import A\ndef f(x: "A"): ...\n', {(1, "A")}),
        ("from a import A\ndef f():\n    x: A = 1\n", {(1, "A")}),
        ('from a import A\nfrom b import B\ndef f(x: list["A"]) -> B: ...\n', {(1, "A")}),
        # Under TYPE_CHECKING and in a type alias statement nothing runs.
        (
            "from typing import TYPE_CHECKING\nfrom a import A\nif TYPE_CHECKING:\n    X = "
            "list[A]\n",
            {(2, "A")},
        ),
        # Any use that runs counts: a body, a default, a decorator, a base, __all__, cast(A, x).
        (DEFERRED + "from a import A\ndef f(x: A):\n    return isinstance(x, A)\n", set()),
        (DEFERRED + "from a import A\ndef f(x: A = A()): ...\n", set()),
        (DEFERRED + "from a import A\n@A\ndef f(x: A): ...\n", set()),
        (DEFERRED + "from a import A\nclass C(A):\n    x: A\n", set()),
        (DEFERRED + 'from a import A\n__all__ = ["A"]\ndef f(x: A): ...\n', set()),
        (DEFERRED + "from a import A\nfrom typing import cast\ny = cast(A, 1)\n", set()),
        # An import never used is not typing-only: it runs for something.
        ("from a import A\n", set()),
        # An alias is what the module uses.
        (DEFERRED + "from a import A as B\ndef f(x: B): ...\n", {(2, "A")}),
        # Each name of a statement alone.
        (
            DEFERRED + "from a import (\n    A,\n    B,\n)\ndef f(x: A):\n    return B\n",
            {(3, "A")},
        ),
    ],
)
def test_typing_only_imports(source, expected):
    assert _typing_only(source) == expected


@pytest.mark.skipif(sys.version_info < (3, 12), reason="`type X = ...` is Python 3.12's")
def test_a_type_alias_statement_is_not_evaluated():
    assert _typing_only("from a import A\ntype X = list[A]\n") == {(1, "A")}
