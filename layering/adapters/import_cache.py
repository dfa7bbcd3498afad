"""What grimp read of each file, kept between runs by the file's content digest.

grimp's own cache keys a file by its modification time (a fresh checkout misses every file)
and writes by converting each of its import objects in turn, which costs a run with nothing
cached a tenth of a second per few thousand files. This cache is one `marshal` file per way of
reading the files (with external packages or not, with `TYPE_CHECKING` imports or not), each
module's statements as plain tuples with the file's digest and import signature: written in a
few milliseconds, read without building an object per import. The file names the Python and
grimp it was written with: another of either reads it as empty. A file that cannot be read is
empty too, and `damaged` says so (the graph is then scanned again and the file rewritten).
"""

from __future__ import annotations

import os
import shutil
import sys
from typing import Any

from layering.adapters.cache_files import DamagedCacheFile, read_marshal, write_marshal

FORMAT = 3
FILE_NAME = "imports.marshal"

Statement = tuple[str, int, str, bool]
"""One import grimp read: (imported module, line, the line's text, whether `lazy`)."""
CachedModule = tuple[str, str, tuple[Statement, ...]]
"""(content digest, import signature, statements) of one module."""


class ImportCache:
    """`<directory>/imports.marshal`: module -> (content digest, import signature, statements)."""

    def __init__(self, directory: str, written_by: str) -> None:
        self.path = os.path.join(directory, FILE_NAME)
        self._header = (FORMAT, sys.version, written_by)
        self.damaged = False

    def load(self) -> dict[str, CachedModule]:
        """Every module the file holds; empty when there is none, or another Python or grimp
        wrote it, or it is damaged (then `damaged` is set)."""
        try:
            data = read_marshal(self.path, FORMAT)
        except FileNotFoundError:
            return {}
        except (OSError, DamagedCacheFile):
            self.damaged = True
            return {}
        if data is None:  # another version's
            return {}
        if not (isinstance(data, tuple) and len(data) == 2 and isinstance(data[1], dict)):
            self.damaged = True
            return {}
        header, modules = data
        if header != self._header:
            return {}
        if not all(_well_formed(entry) for entry in modules.values()):
            self.damaged = True
            return {}
        return modules

    def write(self, modules: dict[str, CachedModule]) -> None:
        """Replace the file by `modules`, atomically (a temporary file renamed over it): a
        concurrent run reads the old file or the new one, never half of one. A directory in its
        place (it was read as damaged) is removed first."""
        if os.path.isdir(self.path) and not os.path.islink(self.path):
            shutil.rmtree(self.path, ignore_errors=True)
        write_marshal(self.path, (self._header, modules), FORMAT)


def _well_formed(entry: Any) -> bool:
    return (
        isinstance(entry, tuple)
        and len(entry) == 3
        and isinstance(entry[0], str)
        and isinstance(entry[1], str)
        and isinstance(entry[2], tuple)
        and all(isinstance(s, tuple) and len(s) == 4 for s in entry[2])
    )
