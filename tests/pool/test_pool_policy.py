"""The translate policy as jobs live it: retries, splits, fallbacks, aborts, giving a hopeless
provider up, failure reasons."""

from __future__ import annotations

from typing import Any

import pytest
import trio
import trio.testing

from i18nprune.config.schema import TranslatePolicy
from i18nprune.pool import ProviderAttempt
from i18nprune.pool.job import next_step
from i18nprune.pool.messages import FailureKind
from i18nprune.pool.scheduler import ProviderHealth
from i18nprune.testing import FakeProvider, Fault, fake_translation
from tests.pool.conftest import job_for, settings_for, texts, with_pool


@pytest.mark.parametrize(
    ("policy", "kind", "failed_attempts", "step"),
    [
        ({}, "rate_limited", 1, "retry"),
        ({}, "rate_limited", 3, "retry"),
        ({"max_attempts": 1}, "rate_limited", 50, "retry"),
        ({"on_rate_limit": "fallback"}, "rate_limited", 1, "fallback"),
        ({"on_rate_limit": "abort"}, "rate_limited", 1, "abort"),
        ({}, "transient", 2, "retry"),
        ({"max_attempts": 2}, "transient", 2, "fallback"),
        ({"on_transient_failure": "abort"}, "transient", 1, "abort"),
        ({"on_transient_failure": "abort"}, "bad_response", 1, "retry"),
        ({}, "quota", 1, "fallback"),
        ({"on_quota_exceeded": "abort"}, "quota", 1, "abort"),
        ({}, "auth", 1, "abort"),
        ({"on_auth_failure": "fallback"}, "auth", 1, "fallback"),
    ],
)
def test_next_step_follows_the_policy(
    policy: dict[str, Any], kind: FailureKind, failed_attempts: int, step: str
) -> None:
    chosen = next_step(TranslatePolicy(**policy), kind, failed_attempts)
    assert chosen == step


def test_rate_limits_fall_back_once_the_time_budget_is_spent() -> None:
    policy = TranslatePolicy(give_up_after_seconds=10)
    assert next_step(policy, "rate_limited", 7, limited_for=9.9) == "retry"
    assert next_step(policy, "rate_limited", 7, limited_for=10.0) == "fallback"


@pytest.mark.slow
def test_transient_failures_are_retried_until_the_batch_succeeds() -> None:
    items = texts(5)
    with FakeProvider("libre", faults=[Fault(kind="server_error", times=2)]) as fake:
        job = job_for(items, settings_for("libre", fake.base_url))
        outcome = with_pool(lambda pool: pool.translate(job))

    assert outcome.translations == [fake_translation(text, "fr") for text in items]
    assert outcome.attempts == [ProviderAttempt("libre", "ok", requests=3, retries=2)]


@pytest.mark.slow
def test_texts_fail_when_retries_are_exhausted() -> None:
    with FakeProvider("libre", faults=[Fault(kind="server_error", times=-1)]) as fake:
        job = job_for(texts(5), settings_for("libre", fake.base_url), max_attempts=2)
        outcome = with_pool(lambda pool: pool.translate(job))
        requests = fake.stats().requests

    assert outcome.translations == [None] * 5
    assert set(outcome.failures) == set(range(5))
    assert all(reason.startswith("transient: libre: ") for reason in outcome.failures.values())
    assert outcome.attempts == [ProviderAttempt("libre", "failed", requests=2, retries=1)]
    assert requests == 2
    assert not outcome.aborted


@pytest.mark.slow
def test_quota_on_the_primary_falls_back_to_the_next_provider() -> None:
    items = texts(30)
    with (
        FakeProvider("deepl", faults=[Fault(kind="quota", times=-1)]) as primary,
        FakeProvider("libre") as secondary,
    ):
        chain = [
            settings_for("deepl", primary.base_url, api_key="k", max_concurrency=1),
            settings_for("libre", secondary.base_url),
        ]
        outcome = with_pool(lambda pool: pool.translate(job_for(items, *chain)))
        primary_requests = primary.stats().requests

    assert outcome.translations == [fake_translation(text, "fr") for text in items]
    assert outcome.fallback_count == 3
    assert outcome.attempts == [
        ProviderAttempt("deepl", "failed", requests=1, retries=0),
        ProviderAttempt("libre", "ok", requests=3, retries=0),
    ]
    assert primary_requests == 1  # after a quota answer the job stops asking that provider


