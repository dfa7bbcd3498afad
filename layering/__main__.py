"""`python -m layering` is `layering`.

`python -m` puts the working directory first on `sys.path`, so a project file there named like a
standard-library module (`argparse.py`, `json.py`) would be imported in place of it and run
inside layering, which runs no project code. The entry goes before anything is imported, as
pip's `__main__` does; layering finds the project's packages through its source roots, as the
`layering` command does, which never has the working directory on its path.
"""

import os
import sys

if sys.path and sys.path[0] in ("", os.getcwd()) and not getattr(sys.flags, "safe_path", False):
    del sys.path[0]

from layering.cli import run  # noqa: E402 - after the path is cleaned

run()
