"""One provider limit for a fleet (`pool.fleet_limited` over `fleet.limits`): several members,
each its own worker pool (its own gate) wrapped in its own `FleetLimitedRequester`, run jobs at
once against one loopback fake; the limit holds for all of them together.

Each member translates into its own target, so the fake's record tells whose each request was.
Timings are the fake's record of when requests arrived, compared with the configured pace."""

from __future__ import annotations

import itertools
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

import pytest
import trio

from i18nprune.config.schema import TranslatePolicy
from i18nprune.fleet.connection import connect
from i18nprune.fleet.limits import Endpoint, FleetLimits, endpoint_key
from i18nprune.pool import JobOutcome, TranslateJob, WorkerPool, open_pool
from i18nprune.pool.fleet_limited import FleetLimitedRequester
from i18nprune.pool.job import run_job
from i18nprune.pool.messages import ProviderSettings, Result
from i18nprune.testing import FakeProvider, Fault, RecordedRequest, fake_translation
from i18nprune.testing.redis_server import RedisServer
from tests.fleet.conftest import require_redis
from tests.pool.conftest import settings_for, texts, worker_env

LEASE_SECONDS = 0.3
"""The leases of the renewal test's members (a run's: `cache.claimSeconds`)."""

pytestmark = pytest.mark.slow

TARGETS = ["fr", "de", "it"]
"""One per member."""
HANG_GUARD_SECONDS = 60.0
"""Fails a test that hangs (a bound, never reached by a passing run)."""


@asynccontextmanager
async def fleet(server: RedisServer, count: int) -> AsyncIterator[list[FleetLimitedRequester]]:
    """`count` members: a worker pool of one worker each, and its own connection to `server`."""
    async with AsyncExitStack() as stack:
        pools = [await stack.enter_async_context(open_pool(1)) for _ in range(count)]
        for pool in pools:
            await pool.wait_ready()
        members = []
        for index, pool in enumerate(pools):
            connection = connect(server.url)
            stack.callback(connection.close)
            limits = FleetLimits(connection, f"member-{index}")
            members.append(FleetLimitedRequester(pool, limits))
        yield members


def job(count: int, settings: ProviderSettings, target: str) -> TranslateJob:
    return TranslateJob(
        texts=texts(count), source="en", target=target, chain=[settings], policy=TranslatePolicy()
    )


async def run_together(
    members: Sequence[FleetLimitedRequester], count: int, settings: ProviderSettings
) -> list[JobOutcome]:
    """Each member translates `count` texts into its target, all at once; their outcomes."""
    outcomes: dict[int, JobOutcome] = {}

    async def run(index: int) -> None:
        outcomes[index] = await run_job(job(count, settings, TARGETS[index]), members[index])

    with trio.fail_after(HANG_GUARD_SECONDS):
        async with trio.open_nursery() as nursery:
            for index in range(len(members)):
                nursery.start_soon(run, index)
    return [outcomes[index] for index in range(len(members))]


def translated(outcome: JobOutcome, count: int, target: str) -> bool:
    return outcome.translations == [fake_translation(text, target) for text in texts(count)]


def all_translated(outcomes: list[JobOutcome], count: int) -> bool:
    """Every member's `count` texts came back translated into its target."""
    return all(translated(outcome, count, TARGETS[i]) for i, outcome in enumerate(outcomes))


def gaps(requests: list[RecordedRequest]) -> list[float]:
    starts = sorted(request.started for request in requests)
    return [later - earlier for earlier, later in itertools.pairwise(starts)]


def test_requests_in_flight_across_the_fleet_never_exceed_max_concurrency(
    redis_server: RedisServer,
) -> None:
    # `gather`: the first answers wait for two requests in flight, however slow the machine.
    with FakeProvider("libre", latency=0.05, gather=2) as fake:
        settings = settings_for("libre", fake.base_url, batch_size=1, max_concurrency=2)

        async def main() -> list[JobOutcome]:
            async with fleet(redis_server, 3) as members:
                return await run_together(members, 8, settings)

        outcomes = trio.run(main)
        stats = fake.stats()

    assert all_translated(outcomes, 8)
    assert stats.requests == 24
    # Each member's own gate allows 2: without the fleet's limit 3 members reach 6.
    assert stats.max_concurrency == 2


def test_request_starts_across_the_fleet_are_paced_to_rps(redis_server: RedisServer) -> None:
    interval = 0.2
    with FakeProvider("libre") as fake:
        settings = settings_for(
            "libre", fake.base_url, batch_size=1, max_concurrency=4, rps=1 / interval
        )

        async def main() -> list[JobOutcome]:
            async with fleet(redis_server, 3) as members:
                return await run_together(members, 3, settings)

        outcomes = trio.run(main)
        requests = fake.requests

    assert all_translated(outcomes, 3)
    assert {request.target for request in requests} == set(TARGETS)
    # Admitted exactly one interval apart on the server's clock; arriving at the fake a little
    # later each. Each member's own gate paces only its own requests: without the fleet's limit
    # the three members start together.
    spacing = gaps(requests)
    assert len(spacing) == 8
    assert min(spacing) >= interval / 2
    assert sum(spacing) >= 0.9 * 8 * interval


