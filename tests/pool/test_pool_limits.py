"""Per-provider limits shared by every job of a pool: concurrency, pacing, Retry-After pauses."""

from __future__ import annotations

import itertools

import pytest
import trio
import trio.testing

from i18nprune.pool import JobOutcome, TranslateJob, WorkerPool
from i18nprune.pool.messages import ProviderSettings, Result
from i18nprune.testing import FakeProvider, Fault, fake_translation
from tests.pool.conftest import job_for, settings_for, texts, with_pool

pytestmark = pytest.mark.slow


async def _run_concurrently(pool: WorkerPool, jobs: list[TranslateJob]) -> list[JobOutcome]:
    outcomes: list[JobOutcome] = []

    async def run(job: TranslateJob) -> None:
        outcomes.append(await pool.translate(job))

    async with trio.open_nursery() as nursery:
        for job in jobs:
            nursery.start_soon(run, job)
    return outcomes


async def _admitted_at(pool: WorkerPool, settings: ProviderSettings, count: int) -> list[float]:
    """Send `count` one-text requests at once (texts of 6 characters while count ≤ 10); the
    pool's clock as each was let through the gate (`admit` runs as a request starts). They all
    come back translated."""
    starts: list[float] = []

    def admit() -> bool:
        starts.append(trio.current_time())
        return True

    async def send(index: int) -> None:
        reply = await pool.request(settings, "en", "fr", [f"Text {index}"], admit)
        assert isinstance(reply, Result)

    async with trio.open_nursery() as nursery:
        for index in range(count):
            nursery.start_soon(send, index)
    return starts


def _paced_starts(settings: ProviderSettings, count: int) -> list[float]:
    # On trio's MockClock with autojump the pool's clock is virtual: a wait for the pace ends
    # exactly at its deadline, whatever the load on the machine, so the gaps are exact.
    clock = trio.testing.MockClock(autojump_threshold=0)
    return with_pool(lambda pool: _admitted_at(pool, settings, count), clock=clock)


def test_requests_in_flight_never_exceed_max_concurrency() -> None:
    # The fake holds the first answers until three requests are in flight (`gather`): reaching
    # the limit does not depend on how loaded the machine is.
    with FakeProvider("libre", latency=0.03, gather=3) as fake:
        settings = settings_for("libre", fake.base_url, batch_size=2, max_concurrency=3)
        outcome = with_pool(lambda pool: pool.translate(job_for(texts(24), settings)))
        stats = fake.stats()

    assert outcome.failures == {}
    assert stats.requests == 12
    assert stats.max_concurrency == 3


def test_max_concurrency_is_shared_by_concurrent_jobs() -> None:
    with FakeProvider("libre", latency=0.03, gather=3) as fake:
        settings = settings_for("libre", fake.base_url, batch_size=2, max_concurrency=3)
        jobs = [job_for(texts(12), settings), job_for(texts(12), settings)]
        outcomes = with_pool(lambda pool: _run_concurrently(pool, jobs))
        stats = fake.stats()

    assert all(not outcome.failures for outcome in outcomes)
    assert stats.requests == 12
    assert stats.max_concurrency == 3


def test_request_starts_are_paced_to_rps() -> None:
    with FakeProvider("libre") as fake:
        settings = settings_for("libre", fake.base_url, batch_size=1, max_concurrency=6, rps=4.0)
        starts = _paced_starts(settings, 6)
        requests = fake.stats().requests

    assert requests == 6
    assert [later - earlier for earlier, later in itertools.pairwise(starts)] == (
        pytest.approx([0.25] * 5)
    )


def test_request_starts_are_paced_to_rpm() -> None:
    with FakeProvider("libre") as fake:
        settings = settings_for("libre", fake.base_url, batch_size=1, max_concurrency=4, rpm=6.0)
        starts = _paced_starts(settings, 4)
        requests = fake.stats().requests

    assert requests == 4
    assert [later - earlier for earlier, later in itertools.pairwise(starts)] == (
        pytest.approx([10.0] * 3)
    )


def test_the_slower_of_rps_and_rpm_sets_the_pace() -> None:
    with FakeProvider("libre") as fake:
        settings = settings_for("libre", fake.base_url, max_concurrency=3, rps=10.0, rpm=30.0)
        starts = _paced_starts(settings, 3)

    assert [later - earlier for earlier, later in itertools.pairwise(starts)] == (
        pytest.approx([2.0] * 2)
    )


def test_request_starts_are_paced_to_characters_per_minute() -> None:
    with FakeProvider("libre") as fake:
        settings = settings_for("libre", fake.base_url, max_concurrency=4, chars_per_minute=120)
        starts = _paced_starts(settings, 4)
        requests = fake.stats().requests

    assert requests == 4
    # 6 characters at 2 a second: each request waits 3 s for the characters of the one before.
    assert [later - earlier for earlier, later in itertools.pairwise(starts)] == (
        pytest.approx([3.0] * 3)
    )


def test_a_batch_larger_than_a_minute_of_characters_starts_alone() -> None:
    with FakeProvider("libre") as fake:
        settings = settings_for(
            "libre", fake.base_url, max_concurrency=3, rps=10.0, chars_per_minute=3
        )
        starts = _paced_starts(settings, 3)
        requests = fake.stats().requests

    assert requests == 3
    # Two minutes' worth each: never refused for its size, each waits for the one before.
    assert [later - earlier for earlier, later in itertools.pairwise(starts)] == (
        pytest.approx([120.0] * 2)
    )


def test_retry_after_pauses_the_provider_for_every_job() -> None:
    with FakeProvider("libre", faults=[Fault(kind="rate_limit", retry_after=0.4)]) as fake:
        settings = settings_for("libre", fake.base_url, batch_size=2, max_concurrency=1)
        jobs = [job_for(texts(4), settings), job_for(texts(6), settings)]
        outcomes = with_pool(lambda pool: _run_concurrently(pool, jobs))
        requests = fake.requests

    limited = [request for request in requests if request.status == 429]
    assert len(limited) == 1
    assert limited[0].finished is not None
    resume = limited[0].finished + 0.4
    later = [request for request in requests if request.started > limited[0].started]
    assert len(later) == 5
    assert all(request.started >= resume for request in later)
    for outcome in outcomes:
        expected = [fake_translation(text, "fr") for text in texts(len(outcome.translations))]
        assert outcome.translations == expected
