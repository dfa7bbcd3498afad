"""The pure core of `layering`: import facts, module patterns, violations and results.

Nothing in this package reads files, runs processes or imports grimp: it only describes
what the engine found and what a contract concluded, so it is cheap to import and easy to
test.
"""
