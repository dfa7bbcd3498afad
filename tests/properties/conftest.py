"""Hypothesis profiles: "ci" (default: small, the whole suite well under a minute on two cores),
"matrix" (a third of that: `.ci/run` gives it to the suites of the Pythons after the first, whose
examples are drawn afresh, so the run as a whole tries more cases than one suite), and "large"
(LAYERING_HYPOTHESIS_PROFILE=large: thousands of cases, for a nightly or a hunt)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_common = dict(
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
    ],
    print_blob=True,
)

settings.register_profile("ci", max_examples=30, **_common)
settings.register_profile("matrix", max_examples=10, **_common)
settings.register_profile("large", max_examples=2000, **_common)
settings.load_profile(os.environ.get("LAYERING_HYPOTHESIS_PROFILE", "ci"))