def test_characters_across_the_fleet_are_paced_to_chars_per_minute(
    redis_server: RedisServer,
) -> None:
    seconds_per_char = 0.008
    with FakeProvider("libre") as fake:
        settings = settings_for(
            "libre",
            fake.base_url,
            batch_size=1,
            max_concurrency=4,
            chars_per_minute=60 / seconds_per_char,
        )

        async def main() -> list[JobOutcome]:
            async with fleet(redis_server, 2) as members:
                return await run_together(members, 4, settings)

        outcomes = trio.run(main)
        requests = sorted(fake.requests, key=lambda request: request.started)

    assert all_translated(outcomes, 4)
    # Each request waits for the characters of the one before it (~25 each, ~0.2 s).
    costs = [len(request.texts[0]) * seconds_per_char for request in requests[:-1]]
    spacing = gaps(requests)
    assert len(spacing) == 7
    assert all(gap >= cost / 2 for gap, cost in zip(spacing, costs, strict=True))
    assert sum(spacing) >= 0.9 * sum(costs)


def test_a_429_with_retry_after_from_one_member_pauses_every_member(
    redis_server: RedisServer,
) -> None:
    fault = Fault(kind="rate_limit", retry_after=0.4)
    with FakeProvider("libre", latency=0.02, faults=[fault]) as fake:
        settings = settings_for("libre", fake.base_url, batch_size=1, max_concurrency=1)

        async def main() -> list[JobOutcome]:
            async with fleet(redis_server, 3) as members:
                return await run_together(members, 3, settings)

        outcomes = trio.run(main)
        requests = fake.requests

    assert all_translated(outcomes, 3)
    limited = [request for request in requests if request.status == 429]
    assert len(limited) == 1 and limited[0].finished is not None
    resume = limited[0].finished + 0.4
    later = [request for request in requests if request.started > limited[0].started]
    assert len(later) == 9
    assert {request.target for request in later} == set(TARGETS)  # the others waited too
    assert all(request.started >= resume for request in later)


def test_a_pause_from_a_member_reaches_the_fleet_with_its_next_admission(
    redis_server: RedisServer,
) -> None:
    with FakeProvider("libre") as fake:
        settings = settings_for("libre", fake.base_url, batch_size=1)
        pause_key = endpoint_key(settings.id, settings.base_url, settings.api_key) + ":pause"
        observer = connect(redis_server.url).client

        async def main() -> float:
            async with fleet(redis_server, 2) as (one, other):
                paused_at = time.monotonic()
                one.pause(settings, 0.5)  # as a job does after a 429 without Retry-After
                with trio.fail_after(HANG_GUARD_SECONDS):
                    async with trio.open_nursery() as nursery:
                        nursery.start_soon(one.request, settings, "en", "fr", ["A"], lambda: True)
                        while not observer.exists(pause_key):
                            await trio.sleep(0.005)
                        reply = await other.request(settings, "en", "de", ["B"], lambda: True)
                        assert isinstance(reply, Result)
                return paused_at

        paused_at = trio.run(main)
        requests = fake.requests

    assert {request.target for request in requests} == {"fr", "de"}
    assert all(request.started >= paused_at + 0.5 for request in requests)


def test_a_killed_members_lease_comes_back_after_its_expiry(redis_server: RedisServer) -> None:
    with FakeProvider("libre") as fake:
        settings = settings_for("libre", fake.base_url, batch_size=1, max_concurrency=1)
        killed = FleetLimits(connect(redis_server.url), "killed")
        # The killed member holds the only slot and never gives it back; its lease is short so
        # that the test is (in a run: `cache.claimSeconds`).
        lease = Endpoint(
            key=endpoint_key(settings.id, settings.base_url, settings.api_key),
            max_concurrency=1,
            rps=None,
            rpm=None,
            chars_per_minute=None,
            lease_seconds=0.3,
        )

        async def main() -> tuple[float, list[JobOutcome]]:
            async with fleet(redis_server, 1) as members:
                taken_at = time.monotonic()
                assert killed.admit(lease).lease is not None
                return taken_at, await run_together(members, 3, settings)

        taken_at, outcomes = trio.run(main)
        requests = fake.requests

    assert all_translated(outcomes, 3)
    assert len(requests) == 3
    assert min(request.started for request in requests) >= taken_at + 0.3


