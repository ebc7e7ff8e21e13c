"""A job's batches start their first requests in the order of the job's texts, through real
worker processes to the loopback fake (a host that uses translations in that order, such as
`generate` placing leaves, gets the first ones first)."""

from __future__ import annotations

import pytest

from i18nprune.pool import WorkerPool
from i18nprune.testing import FakeProvider, Fault, fake_translation
from tests.pool.conftest import job_for, settings_for, texts, with_pool

pytestmark = pytest.mark.slow


def test_first_requests_start_in_the_order_of_the_texts() -> None:
    items = texts(60)
    with FakeProvider("libre") as fake:
        # One request at a time: the order the batches queue for the slot is the order sent.
        settings = settings_for("libre", fake.base_url, batch_size=2, max_concurrency=1)
        outcome = with_pool(lambda pool: pool.translate(job_for(items, settings)), size=1)
        records = sorted(fake.requests, key=lambda record: record.started)

    assert outcome.translations == [fake_translation(text, "fr") for text in items]
    assert [text for record in records for text in record.texts] == items


def test_batches_in_line_behind_failing_ones_are_all_sent() -> None:
    # The first five requests fail (each is retried): the batches in line behind a failing one
    # still start, in order, and every text is translated.
    items = texts(40)
    with FakeProvider("libre", faults=[Fault(kind="server_error", times=5)]) as fake:
        settings = settings_for("libre", fake.base_url, batch_size=4, max_concurrency=1)

        async def body(pool: WorkerPool) -> list[str | None]:
            outcome = await pool.translate(job_for(items, settings, max_attempts=3))
            return outcome.translations

        translations = with_pool(body, size=1)
        failed = sum(record.status == 500 for record in fake.requests)
        firsts: dict[str, float] = {}
        for record in sorted(fake.requests, key=lambda record: record.started):
            firsts.setdefault(record.texts[0], record.started)

    assert translations == [fake_translation(text, "fr") for text in items]
    assert failed == 5
    heads = [items[start] for start in range(0, len(items), 4)]
    assert sorted(heads, key=lambda head: firsts[head]) == heads
