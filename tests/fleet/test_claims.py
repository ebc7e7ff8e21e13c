"""The fleet member's requester (`translate.claims.ClaimingRequester`) in one process: real
jobs (`pool.job.run_job`) through real in-process providers (`LocalRequester`, pseudo) or a
real worker pool, one real Redis. Members that share texts send each once and agree on every
translation; a cancelled member gives its claims back; a lost server ends what is not sent yet
as lost, never hangs."""

from __future__ import annotations

import trio

from i18nprune.fleet.connection import connect
from i18nprune.fleet.store import FleetStore, Scope
from i18nprune.pool import WorkerPool
from i18nprune.pool.job import run_job
from i18nprune.testing import FakeProvider
from i18nprune.testing.redis_server import RedisServer
from i18nprune.translate.claims import ClaimingRequester
from i18nprune.translate.local import LocalRequester
from i18nprune.translate.pseudo import pseudo_localize
from tests.pool.conftest import job_for, settings_for, texts, with_pool

PSEUDO = settings_for("pseudo", batch_size=3, max_concurrency=2)


def member(server: RedisServer, name: str, claim_ms: int = 30_000) -> ClaimingRequester:
    return ClaimingRequester(LocalRequester(), FleetStore(connect(server.url), name, claim_ms))


def test_members_sharing_texts_send_each_once_and_agree(redis_server: RedisServer) -> None:
    shared = texts(40)
    members = [member(redis_server, name) for name in ("a", "b", "c")]
    # Each member's job holds the shared texts in another order, and some of its own.
    jobs = [
        job_for(shared[offset:] + shared[:offset] + [f"own {index}"], PSEUDO)
        for index, offset in enumerate((0, 13, 27))
    ]
    outcomes = []

    async def main() -> None:
        async def one(requester: ClaimingRequester, job: object) -> None:
            outcomes.append((job, await run_job(job, requester)))  # type: ignore[arg-type]

        async with trio.open_nursery() as nursery:
            for requester, job in zip(members, jobs, strict=True):
                nursery.start_soon(one, requester, job)

    trio.run(main)
    assert sum(requester.sent for requester in members) == len(shared) + len(members)
    for job, outcome in outcomes:
        assert not outcome.failures
        assert outcome.translations == [pseudo_localize(text) for text in job.texts]


def test_a_member_cancelled_while_its_request_is_out_gives_its_claims_back(
    redis_server: RedisServer,
) -> None:
    batch = texts(3)
    with FakeProvider("libre", latency=60.0) as fake:
        settings = settings_for("libre", fake.base_url, batch_size=3)
        store = FleetStore(connect(redis_server.url), "cancelled")

        async def body(pool: WorkerPool) -> None:
            requester = ClaimingRequester(pool, store)
            with trio.CancelScope() as scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(run_job, job_for(batch, settings), requester)
                    assert await trio.to_thread.run_sync(fake.wait_for_requests, 1, 30)
                    scope.cancel()

        with_pool(body, size=1)
    other = FleetStore(connect(redis_server.url), "other")
    claimed = other.claim(Scope(settings.cache_provider("fr"), "en", "fr"), batch)
    assert claimed.mine == batch  # not held until they expire: given back at the cancel


def test_a_text_held_by_a_member_that_died_is_sent_once_its_claim_expires(
    redis_server: RedisServer,
) -> None:
    dead = FleetStore(connect(redis_server.url), "dead", claim_ms=300)
    scope = Scope(PSEUDO.cache_provider("fr"), "en", "fr")
    batch = texts(3)
    dead.claim(scope, batch)  # and never renews them
    requester = member(redis_server, "alive")
    outcome = trio.run(run_job, job_for(batch, PSEUDO), requester)
    assert outcome.translations == [pseudo_localize(text) for text in batch]
    assert requester.sent == 3 and requester.received == 0


def test_a_lost_server_ends_the_batches_not_sent_yet_as_lost(
    redis_server: RedisServer,
) -> None:
    requester = member(redis_server, "a")
    redis_server.kill()
    outcome = trio.run(run_job, job_for(texts(6), PSEUDO), requester)
    assert outcome.translations == [None] * 6
    assert len(outcome.failures) == 6
    assert all("was lost during the run" in reason for reason in outcome.failures.values())
    assert requester.sent == 0