def test_a_lease_is_renewed_while_its_request_runs(redis_server: RedisServer) -> None:
    # A lease lasts LEASE_SECONDS unless renewed; the first request takes four times that, and
    # the one slot is the other member's only once it is answered.
    with FakeProvider("libre", latency=LEASE_SECONDS * 4) as fake:
        settings = settings_for("libre", fake.base_url, batch_size=1, max_concurrency=1)
        leases = endpoint_key(settings.id, settings.base_url, settings.api_key) + ":leases"
        observer = connect(redis_server.url).client

        def member(pool: WorkerPool, name: str) -> FleetLimitedRequester:
            limits = FleetLimits(connect(redis_server.url), name, LEASE_SECONDS)
            return FleetLimitedRequester(pool, limits)

        async def main() -> None:
            async with open_pool(1) as first_pool, open_pool(1) as second_pool:
                await first_pool.wait_ready()
                await second_pool.wait_ready()
                one, other = member(first_pool, "one"), member(second_pool, "other")
                with trio.fail_after(HANG_GUARD_SECONDS):
                    async with trio.open_nursery() as nursery:
                        nursery.start_soon(one.request, settings, "en", "fr", ["A"], lambda: True)
                        while not observer.zcard(leases):
                            await trio.sleep(0.005)
                        await other.request(settings, "en", "de", ["B"], lambda: True)

        trio.run(main)
        first, second = sorted(fake.requests, key=lambda request: request.started)

    assert (first.target, second.target) == ("fr", "de")
    assert first.finished is not None and second.started >= first.finished


def test_no_lease_is_held_while_the_members_worker_starts(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    # Requests admitted while a member's worker starts would wait for it and then leave
    # together, past the fleet's pace: a member asks for admission once a worker is ready.
    with FakeProvider("libre") as fake:
        settings = settings_for("libre", fake.base_url, batch_size=1, max_concurrency=1)
        slow_start = worker_env(tmp_path, "time.sleep(1.0)")
        leases = endpoint_key(settings.id, settings.base_url, settings.api_key) + ":leases"
        observer = connect(redis_server.url).client
        held_while_starting: list[int] = []

        async def main() -> None:
            async with open_pool(1, env=slow_start) as pool:
                limits = FleetLimits(connect(redis_server.url), "slow", LEASE_SECONDS)
                member = FleetLimitedRequester(pool, limits)
                with trio.fail_after(HANG_GUARD_SECONDS):
                    async with trio.open_nursery() as nursery:
                        send = member.request
                        nursery.start_soon(send, settings, "en", "fr", ["A"], lambda: True)
                        while not pool.statistics().alive:
                            held_while_starting.append(observer.zcard(leases))
                            await trio.sleep(0.01)

        trio.run(main)
        answered = [request for request in fake.requests if request.status == 200]

    assert held_while_starting and set(held_while_starting) == {0}
    assert len(answered) == 1


def test_a_cancelled_job_leaves_no_lease_behind(redis_server: RedisServer) -> None:
    with FakeProvider("libre", faults=[Fault(kind="hang", times=-1)]) as fake:
        settings = settings_for("libre", fake.base_url, batch_size=1, max_concurrency=2)
        leases = endpoint_key(settings.id, settings.base_url, settings.api_key) + ":leases"

        async def main() -> tuple[str, str]:
            async with fleet(redis_server, 1) as (member,):
                with trio.move_on_after(HANG_GUARD_SECONDS) as guard:
                    async with trio.open_nursery() as nursery:
                        nursery.start_soon(run_job, job(6, settings, "fr"), member)
                        await trio.to_thread.run_sync(fake.wait_for_requests, 2)
                        # Two requests hang; more batches wait for admission meanwhile.
                        held = redis_server.command("ZCARD", leases)
                        nursery.cancel_scope.cancel()
                assert not guard.cancelled_caught
                return held, redis_server.command("ZCARD", leases)

        held, after = trio.run(main)

    assert (held, after) == ("2", "0")


def test_redis_lost_mid_job_ends_the_jobs_batches_with_a_clear_failure() -> None:
    require_redis()
    with (
        RedisServer(password="hunter2") as server,
        FakeProvider("libre", latency=0.03) as fake,
    ):
        settings = settings_for("libre", fake.base_url, batch_size=1, max_concurrency=2)

        async def main() -> tuple[list[JobOutcome], list[FleetLimitedRequester]]:
            async with fleet(server, 2) as members:

                async def kill_redis() -> None:
                    await trio.to_thread.run_sync(fake.wait_for_requests, 6)
                    await trio.to_thread.run_sync(server.kill)

                async with trio.open_nursery() as nursery:
                    nursery.start_soon(kill_redis)
                    outcomes = await run_together(members, 40, settings)
                return outcomes, members

        outcomes, members = trio.run(main)
        sent = fake.stats().requests

    done = sum(text is not None for o in outcomes for text in o.translations)
    failures = [reason for o in outcomes for reason in o.failures.values()]
    assert 6 <= done <= sent < 80
    assert done + len(failures) == 80
    assert all("was lost during the run" in reason for reason in failures)
    assert all(f"127.0.0.1:{server.port}" in reason for reason in failures)
    assert not any("hunter2" in reason for reason in failures)
    assert all(member.limits.lost is not None for member in members)
