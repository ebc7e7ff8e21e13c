"""Cancelling a job: the caller returns without waiting for the workers, the workers abort the
HTTP requests, and a worker that does not acknowledge is replaced."""

from __future__ import annotations

import os
import signal

import pytest
import trio
import trio.testing

from i18nprune.pool import JobOutcome, PoolStatistics, WorkerPool
from i18nprune.testing import FakeProvider, fake_translation
from tests.pool.conftest import job_for, settings_for, texts, wait_until, with_pool

pytestmark = pytest.mark.slow


async def _cancel_after_requests(pool: WorkerPool, fake: FakeProvider, requests: int) -> None:
    """Start a 40-text job, and cancel it once `requests` requests reached the fake."""
    settings = settings_for("libre", fake.base_url, batch_size=2, max_concurrency=requests)
    with trio.CancelScope() as scope:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(pool.translate, job_for(texts(40), settings))
            assert await trio.to_thread.run_sync(fake.wait_for_requests, requests, 30)
            scope.cancel()


def test_a_cancelled_caller_returns_while_its_workers_cannot_acknowledge() -> None:
    # The workers are stopped, so nothing can acknowledge the cancel; and the clock stands still
    # (trio's MockClock), so the pool's grace before killing them cannot run out meanwhile.
    with FakeProvider("libre", latency=60.0) as fake:

        async def body(pool: WorkerPool) -> tuple[PoolStatistics, int]:
            pids = pool.statistics().pids
            settings = settings_for("libre", fake.base_url, batch_size=2, max_concurrency=4)
            with trio.CancelScope() as scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(pool.translate, job_for(texts(40), settings))
                    assert await trio.to_thread.run_sync(fake.wait_for_requests, 4, 30)
                    for pid in pids:
                        os.kill(pid, signal.SIGSTOP)
                    scope.cancel()
            returned = pool.statistics()
            for pid in pids:
                os.kill(pid, signal.SIGCONT)
            aborted = await trio.to_thread.run_sync(wait_until, lambda: fake.stats().aborted == 4)
            return returned, aborted

        returned, aborted = with_pool(body, clock=trio.testing.MockClock())

    assert returned.cancelled == 4
    assert returned.batches_in_flight == 4  # still held by the workers: nobody acknowledged
    assert returned.killed == 0
    assert aborted


def test_cancelled_requests_are_aborted_by_the_workers_that_hold_them() -> None:
    # The clock stands still (trio's MockClock), so however slowly the workers acknowledge, the
    # pool's grace before killing them cannot run out: every abort is a worker's own doing.
    with FakeProvider("libre", latency=60.0) as fake:

        async def body(pool: WorkerPool) -> PoolStatistics:
            await _cancel_after_requests(pool, fake, requests=4)
            assert await trio.to_thread.run_sync(wait_until, lambda: fake.stats().aborted == 4)
            assert await trio.to_thread.run_sync(
                wait_until, lambda: pool.statistics().batches_in_flight == 0
            )
            return pool.statistics()

        statistics = with_pool(body, clock=trio.testing.MockClock())
        stats = fake.stats()

    assert stats.requests == 4
    assert stats.aborted == 4
    assert statistics.cancelled == 4
    assert statistics.killed == 0


def test_pool_translates_the_next_job_after_a_cancelled_one() -> None:
    items = texts(6)
    with FakeProvider("libre", latency=0.2) as fake:

        async def body(pool: WorkerPool) -> JobOutcome:
            await _cancel_after_requests(pool, fake, requests=4)
            settings = settings_for("libre", fake.base_url)
            return await pool.translate(job_for(items, settings))

        outcome = with_pool(body)

    assert outcome.translations == [fake_translation(text, "fr") for text in items]


def test_a_worker_that_does_not_acknowledge_a_cancel_is_killed_and_replaced() -> None:
    items = texts(2)
    with FakeProvider("libre", latency=60.0) as fake:

        async def body(pool: WorkerPool) -> tuple[PoolStatistics, JobOutcome]:
            (frozen,) = pool.statistics().pids
            settings = settings_for("libre", fake.base_url)
            with trio.CancelScope() as scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(pool.translate, job_for(items, settings))
                    assert await trio.to_thread.run_sync(fake.wait_for_requests, 1, 30)
                    os.kill(frozen, signal.SIGSTOP)  # alive, but deaf to the cancel
                    scope.cancel()
            with trio.fail_after(60):
                while pool.statistics().alive < 1 or frozen in pool.statistics().pids:
                    await trio.sleep(0.02)
            pseudo = settings_for("pseudo")
            return pool.statistics(), await pool.translate(job_for(items, pseudo))

        statistics, outcome = with_pool(body, size=1)

    assert statistics.killed == 1
    assert statistics.respawned == 1
    assert outcome.failures == {}
