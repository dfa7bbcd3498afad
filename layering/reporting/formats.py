"""Every output format, in one registry: what each command can print, and with what.

A format names the function that renders a command's outcome and, where the format is read by
a machine, the one that renders a configuration error in it (on standard output, where the
report would have been). Each is imported only when chosen: a text run pays for no JSON.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, NamedTuple


class Format(NamedTuple):
    """How one command prints in one format: `render` and `render_error` are
    "module:function" names (`render_error` None: an error is text on standard error only)."""

    render: str
    render_error: str | None = None
    errors_also_on_stderr: bool = True
    """Whether the error's text goes to standard error too (a file of JSON or SARIF is not the
    job log; GitHub's annotations are)."""


_JSON_ERROR = "layering.reporting.json:render_error"

FORMATS: dict[str, dict[str, Format]] = {
    "check": {
        "text": Format("layering.reporting.text:render"),
        "json": Format("layering.reporting.json:render", _JSON_ERROR),
        "github": Format(
            "layering.reporting.github:render",
            "layering.reporting.github:render_error",
            errors_also_on_stderr=False,
        ),
        "sarif": Format(
            "layering.reporting.sarif:render", "layering.reporting.sarif:render_error"
        ),
    },
    "since": {  # check --since REF: each renders (report, since, new_only)
        "text": Format("layering.reporting.since:render_report_text"),
        "json": Format("layering.reporting.since:render_json", _JSON_ERROR),
        "github": Format(
            "layering.reporting.since:render_github",
            "layering.reporting.github:render_error",
            errors_also_on_stderr=False,
        ),
        "sarif": Format(
            "layering.reporting.since:render_sarif", "layering.reporting.sarif:render_error"
        ),
    },
    "audit": {
        "text": Format("layering.reporting.audit:render_text"),
        "table": Format("layering.reporting.audit:render_table"),
        "json": Format("layering.reporting.audit:render_json", _JSON_ERROR),
    },
    "explain": {
        "text": Format("layering.reporting.explain:render_text"),
        "json": Format("layering.reporting.explain:render_json", _JSON_ERROR),
    },
    "graph": {
        "mermaid": Format("layering.reporting.graph_formats:render_mermaid"),
        "dot": Format("layering.reporting.graph_formats:render_dot"),
        "json": Format(
            "layering.reporting.graph_formats:render_json",
            "layering.reporting.graph_formats:render_json_error",
        ),
    },
    "layer-stack": {
        "mermaid": Format("layering.reporting.stack_formats:render_stack_mermaid"),
        "dot": Format("layering.reporting.stack_formats:render_stack_dot"),
    },
}
"""Command -> format -> how; the first format of each is its default."""


def names(command: str) -> tuple[str, ...]:
    """The formats `command` prints in, its default first."""
    return tuple(FORMATS[command])


def renderer(command: str, format: str) -> Callable[..., str]:
    """The function that renders `command`'s outcome in `format`."""
    return _function(FORMATS[command][format].render)


def error_renderer(command: str, format: str) -> Callable[[Any], str] | None:
    """The function that renders a configuration error in `format`, None for text only."""
    name = FORMATS.get(command, {}).get(format)
    return _function(name.render_error) if name is not None and name.render_error else None


def errors_also_on_stderr(command: str, format: str) -> bool:
    found = FORMATS.get(command, {}).get(format)
    return found is None or found.errors_also_on_stderr


def _function(name: str) -> Callable[..., Any]:
    module, _, function = name.partition(":")
    return getattr(importlib.import_module(module), function)
