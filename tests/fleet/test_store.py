"""The fleet's records on a real Redis (`fleet.store`): the memory keyed like the local cache,
claims that exclude other members until settled, released or expired, and failures as one
sentence without the password."""

from __future__ import annotations

import time

import pytest

from i18nprune.fleet.connection import FleetUnavailable, connect, shown, url_problem
from i18nprune.fleet.store import FleetStore, Scope
from i18nprune.testing.redis_server import RedisServer
from tests.fleet.conftest import require_redis

SCOPE = Scope("deepl~0123", "en", "fr")


def store(
    server: RedisServer, member: str, unix: bool = False, claim_ms: int = 30_000
) -> FleetStore:
    url = server.unix_url if unix else server.url
    return FleetStore(connect(url), member, claim_ms)


def test_the_memory_answers_what_was_put_under_the_same_scope_only(
    redis_server: RedisServer,
) -> None:
    one, other = store(redis_server, "a"), store(redis_server, "b", unix=True)
    one.put(SCOPE, [("Hello\0Hello", "Bonjour"), ("Bye\0Bye", "Au revoir")])
    assert other.get(SCOPE, ["Hello\0Hello", "Bye\0Bye", "New\0New"]) == {
        "Hello\0Hello": "Bonjour",
        "Bye\0Bye": "Au revoir",
    }
    assert other.get(Scope("deepl~0123", "en", "de"), ["Hello\0Hello"]) == {}
    assert other.get(Scope("deepl", "en", "fr"), ["Hello\0Hello"]) == {}


def test_a_claimed_text_is_held_for_others_until_settled_and_then_done(
    redis_server: RedisServer,
) -> None:
    one, other = store(redis_server, "a"), store(redis_server, "b")
    first = one.claim(SCOPE, ["x", "y", "x"])
    assert (first.mine, first.done, first.held) == (["x", "y"], {}, [])
    second = other.claim(SCOPE, ["x", "y", "z"])
    assert (second.mine, second.held) == (["z"], ["x", "y"])
    assert one.claim(SCOPE, ["x"]).mine == ["x"]  # a member's own claim is renewed
    one.settle(SCOPE, {"x": "X"})
    third = other.claim(SCOPE, ["x", "y"])
    assert (third.mine, third.done, third.held) == ([], {"x": "X"}, ["y"])


def test_a_released_claim_goes_to_the_next_member_and_only_the_holder_can_release(
    redis_server: RedisServer,
) -> None:
    one, other = store(redis_server, "a"), store(redis_server, "b")
    one.claim(SCOPE, ["x"])
    assert other.release(SCOPE, ["x"]) == 0
    assert other.claim(SCOPE, ["x"]).held == ["x"]
    assert one.release(SCOPE, ["x"]) == 1
    assert other.claim(SCOPE, ["x"]).mine == ["x"]


def test_a_claim_not_renewed_expires_and_a_renewed_one_stays(redis_server: RedisServer) -> None:
    one, other = store(redis_server, "a", claim_ms=300), store(redis_server, "b")
    one.claim(SCOPE, ["gone", "kept"])
    for _ in range(4):
        time.sleep(0.1)
        assert one.renew(SCOPE, ["kept"]) == 1
    assert other.claim(SCOPE, ["gone", "kept"]).mine == ["gone"]


@pytest.mark.slow
def test_a_lost_server_is_one_sentence_naming_it_without_the_password() -> None:
    require_redis()
    with RedisServer(password="hunter2") as server:
        member = store(server, "a")
        server.kill()
        with pytest.raises(FleetUnavailable) as lost:
            member.get(SCOPE, ["x"])
        with pytest.raises(FleetUnavailable) as unreachable:
            connect(server.url)
        for failure in (lost.value, unreachable.value):
            assert "hunter2" not in str(failure)
            assert f"127.0.0.1:{server.port}" in str(failure)
        assert "was lost during the run" in str(lost.value)
        assert "cannot be reached" in str(unreachable.value)


def test_a_wrong_password_is_refused_saying_so() -> None:
    require_redis()
    with RedisServer(password="right") as server:
        wrong = server.url.replace(":right@", ":wrong@")
        with pytest.raises(FleetUnavailable, match="refused the client") as refused:
            connect(wrong)
        assert "wrong" not in str(refused.value).replace("WRONGPASS", "")


def test_a_full_server_is_an_error_saying_what_to_do() -> None:
    require_redis()
    with RedisServer(maxmemory=1_500_000) as server:
        member = store(server, "a")
        with pytest.raises(FleetUnavailable, match="is full") as full:
            for round_ in range(200):
                member.put(SCOPE, [(f"{round_}-{n}", "x" * 200) for n in range(500)])
        assert "maxmemory" in str(full.value)


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("http://host:6379", "is not a Redis URL"),
        ("redis://", "names no host"),
        ("unix://", "names no socket"),
        ("redis://host:port/0", "not a number"),
    ],
)
def test_urls_that_are_not_a_shared_memory_say_why(url: str, problem: str) -> None:
    found = url_problem(url)
    assert found is not None and problem in found
    with pytest.raises(FleetUnavailable, match=problem):
        connect(url)


def test_passwords_are_never_shown() -> None:
    assert shown("redis://user:pw@host:6379/0") == "redis://***@host:6379/0"
    assert shown("rediss://:pw@host/1") == "rediss://***@host/1"
    assert shown("unix:///run/redis.sock?db=0&password=pw") == (
        "unix:///run/redis.sock?db=0&password=***"
    )
    assert url_problem("rediss://:pw@host:6380/0") is None
