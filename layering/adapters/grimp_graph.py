"""Build the module graph with grimp, with the source roots on the path and errors located."""

from __future__ import annotations

import sys
from typing import Any

from layering.adapters.source_facts import SourceUnreadable


def build_graph(
    root_packages: tuple[str, ...],
    source_roots: tuple[str, ...],
    exclude_type_checking_imports: bool,
    cache_dir: str | None,
) -> Any:
    """grimp's ImportGraph of the root packages, external packages included (squashed).

    The source roots go first on `sys.path` for the build, so that a checkout is read from
    source even when another copy of the package is installed.
    """
    import grimp
    from grimp.exceptions import SourceSyntaxError

    saved_path = list(sys.path)
    sys.path[:0] = [root for root in source_roots if root not in sys.path[: len(source_roots)]]
    shadowing = {name: sys.modules.pop(name) for name in root_packages if name in sys.modules}
    try:
        return grimp.build_graph(
            *root_packages,
            include_external_packages=True,
            exclude_type_checking_imports=exclude_type_checking_imports,
            cache_dir=cache_dir,
        )
    except SourceSyntaxError as error:
        raise SourceUnreadable(error.filename, error.lineno or 0, f"syntax error: {error.text or ''}".strip()) from None
    finally:
        sys.path[:] = saved_path
        sys.modules.update(shadowing)
