"""The fleet's rate limit on a real Redis (`fleet.limits`): leases up to the concurrency, request
and character paces on the server's clock, a pause every member honours, leases of a dead member
that come back, and failures as one sentence without the password.

Waits are read from the server's answers (on its clock), never measured: a wait just after an
admission is the pace less the time between two commands, which is far below the margins."""

from __future__ import annotations

import time

import pytest

from i18nprune.fleet.connection import FleetUnavailable, connect
from i18nprune.fleet.limits import BUSY_POLL_SECONDS, Endpoint, FleetLimits, endpoint_key
from i18nprune.testing.redis_server import RedisServer
from tests.fleet.conftest import require_redis

KEY = endpoint_key("deepl", "https://api.deepl.com", "secret-key")


def limits(server: RedisServer, member: str) -> FleetLimits:
    return FleetLimits(connect(server.url), member)


def endpoint(
    *,
    max_concurrency: int = 8,
    rps: float | None = None,
    rpm: float | None = None,
    chars_per_minute: float | None = None,
    lease_seconds: float = 60.0,
) -> Endpoint:
    return Endpoint(
        key=KEY,
        max_concurrency=max_concurrency,
        rps=rps,
        rpm=rpm,
        chars_per_minute=chars_per_minute,
        lease_seconds=lease_seconds,
    )


def leases(server: RedisServer) -> int:
    return int(server.command("ZCARD", f"{KEY}:leases"))


def test_the_endpoint_key_tells_keys_apart_and_holds_neither_key_nor_url() -> None:
    other_key = endpoint_key("deepl", "https://api.deepl.com", "another-key")
    other_url = endpoint_key("deepl", "https://api-free.deepl.com", "secret-key")
    no_key = endpoint_key("deepl", "https://api.deepl.com", None)
    assert len({KEY, other_key, other_url, no_key}) == 4
    assert endpoint_key("deepl", "https://api.deepl.com", "secret-key") == KEY
    assert KEY.startswith("i18nprune:1:limit:{deepl:")
    assert "secret-key" not in KEY and "api.deepl.com" not in KEY


def test_members_hold_at_most_max_concurrency_leases_until_one_is_released(
    redis_server: RedisServer,
) -> None:
    one, other = limits(redis_server, "a"), limits(redis_server, "b")
    limit = endpoint(max_concurrency=2)
    first, second = one.admit(limit), other.admit(limit)
    assert first.lease is not None and second.lease is not None
    refused = other.admit(limit)
    assert refused.lease is None
    assert 0 < refused.wait <= BUSY_POLL_SECONDS  # asks again soon: a release is not announced
    assert leases(redis_server) == 2  # a refused admission takes nothing
    assert one.release(limit, first.lease)
    assert not one.release(limit, first.lease)
    assert other.admit(limit).lease is not None


def test_an_abandoned_lease_comes_back_after_its_expiry_and_a_renewed_one_stays(
    redis_server: RedisServer,
) -> None:
    dead, kept = limits(redis_server, "dead"), limits(redis_server, "kept")
    live = limits(redis_server, "live")
    short = endpoint(max_concurrency=2, lease_seconds=0.3)
    assert dead.admit(short).lease is not None  # its member is killed: never released
    renewed = kept.admit(short).lease
    assert renewed is not None
    refusals = 0
    while (admission := live.admit(short)).lease is None:
        refusals += 1
        assert admission.wait <= BUSY_POLL_SECONDS
        assert kept.renew(short, renewed)
        time.sleep(admission.wait)
    assert refusals > 0
    assert kept.renew(short, renewed)  # outlived the dead member's lease by being renewed
    assert leases(redis_server) == 2


def test_request_starts_are_spaced_by_the_stricter_of_rps_and_rpm(
    redis_server: RedisServer,
) -> None:
    one, other = limits(redis_server, "a"), limits(redis_server, "b")
    paced = endpoint(rps=1000.0, rpm=1.0)  # one a minute is stricter
    assert one.admit(paced).lease is not None
    refused = other.admit(paced)
    assert refused.lease is None
    assert 59.0 < refused.wait <= 60.0
    assert leases(redis_server) == 1


def test_characters_are_paced_and_a_batch_over_a_minute_of_them_starts_alone(
    redis_server: RedisServer,
) -> None:
    one, other = limits(redis_server, "a"), limits(redis_server, "b")
    limit = endpoint(chars_per_minute=60.0)  # one character a second
    assert one.admit(limit, chars=100).lease is not None  # 100 s of characters, admitted alone
    refused = other.admit(limit, chars=1)
    assert refused.lease is None
    assert 99.0 < refused.wait <= 100.0


def test_a_pause_holds_every_member_and_is_only_ever_extended(redis_server: RedisServer) -> None:
    one, other = limits(redis_server, "a"), limits(redis_server, "b")
    limit = endpoint()
    assert 29.0 < one.pause(limit, 30.0) <= 30.01
    assert 29.0 < other.pause(limit, 1.0) <= 30.01  # a shorter pause leaves it as it is
    refused = other.admit(limit)
    assert refused.lease is None and 29.0 < refused.wait <= 30.01
    assert leases(redis_server) == 0


def test_an_admission_and_a_release_can_carry_a_pause_for_the_fleet(
    redis_server: RedisServer,
) -> None:
    one, other = limits(redis_server, "a"), limits(redis_server, "b")
    limit = endpoint()
    owed = one.admit(limit, pause=20.0)  # a pause owed is applied before the checks
    assert owed.lease is None and 19.0 < owed.wait <= 20.01
    redis_server.command("DEL", f"{KEY}:pause")
    admitted = one.admit(limit)
    assert admitted.lease is not None
    assert one.release(limit, admitted.lease, pause=40.0)  # a 429's Retry-After
    refused = other.admit(limit)
    assert refused.lease is None and 39.0 < refused.wait <= 40.01


def test_an_idle_endpoint_leaves_nothing_in_redis(redis_server: RedisServer) -> None:
    one = limits(redis_server, "a")
    limit = endpoint(rps=50.0, chars_per_minute=60_000.0, lease_seconds=0.05)
    admitted = one.admit(limit, chars=10)
    assert admitted.lease is not None
    assert redis_server.command("KEYS", "i18nprune:*")
    one.release(limit, admitted.lease)
    one.pause(limit, 0.05)
    time.sleep(0.1)  # past every expiry (a bound on what expires, not a measurement)
    assert redis_server.command("KEYS", "i18nprune:*") == ""


@pytest.mark.slow
def test_a_lost_server_is_one_sentence_naming_it_without_the_password() -> None:
    require_redis()
    with RedisServer(password="hunter2") as server:
        member = FleetLimits(connect(server.url), "a")
        server.kill()
        for call in (
            lambda: member.admit(endpoint()),
            lambda: member.release(endpoint(), "a:1"),
            lambda: member.pause(endpoint(), 1.0),
        ):
            with pytest.raises(FleetUnavailable) as lost:
                call()
            message = str(lost.value)
            assert message == str(member.lost)  # the first failure, again at once
            assert "was lost during the run" in message
            assert f"127.0.0.1:{server.port}" in message
            assert "hunter2" not in message
