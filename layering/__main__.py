"""`python -m layering` is `layering`."""

from layering.cli import run

run()
