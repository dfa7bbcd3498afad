"""Print, as JSON, what import-linter finds for each contract of an import-linter configuration.

Run as a script (`python importlinter_findings.py CONFIG SOURCE_ROOT`) in a subprocess: it goes
through the steps of import-linter's own entry point `use_cases.lint_imports` (what `lint-imports`
runs): read the options, register the contract types, `create_report`, in a fresh interpreter where
the package under test is importable. For each
contract name: whether it was kept and its findings as plain pairs, before import-linter renders
them; plus the graph's imports, so a test can tell a real path from an invented one.
"""

from __future__ import annotations

import json
import sys


def _links(links) -> list[list[str]]:
    return [[link["importer"], link["imported"]] for link in links]


def _detailed(chain) -> dict:
    """A route: its main chain, and the other first and last imports grimp found beside it."""
    return {
        "chain": _links(chain["chain"]),
        "extra_firsts": _links(chain["extra_firsts"]),
        "extra_lasts": _links(chain["extra_lasts"]),
    }


def findings(contract, check) -> dict:
    metadata = check.metadata
    kind = type(contract).__name__
    if kind == "ForbiddenContract":
        return {
            "pairs": [
                [d["downstream_module"], d["upstream_module"]] for d in metadata["invalid_chains"]
            ],
            "routes": [
                {
                    "pair": [d["downstream_module"], d["upstream_module"]],
                    "chain": _links(c),
                    "extra_firsts": [],
                    "extra_lasts": [],
                }
                for d in metadata["invalid_chains"]
                for c in d["chains"]
            ],
        }
    if kind == "LayersContract":
        return {
            "pairs": [[d["importer"], d["imported"]] for d in metadata["invalid_dependencies"]],
            "routes": [
                {"pair": [d["importer"], d["imported"]], **_detailed(r)}
                for d in metadata["invalid_dependencies"]
                for r in d["routes"]
            ],
        }
    if kind == "IndependenceContract":
        return {
            "pairs": [
                [d["downstream_module"], d["upstream_module"]] for d in metadata["invalid_chains"]
            ],
            "routes": [
                {"pair": [d["downstream_module"], d["upstream_module"]], **_detailed(c)}
                for d in metadata["invalid_chains"]
                for c in d["chains"]
            ],
        }
    if kind == "ProtectedContract":
        return {
            "links": [
                link
                for found in metadata["illegal_imports"]
                for link in _links(found.illegal_links)
            ]
        }
    if kind == "AcyclicSiblingsContract":
        return {
            "links": [
                [a, b]
                for breakers in metadata["cycle_breakers_by_package"].values()
                for a, b in breakers
            ]
        }
    raise ValueError(f"no reading of {kind}")


def main(config: str, source_root: str) -> None:
    sys.path.insert(0, source_root)
    from importlinter import configuration
    from importlinter.application import use_cases

    configuration.configure()
    options = use_cases.read_user_options(config)
    # as lint_imports does before create_report, in the installed version
    if hasattr(use_cases, "_register_built_in_contract_types"):
        use_cases._register_built_in_contract_types()
    else:  # import-linter 2.16 and older (2.15 is the last for Python 3.10), with the plugins
        use_cases._register_contract_types(options)
    report = use_cases.create_report(options, cache_dir=None)
    graph = report.graph
    result = {
        "imports": sorted(
            [m, n] for m in graph.modules for n in graph.find_modules_directly_imported_by(m)
        ),
        "contracts": {
            contract.name: {"kept": check.kept, **findings(contract, check)}
            for contract, check in report.get_contracts_and_checks()
        },
    }
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main(*sys.argv[1:])
