"""The property tests' example counts: a share in the suite, all under the thorough run."""

from __future__ import annotations

import pytest

from tests.properties import THOROUGH_VARIABLE, examples


def test_the_suite_tries_a_third_never_under_hypothesis_default(monkeypatch):
    monkeypatch.delenv(THOROUGH_VARIABLE, raising=False)
    assert [examples(n) for n in (60, 150, 300, 400, 500)] == [60, 100, 100, 133, 166]


@pytest.mark.parametrize("thorough", [60, 150, 500])
def test_the_thorough_run_tries_every_example(monkeypatch, thorough):
    monkeypatch.setenv(THOROUGH_VARIABLE, "1")
    assert examples(thorough) == thorough