@pytest.mark.slow
def test_fallback_cuts_batches_to_the_next_provider_batch_size() -> None:
    items = texts(10)
    with (
        FakeProvider("libre", faults=[Fault(kind="quota", times=-1)]) as primary,
        FakeProvider("azure") as secondary,
    ):
        chain = [
            settings_for("libre", primary.base_url, batch_size=10),
            settings_for("azure", secondary.base_url, api_key="k", batch_size=4),
        ]
        outcome = with_pool(lambda pool: pool.translate(job_for(items, *chain)))
        sizes = sorted(secondary.stats().batch_sizes)

    assert outcome.translations == [fake_translation(text, "fr") for text in items]
    assert sizes == [2, 4, 4]


@pytest.mark.slow
def test_texts_fail_when_the_last_provider_falls_back() -> None:
    with FakeProvider("libre", faults=[Fault(kind="quota", times=-1)]) as fake:
        job = job_for(texts(3), settings_for("libre", fake.base_url))
        outcome = with_pool(lambda pool: pool.translate(job))

    assert outcome.translations == [None] * 3
    assert all(reason.startswith("quota: libre: ") for reason in outcome.failures.values())
    assert outcome.fallback_count == 0


@pytest.mark.slow
def test_auth_failure_with_the_abort_policy_aborts_the_job() -> None:
    with FakeProvider("libre", latency=0.02, faults=[Fault(kind="auth", times=-1)]) as fake:
        settings = settings_for("libre", fake.base_url, batch_size=2, max_concurrency=2)
        outcome = with_pool(lambda pool: pool.translate(job_for(texts(20), settings)))
        requests = fake.stats().requests

    assert outcome.aborted
    assert outcome.translations == [None] * 20
    assert set(outcome.failures) == set(range(20))
    assert all(reason.startswith("aborted: auth: libre: ") for reason in outcome.failures.values())
    assert requests == 2  # the ones in flight when the first answer came, and no new ones


def test_auth_failure_with_the_fallback_policy_uses_the_next_provider() -> None:
    items = texts(4)
    with FakeProvider("libre", api_key="right") as primary, FakeProvider("azure") as secondary:
        chain = [
            settings_for("libre", primary.base_url, api_key="wrong"),
            settings_for("azure", secondary.base_url, api_key="k"),
        ]
        job = job_for(items, *chain, on_auth_failure="fallback")
        outcome = with_pool(lambda pool: pool.translate(job))

    assert outcome.translations == [fake_translation(text, "fr") for text in items]
    assert not outcome.aborted
    assert outcome.fallback_count == 1


@pytest.mark.slow
def test_rate_limit_with_the_abort_policy_aborts_the_job() -> None:
    with FakeProvider("libre", faults=[Fault(kind="rate_limit", times=-1)]) as fake:
        job = job_for(texts(3), settings_for("libre", fake.base_url), on_rate_limit="abort")
        outcome = with_pool(lambda pool: pool.translate(job))

    assert outcome.aborted
    assert all(
        reason.startswith("aborted: rate_limited: libre") for reason in outcome.failures.values()
    )


@pytest.mark.slow
def test_a_wrong_count_answer_is_split_until_the_texts_translate() -> None:
    items = texts(10)
    with FakeProvider("libre", faults=[Fault(kind="wrong_count")]) as fake:
        job = job_for(items, settings_for("libre", fake.base_url))
        outcome = with_pool(lambda pool: pool.translate(job))
        sizes = fake.stats().batch_sizes

    assert outcome.translations == [fake_translation(text, "fr") for text in items]
    assert sorted(sizes) == [5, 5, 10]


@pytest.mark.slow
def test_bad_responses_fail_the_texts_after_max_attempts_of_halving() -> None:
    with FakeProvider("libre", faults=[Fault(kind="malformed", times=-1)]) as fake:
        job = job_for(texts(4), settings_for("libre", fake.base_url), max_attempts=3)
        outcome = with_pool(lambda pool: pool.translate(job))
        sizes = sorted(fake.stats().batch_sizes)

    assert sizes == [1, 1, 1, 1, 2, 2, 4]
    assert outcome.translations == [None] * 4
    assert all(reason.startswith("bad_response: libre: ") for reason in outcome.failures.values())


@pytest.mark.slow
def test_failure_reasons_never_contain_the_api_key() -> None:
    secret = "sk-secret-value-123"
    with FakeProvider("google-cloud", api_key="other") as fake:
        settings = settings_for("google-cloud", fake.base_url, api_key=secret)
        outcome = with_pool(lambda pool: pool.translate(job_for(texts(2), settings)))

    assert outcome.aborted
    assert outcome.failures
    assert all(secret not in reason for reason in outcome.failures.values())


# --- giving a hopeless provider up ------------------------------------------------------------

