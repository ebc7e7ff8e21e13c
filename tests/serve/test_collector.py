"""The garbage collector while ops run: off from the first op's start to the last one's end."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from i18nprune.serve.session import CollectorPause


@pytest.fixture(autouse=True)
def collector_enabled() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_the_collector_is_off_inside_and_on_after() -> None:
    pause = CollectorPause()
    with pause.paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_overlapping_ops_keep_it_off_until_the_last_one_ends() -> None:
    pause = CollectorPause()
    first = pause.paused()
    second = pause.paused()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)
    assert not gc.isenabled()
    second.__exit__(None, None, None)
    assert gc.isenabled()


def test_an_op_that_raises_turns_it_back_on() -> None:
    pause = CollectorPause()
    with pytest.raises(ValueError), pause.paused():
        raise ValueError("an op failed")
    assert gc.isenabled()
