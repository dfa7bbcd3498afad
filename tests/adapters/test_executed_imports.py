"""Reading only the top-level statements that can import gives what a full parse gives, outside
functions."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from layering.adapters.executed_imports import executed_imports
from layering.adapters.source_facts import parse_imports
from layering.domain.errors import SourceUnreadable

REPO = Path(__file__).resolve().parents[2]


def full_parse(path: Path) -> list:
    return sorted((r for r in parse_imports(str(path)) if not r.in_function), key=repr)


def read(tmp_path: Path, source: str) -> list:
    path = tmp_path / "module.py"
    path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
    found = executed_imports(str(path))
    assert sorted(found, key=repr) == full_parse(path)
    return [
        (r.first_line, r.module or r.names[0].name, r.scope.value, r.conditional) for r in found
    ]


def test_code_at_column_0_inside_a_string_is_not_an_import(tmp_path):
    assert read(
        tmp_path,
        '''
        # a comment with """ in it
        TEMPLATE = """\\
        import not_an_import
        from nowhere import nothing
        """
        note = 'it\\'s """ not a string start'
        import real
        ''',
    ) == [(7, "real", "module", False)]


def test_methods_are_skipped_and_class_bodies_read(tmp_path):
    assert read(
        tmp_path,
        """
        import os


        @decorator
        class Model(
            Base,
        ):
            import in_class

            @property
            def name(self):
                import in_method
                return 1

            if flag:
                import in_branch

            async def other(self):
                import in_coroutine

            class Inner:
                def method(self):
                    import in_inner_method
                import in_inner_class


        def function():
            import in_function
        """,
    ) == [
        (1, "os", "module", False),
        (8, "in_class", "class", False),
        (16, "in_branch", "class", True),
        (24, "in_inner_class", "class", False),
    ]


def test_a_line_at_column_0_inside_brackets_falls_back_to_the_whole_file(tmp_path):
    assert read(
        tmp_path,
        """
        from package import (
        first,
        second)
        import after
        def f():
            import inside
        """,
    ) == [(1, "package", "module", False), (4, "after", "module", False)]


def test_a_syntax_error_in_an_import_is_located(tmp_path):
    path = tmp_path / "module.py"
    path.write_text("import os\nfrom . import (\n", encoding="utf-8")
    with pytest.raises(SourceUnreadable) as raised:
        executed_imports(str(path))
    assert raised.value.line == 2


@pytest.mark.parametrize("directory", ["layering", "examples/serve", "tests"])
def test_every_file_of_this_repository_reads_as_a_full_parse_does(directory):
    files = sorted((REPO / directory).rglob("*.py"))
    assert files
    for path in files:
        assert sorted(executed_imports(str(path)), key=repr) == full_parse(path), path