FOREVER_RATE_LIMITED = Fault(kind="rate_limit", times=-1, retry_after=3600)
"""429 to every request, each asking for an hour's pause: without giving up, a job would wait."""


@pytest.mark.slow
def test_a_provider_failing_every_request_is_given_up_and_its_texts_fail_saying_why() -> None:
    with FakeProvider("libre", faults=[FOREVER_RATE_LIMITED]) as fake:
        settings = settings_for("libre", fake.base_url, batch_size=2)
        job = job_for(texts(6), settings, max_attempts=1000, give_up_after_seconds=0.5)
        outcome = with_pool(lambda pool: pool.translate(job))
        statuses = {request.status for request in fake.requests}

    assert statuses == {429}
    assert outcome.translations == [None] * 6
    assert set(outcome.failures) == set(range(6))
    prefix = "gave up after 0.5 s: every request to libre failed: rate_limited: libre: "
    assert all(reason.startswith(prefix) for reason in outcome.failures.values())
    assert outcome.given_up == ["libre"]
    assert not outcome.aborted


@pytest.mark.slow
def test_a_provider_whose_requests_time_out_is_given_up() -> None:
    with FakeProvider("libre", faults=[Fault(kind="hang", times=-1)]) as fake:
        settings = settings_for("libre", fake.base_url, timeout_seconds=0.2)
        job = job_for(texts(3), settings, max_attempts=1000, give_up_after_seconds=0.5)
        outcome = with_pool(lambda pool: pool.translate(job))

    reason = "gave up after 0.5 s: every request to libre failed: transient: libre: timed out"
    assert outcome.failures == {index: reason + " after 0.2 s" for index in range(3)}


@pytest.mark.slow
def test_a_given_up_provider_hands_its_texts_to_the_next_of_the_chain() -> None:
    items = texts(6)
    with (
        FakeProvider("deepl", faults=[FOREVER_RATE_LIMITED]) as primary,
        FakeProvider("libre") as secondary,
    ):
        chain = [
            settings_for("deepl", primary.base_url, api_key="k", batch_size=2),
            settings_for("libre", secondary.base_url, batch_size=2),
        ]
        job = job_for(items, *chain, max_attempts=1000, give_up_after_seconds=0.5)
        outcome = with_pool(lambda pool: pool.translate(job))

    assert outcome.translations == [fake_translation(text, "fr") for text in items]
    assert outcome.given_up == ["deepl"]
    assert outcome.fallback_count == 3


def test_a_success_restarts_the_time_a_provider_must_fail_to_be_given_up() -> None:
    clock = trio.testing.MockClock()

    async def main() -> list[str | None]:
        health = ProviderHealth()
        seen = []
        health.failed("transient: libre: boom")
        clock.jump(0.6)
        health.succeeded()
        clock.jump(0.6)
        health.failed("transient: libre: boom again")
        seen.append(health.hopeless(1.0, since=0.0))  # 1.2 s in, but 0.6 s since the success
        clock.jump(0.5)
        seen.append(health.hopeless(1.0, since=0.0))
        seen.append(health.hopeless(1.0, since=1.0))  # a job that began later waits its turn
        return seen

    assert trio.run(main, clock=clock) == [None, "transient: libre: boom again", None]


def test_a_waiting_job_gives_up_a_provider_failing_for_the_time_since_its_last_answer() -> None:
    clock = trio.testing.MockClock(autojump_threshold=0)

    async def main() -> list[float]:
        health = ProviderHealth()
        given_up_at: list[float] = []

        async def wait() -> None:
            await health.wait_hopeless(1.0, since=0.0)
            given_up_at.append(trio.current_time())

        async with trio.open_nursery() as nursery:
            nursery.start_soon(wait)
            await trio.sleep(0.5)
            health.succeeded()  # it answers, and nothing had failed
            await trio.sleep(0.7)
            health.failed("transient: libre: boom")  # 1.2 s: hopeless at 1.5 s
            await trio.sleep(0.2)
            health.succeeded()  # 1.4 s: it answers again
            await trio.sleep(0.6)
            health.failed("transient: libre: boom again")  # 2.0 s: hopeless at 2.4 s
        return given_up_at

    assert trio.run(main, clock=clock) == [pytest.approx(2.4)]


def test_slow_requests_alone_never_make_a_provider_hopeless() -> None:
    clock = trio.testing.MockClock()

    async def main() -> str | None:
        health = ProviderHealth()
        clock.jump(3600.0)
        return health.hopeless(1.0, since=0.0)

    assert trio.run(main, clock=clock) is None
