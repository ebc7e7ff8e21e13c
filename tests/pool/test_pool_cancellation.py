"""Cancelling a job: the caller returns at once, workers abort the HTTP requests, and a worker
that does not acknowledge is replaced."""

from __future__ import annotations

import os
import signal
import time

import trio

from i18nprune.pool import JobOutcome, PoolStatistics, WorkerPool
from i18nprune.testing import FakeProvider, fake_translation
from tests.pool.conftest import job_for, settings_for, texts, with_pool


async def _cancel_after_requests(
    pool: WorkerPool, fake: FakeProvider, job_size: int, requests: int
) -> float:
    """Start a job, cancel it once `requests` requests reached the fake; seconds to return."""
    settings = settings_for("libre", fake.base_url, batch_size=2, max_concurrency=requests)
    with trio.CancelScope() as scope:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(pool.translate, job_for(texts(job_size), settings))
            assert await trio.to_thread.run_sync(fake.wait_for_requests, requests)
            cancelled_at = time.perf_counter()
            scope.cancel()
    return time.perf_counter() - cancelled_at


def test_cancelled_caller_returns_promptly_and_the_requests_are_aborted() -> None:
    with FakeProvider("libre", latency=0.5) as fake:

        async def body(pool: WorkerPool) -> tuple[float, PoolStatistics]:
            elapsed = await _cancel_after_requests(pool, fake, job_size=40, requests=4)
            with trio.fail_after(2):
                while fake.stats().aborted < 4:
                    await trio.sleep(0.01)
            return elapsed, pool.statistics()

        elapsed, statistics = with_pool(body)
        stats = fake.stats()

    assert elapsed < 0.1
    assert stats.requests == 4
    assert stats.aborted == 4
    assert statistics.cancelled == 4
    assert statistics.killed == 0


def test_pool_translates_the_next_job_after_a_cancelled_one() -> None:
    items = texts(6)
    with FakeProvider("libre", latency=0.2) as fake:

        async def body(pool: WorkerPool) -> JobOutcome:
            await _cancel_after_requests(pool, fake, job_size=40, requests=4)
            settings = settings_for("libre", fake.base_url)
            return await pool.translate(job_for(items, settings))

        outcome = with_pool(body)

    assert outcome.translations == [fake_translation(text, "fr") for text in items]


def test_a_worker_that_does_not_acknowledge_a_cancel_is_killed_and_replaced() -> None:
    items = texts(2)
    with FakeProvider("libre", latency=5.0) as fake:

        async def body(pool: WorkerPool) -> tuple[PoolStatistics, JobOutcome]:
            (frozen,) = pool.statistics().pids
            settings = settings_for("libre", fake.base_url)
            with trio.CancelScope() as scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(pool.translate, job_for(items, settings))
                    assert await trio.to_thread.run_sync(fake.wait_for_requests, 1)
                    os.kill(frozen, signal.SIGSTOP)  # alive, but deaf to the cancel
                    scope.cancel()
            with trio.fail_after(3):
                while pool.statistics().alive < 1 or frozen in pool.statistics().pids:
                    await trio.sleep(0.02)
            pseudo = settings_for("pseudo")
            return pool.statistics(), await pool.translate(job_for(items, pseudo))

        statistics, outcome = with_pool(body, size=1)

    assert statistics.killed == 1
    assert statistics.respawned == 1
    assert outcome.failures == {}
