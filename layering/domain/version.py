"""layering's version: in reports (JSON, SARIF), cache keys and `--version`, and the package's
metadata (`pyproject.toml` reads it from here)."""

VERSION = "0.1.0"
