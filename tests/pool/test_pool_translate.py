"""Jobs through real worker processes: results in order, batching, progress callbacks."""

from __future__ import annotations

import httpx
import pytest
import trio

import i18nprune.pool
from i18nprune.pool import JobOutcome, ProviderAttempt, WorkerPool
from i18nprune.testing import FakeProvider, fake_translation
from i18nprune_workers.providers import translate_batch
from tests.pool.conftest import job_for, settings_for, texts, with_pool


def test_public_surface_is_what_the_package_exports() -> None:
    assert sorted(i18nprune.pool.__all__) == [
        "JobOutcome",
        "PoolStatistics",
        "ProviderAttempt",
        "TranslateJob",
        "WorkerPool",
        "open_pool",
    ]


def _pseudo(items: list[str]) -> list[str | None]:
    async def main() -> list[str]:
        async with httpx.AsyncClient() as client:
            return await translate_batch(client, settings_for("pseudo"), items, "en", "fr")

    return list(trio.run(main))


@pytest.mark.slow
def test_pseudo_job_through_two_workers_returns_translations_in_order() -> None:
    items = texts(95)
    job = job_for(items, settings_for("pseudo", batch_size=10))

    outcome = with_pool(lambda pool: pool.translate(job))

    assert outcome == JobOutcome(
        translations=_pseudo(items),
        failures={},
        attempts=[ProviderAttempt("pseudo", "ok", requests=10, retries=0)],
        fallback_count=0,
        aborted=False,
    )


@pytest.mark.slow
def test_texts_are_sent_in_batches_of_the_provider_batch_size() -> None:
    items = texts(25)
    with FakeProvider("libre") as fake:
        job = job_for(items, settings_for("libre", fake.base_url, batch_size=10))
        outcome = with_pool(lambda pool: pool.translate(job))
        sizes = sorted(fake.stats().batch_sizes)

    assert outcome.translations == [fake_translation(text, "fr") for text in items]
    assert sizes == [5, 10, 10]


@pytest.mark.slow
def test_isolated_job_sends_one_text_per_request() -> None:
    items = texts(4)
    with FakeProvider("libre") as fake:
        job = job_for(items, settings_for("libre", fake.base_url), isolated=True)
        outcome = with_pool(lambda pool: pool.translate(job))
        sizes = fake.stats().batch_sizes

    assert outcome.translations == [fake_translation(text, "fr") for text in items]
    assert sizes == [1, 1, 1, 1]


@pytest.mark.slow
def test_progress_reports_cumulative_texts_as_batches_settle() -> None:
    calls: list[tuple[int, int]] = []
    job = job_for(texts(35), settings_for("pseudo", batch_size=10))

    with_pool(lambda pool: pool.translate(job, lambda done, failed: calls.append((done, failed))))

    assert len(calls) == 4
    assert [done for done, _ in calls] == sorted({done for done, _ in calls})
    assert calls[-1] == (35, 0)


@pytest.mark.slow
def test_translations_are_handed_over_with_their_indices_as_they_arrive() -> None:
    items = texts(25)
    arrived: dict[int, str] = {}

    def on_translated(provider_id: str, indices: list[int], translations: list[str]) -> None:
        assert provider_id == "pseudo"
        arrived.update(zip(indices, translations, strict=True))

    job = job_for(items, settings_for("pseudo", batch_size=10))
    outcome = with_pool(lambda pool: pool.translate(job, on_translated=on_translated))

    assert [arrived[index] for index in range(len(items))] == outcome.translations


@pytest.mark.slow
def test_empty_job_sends_no_request() -> None:
    async def body(pool: WorkerPool) -> JobOutcome:
        return await pool.translate(job_for([], settings_for("pseudo")))

    outcome = with_pool(body, size=1)

    assert outcome == JobOutcome([], {}, [], 0, False)
