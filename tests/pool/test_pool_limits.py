"""Per-provider limits shared by every job of a pool: concurrency, pacing, Retry-After pauses."""

from __future__ import annotations

import itertools

import trio

from i18nprune.pool import JobOutcome, TranslateJob, WorkerPool
from i18nprune.testing import FakeProvider, Fault, fake_translation
from tests.pool.conftest import job_for, settings_for, texts, with_pool


async def _run_concurrently(pool: WorkerPool, jobs: list[TranslateJob]) -> list[JobOutcome]:
    outcomes: list[JobOutcome] = []

    async def run(job: TranslateJob) -> None:
        outcomes.append(await pool.translate(job))

    async with trio.open_nursery() as nursery:
        for job in jobs:
            nursery.start_soon(run, job)
    return outcomes


def _assert_paced(starts: list[float], interval: float) -> None:
    # Arrival times at the fake jitter around the pool's exact pace (scheduling of both
    # processes; on a loaded 2-core machine one arrival can lag by most of an interval). Unpaced
    # requests arrive within a millisecond or two of each other, so these bounds still tell.
    gaps = [later - earlier for earlier, later in itertools.pairwise(starts)]
    assert min(gaps) >= interval / 4
    assert starts[-1] - starts[0] >= (len(starts) - 2) * interval


def test_requests_in_flight_never_exceed_max_concurrency() -> None:
    with FakeProvider("libre", latency=0.03) as fake:
        settings = settings_for("libre", fake.base_url, batch_size=2, max_concurrency=3)
        outcome = with_pool(lambda pool: pool.translate(job_for(texts(24), settings)))
        stats = fake.stats()

    assert outcome.failures == {}
    assert stats.requests == 12
    assert stats.max_concurrency == 3


def test_max_concurrency_is_shared_by_concurrent_jobs() -> None:
    with FakeProvider("libre", latency=0.03) as fake:
        settings = settings_for("libre", fake.base_url, batch_size=2, max_concurrency=3)
        jobs = [job_for(texts(12), settings), job_for(texts(12), settings)]
        outcomes = with_pool(lambda pool: _run_concurrently(pool, jobs))
        stats = fake.stats()

    assert all(not outcome.failures for outcome in outcomes)
    assert stats.requests == 12
    assert stats.max_concurrency == 3


def test_request_starts_are_paced_to_rps() -> None:
    with FakeProvider("libre") as fake:
        settings = settings_for("libre", fake.base_url, batch_size=1, rps=20.0)
        with_pool(lambda pool: pool.translate(job_for(texts(6), settings)))
        starts = sorted(request.started for request in fake.requests)

    _assert_paced(starts, 0.05)


def test_request_starts_are_paced_to_rpm() -> None:
    with FakeProvider("libre") as fake:
        settings = settings_for("libre", fake.base_url, batch_size=1, rpm=1200.0)
        with_pool(lambda pool: pool.translate(job_for(texts(4), settings)))
        starts = sorted(request.started for request in fake.requests)

    _assert_paced(starts, 0.05)


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
