"""SARIF 2.1.0 (`--format sarif`), for code scanning: one run, one rule per finding code.

Each finding is a result with level "error" ("warning" for a contract with
`severity = "warn"`), its rule id (the stable code, e.g. LY001), a
message naming the contract, a physical location relative to `%SRCROOT%` (the root of the
repository,
as code scanning resolves it, else the configuration's directory; described in
`originalUriBaseIds`, never given as a machine's path) and, for chains of imports, related
locations and a
code flow through each import statement. Known findings (`expect = "broken"`,
`expect_loaded`) are results with an external suppression, so they show as dismissed.
Configuration errors are tool configuration notifications of a failed invocation.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import urllib.parse
from typing import Any

from layering.domain.codes import CONFIG_ERROR, RULES, rule_description, rule_name
from layering.domain.errors import ConfigError
from layering.domain.results import RunReport
from layering.domain.version import VERSION
from layering.reporting._findings import (
    Finding,
    PathMapper,
    cut_notes,
    describe,
    findings,
    repository_root,
)

SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
INFORMATION_URI = "https://pypi.org/project/layering/"
SRCROOT = "%SRCROOT%"


def _driver(codes: list[str]) -> dict[str, Any]:
    return {
        "name": "layering",
        "version": VERSION,
        "semanticVersion": VERSION,
        "informationUri": INFORMATION_URI,
        "rules": [
            {
                "id": code,
                "name": rule_name(code),
                "shortDescription": {"text": rule_description(code)},
                "defaultConfiguration": {"level": "error"},
                "helpUri": INFORMATION_URI,
            }
            for code in codes
        ],
    }


def _log(run: dict[str, Any]) -> str:
    log = {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def _base_ids(in_checkout: bool) -> dict[str, Any]:
    """`%SRCROOT%` described, not given as a URI: the log names no directory of the machine
    that ran it, and code scanning resolves its URIs against the repository it analyses."""
    where = (
        "the root of the repository (the directory that holds .git)"
        if in_checkout
        else "the configuration's directory"
    )
    return {SRCROOT: {"description": {"text": f"The paths are relative to {where}."}}}


def _root(base: str, root: str | None) -> tuple[str, bool]:
    """The directory every URI is relative to: `root` if given, else the repository that holds
    `base` (what code scanning resolves against), else `base`; and whether it is a checkout."""
    if root is not None:
        return root, repository_root(root) is not None
    checkout = repository_root(base)
    return (checkout, True) if checkout is not None else (base, False)


def relative_uri(relative: str) -> str:
    """A relative path (`/` separators) as a URI reference (RFC 3986): a space, `#`, `%` or `?`
    in it would otherwise end the path or read as an escape, and a non-ASCII letter is not
    allowed at all. `:` is encoded too: in a first segment it would read as a scheme."""
    return urllib.parse.quote(relative, safe="/!$&'()*+,;=@")


def _location(
    paths: PathMapper, path: str, line: int, column: int = 0, message: str = ""
) -> dict[str, Any]:
    try:  # a file outside the root too: `../` keeps the machine's directories out of the log
        relative = paths.relative(path) or os.path.relpath(paths.absolute(path), paths.root)
    except ValueError:  # another drive on Windows
        artifact = {"uri": pathlib.Path(paths.absolute(path)).as_uri()}
    else:
        artifact = {"uri": relative_uri(relative.replace(os.sep, "/")), "uriBaseId": SRCROOT}
    physical: dict[str, Any] = {"artifactLocation": artifact}
    if line > 0:
        region: dict[str, Any] = {"startLine": line}
        if column > 1:
            region["startColumn"] = column
        physical["region"] = region
    location: dict[str, Any] = {"physicalLocation": physical}
    if message:
        location["message"] = {"text": message}
    return location


def _result(finding: Finding, paths: PathMapper, rule_index: int, in_cut: dict) -> dict[str, Any]:
    contract = finding.result
    violation = finding.violation
    text = describe(violation) + (f": {in_cut[violation]}" if violation in in_cut else "")
    text += f" (contract: {contract.name}"
    text += f" [{contract.contract_id}]" if contract.contract_id != contract.name else ""
    text += f"; module {finding.item})" if finding.item else ")"
    path, line = (
        (violation.path, violation.line)
        if violation.path
        else (contract.source_path, contract.source_line)
    )
    fingerprint = "\0".join(
        (
            contract.contract_id,
            finding.item,
            violation.code,
            violation.importer,
            violation.imported,
            violation.message,
        )
    )
    result: dict[str, Any] = {
        "ruleId": violation.code,
        "ruleIndex": rule_index,
        "level": "warning" if contract.warns else "error",
        "message": {"text": text},
        "locations": [_location(paths, path, line, violation.column)],
        "partialFingerprints": {
            "layeringFinding/v1": hashlib.sha256(fingerprint.encode()).hexdigest()[:32]
        },
        "properties": {
            "contract": contract.contract_id,
            "contractName": contract.name,
            "contractType": contract.type_name,
            "verdict": contract.verdict.value,
            "severity": contract.severity.value,
        },
    }
    if finding.item:
        result["properties"]["item"] = finding.item
    if violation.importer:
        result["properties"]["importer"] = violation.importer
    if violation.imported:
        result["properties"]["imported"] = violation.imported
    hops = [h for h in violation.chain if h.path]
    if hops:
        result["relatedLocations"] = [
            dict(_location(paths, h.path, h.line, message=h.describe()), id=number)
            for number, h in enumerate(hops, start=1)
        ]
        result["codeFlows"] = [
            {
                "threadFlows": [
                    {
                        "locations": [
                            {
                                "location": _location(paths, h.path, h.line, message=h.describe()),
                                "nestingLevel": 0,
                                "executionOrder": number,
                            }
                            for number, h in enumerate(hops, start=1)
                        ]
                    }
                ]
            }
        ]
    if finding.expected:
        result["suppressions"] = [
            {
                "kind": "external",
                "status": "accepted",
                "justification": 'known: expect = "broken" / expect_loaded in the configuration',
            }
        ]
    return result


def render(report: RunReport, root: str | None = None) -> str:
    """The log, its paths relative to `%SRCROOT%`: `root`, by default the root of the
    repository that holds the configuration (as GitHub annotations), else its directory."""
    base = os.path.dirname(os.path.abspath(report.config_path))
    root, in_checkout = _root(base, root)
    paths = PathMapper(report.config_path, root)
    found = [f for r in report.results for f in findings(r)]
    in_cut = {v: note for r in report.results for v, note in cut_notes(r).items()}
    codes = list(RULES)
    codes.extend(sorted({f.violation.code for f in found} - set(codes)))
    index = {code: number for number, code in enumerate(codes)}
    notifications = [
        {
            "level": "warning",
            "message": {"text": warning},
            "descriptor": {"id": "configuration-warning"},
        }
        for warning in report.warnings
    ]
    invocation: dict[str, Any] = {
        "executionSuccessful": report.exit_code != 2,
        "exitCode": report.exit_code,
    }
    if notifications:
        invocation["toolConfigurationNotifications"] = notifications
    run = {
        "tool": {"driver": _driver(codes)},
        "originalUriBaseIds": _base_ids(in_checkout),
        "invocations": [invocation],
        "results": [_result(f, paths, index[f.violation.code], in_cut) for f in found],
        "columnKind": "unicodeCodePoints",
    }
    return _log(run)


def render_error(error: ConfigError, root: str | None = None) -> str:
    root, in_checkout = _root(os.getcwd(), root)
    paths = PathMapper("", root)
    notifications = []
    for problem in error.problems:
        text = problem.message + (f" (hint: {problem.hint})" if problem.hint else "")
        notification: dict[str, Any] = {
            "level": "error",
            "message": {"text": text},
            "descriptor": {"id": CONFIG_ERROR},
        }
        if problem.path:  # a command-line mistake has no place in a file
            notification["locations"] = [
                _location(paths, problem.path, problem.line, problem.column)
            ]
        notifications.append(notification)
    run = {
        "tool": {"driver": _driver(list(RULES))},
        "originalUriBaseIds": _base_ids(in_checkout),
        "invocations": [
            {
                "executionSuccessful": False,
                "exitCode": 2,
                "toolConfigurationNotifications": notifications,
            }
        ],
        "results": [],
    }
    return _log(run)
