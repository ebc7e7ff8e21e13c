"""How many examples a property test tries.

The suite (the README's test command) tries a third of a test's thorough count, never fewer than
Hypothesis's default of 100: the long property runs are stress, which the suite's time budget
leaves to a run of their own. `.ci/run` makes that run after the suite, every property test at
its thorough count: `I18NPRUNE_TEST_THOROUGH=1 python3 -m pytest -n 3 -m property`.
"""

from __future__ import annotations

import os

THOROUGH_VARIABLE = "I18NPRUNE_TEST_THOROUGH"
"""Set to 1 for every property test's thorough example count."""

_SUITE_SHARE = 3
_FLOOR = 100


def examples(thorough: int) -> int:
    """The example count for a property test whose thorough count is `thorough`."""
    if os.environ.get(THOROUGH_VARIABLE) == "1":
        return thorough
    return min(thorough, max(_FLOOR, thorough // _SUITE_SHARE))
