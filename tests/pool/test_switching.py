"""The GIL switch interval while an op runs threads beside its event loop."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator

import pytest

from i18nprune.pool.switching import RESPONSIVE_SWITCH_SECONDS, responsive_loop


@pytest.fixture
def interval() -> Iterator[None]:
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.005)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


@pytest.mark.usefixtures("interval")
def test_blocks_that_overlap_in_threads_restore_the_interval_when_the_last_ends() -> None:
    entered, release = threading.Event(), threading.Event()
    seen: list[float] = []

    def other() -> None:
        with responsive_loop():
            entered.set()
            release.wait(10)
            seen.append(sys.getswitchinterval())

    thread = threading.Thread(target=other)
    with responsive_loop():
        assert sys.getswitchinterval() == pytest.approx(RESPONSIVE_SWITCH_SECONDS)
        thread.start()
        assert entered.wait(10)
    assert sys.getswitchinterval() == pytest.approx(RESPONSIVE_SWITCH_SECONDS)  # still held
    release.set()
    thread.join(10)
    assert seen == [pytest.approx(RESPONSIVE_SWITCH_SECONDS)]
    assert sys.getswitchinterval() == pytest.approx(0.005)


@pytest.mark.usefixtures("interval")
def test_a_shorter_interval_already_set_is_kept_and_an_error_still_restores() -> None:
    sys.setswitchinterval(0.0005)
    with pytest.raises(RuntimeError), responsive_loop():
        assert sys.getswitchinterval() == pytest.approx(0.0005)
        raise RuntimeError("inside")
    assert sys.getswitchinterval() == pytest.approx(0.0005)
