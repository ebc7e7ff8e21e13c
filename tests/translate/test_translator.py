"""The translator against a real pool and a loopback provider: what it reports while it works."""

from __future__ import annotations

import itertools
from functools import partial
from pathlib import Path

import pytest
import trio

from i18nprune.config.schema import TranslatePolicy
from i18nprune.placeholders import protect_placeholders
from i18nprune.pool import WorkerPool
from i18nprune.testing import FakeProvider, Fault, fake_translation
from i18nprune.translate.cache import TranslationCache
from i18nprune.translate.translator import Translator
from tests.pool.conftest import settings_for, with_pool

pytestmark = pytest.mark.slow


def test_progress_ends_with_every_text_settled_and_the_failed_ones_counted() -> None:
    texts = ["Welcome", "Hello {{name}}", "Goodbye"]
    events: list[tuple[int, int]] = []
    with FakeProvider("libre", faults=[Fault(kind="drop_placeholder", times=-1)]) as fake:
        translator = Translator(
            [settings_for("libre", fake.base_url)],
            TranslatePolicy(),
            None,
            source="en",
            target="fr",
            texts=texts,
        )
        translator.consult_cache()
        report = with_pool(lambda pool: translator.translate(pool, lambda *e: events.append(e)))
    assert report.translations == {
        "Welcome": fake_translation("Welcome", "fr"),
        "Goodbye": fake_translation("Goodbye", "fr"),
    }
    assert list(report.failures) == ["Hello {{name}}"]
    assert events[0] == (0, 0)
    assert events[-1] == (3, 1)
    assert all(a[0] <= b[0] and a[1] <= b[1] for a, b in itertools.pairwise(events))


def test_a_provider_given_up_is_not_asked_again_by_the_isolated_retry() -> None:
    # One request at a time: the first answer loses a placeholder (so its text would be retried
    # alone), every later request is rate limited for an hour, and the provider is given up.
    texts = ["Hello {{name}}", "Bye {{name}}"]
    faults = [
        Fault(kind="drop_placeholder"),
        Fault(kind="rate_limit", times=-1, retry_after=3600),
    ]
    with FakeProvider("libre", faults=faults) as fake:
        settings = settings_for("libre", fake.base_url, batch_size=1, max_concurrency=1)
        policy = TranslatePolicy(max_attempts=1000, give_up_after_seconds=0.5)
        translator = Translator([settings], policy, None, source="en", target="fr", texts=texts)
        translator.consult_cache()
        report = with_pool(lambda pool: translator.translate(pool))
        requests = fake.stats().requests

    assert requests == 2
    assert report.translations == {}
    retried, given_up = sorted(report.failures.values())
    assert retried == "a part of the text came back with its placeholders changed"
    assert given_up.startswith("gave up after 0.5 s: every request to libre failed: rate_limited")


def test_settled_texts_are_handed_over_while_later_requests_are_still_in_flight() -> None:
    # One request at a time: two are answered, the third hangs until the test cancels.
    texts = ["First text", "Second text", "Third text"]
    faults = [Fault(kind="drop_placeholder", times=2), Fault(kind="hang", times=-1)]
    handed: list[dict[str, str]] = []
    seen_in_flight: list[int] = []
    with FakeProvider("libre", faults=faults) as fake:
        settings = settings_for("libre", fake.base_url, batch_size=1, max_concurrency=1)
        translator = Translator(
            [settings], TranslatePolicy(), None, source="en", target="fr", texts=texts
        )
        translator.consult_cache()

        async def body(pool: WorkerPool) -> None:
            with trio.move_on_after(60) as scope:
                async with trio.open_nursery() as nursery:
                    nursery.start_soon(
                        partial(translator.translate, pool, on_settled=handed.append)
                    )
                    # Both handed over, and the third request at the provider, unanswered.
                    while sum(map(len, handed)) < 2 or fake.stats().in_flight < 1:
                        await trio.sleep(0.01)
                    seen_in_flight.append(fake.stats().in_flight)
                    nursery.cancel_scope.cancel()
            assert not scope.cancelled_caught, "the first two texts were never handed over"

        with_pool(body)
        answered = [text for request in fake.requests[:2] for text in request.texts]
        [hanging] = fake.requests[2].texts
    merged = [text for step in handed for text in step]
    assert sorted(merged) == sorted(answered)  # each once, the hanging one not
    assert hanging not in merged
    assert {text: translation for step in handed for text, translation in step.items()} == {
        text: fake_translation(text, "fr") for text in answered
    }
    assert seen_in_flight == [1]


def test_every_translation_of_the_report_is_handed_over_once_cached_and_retried_included(
    tmp_path: Path,
) -> None:
    texts = ["Cached {{name}}", "Hello {{name}}", "Bye {{name}}", "{{name}}"]
    cache = TranslationCache.open(tmp_path / "cache.sqlite3", writable=True)
    with FakeProvider("libre") as fake:
        settings = settings_for("libre", fake.base_url)
        first = Translator(
            [settings], TranslatePolicy(), cache, source="en", target="fr", texts=texts[:1]
        )
        first.consult_cache()
        with_pool(lambda pool: first.translate(pool))
    handed: list[dict[str, str]] = []
    with FakeProvider("libre", faults=[Fault(kind="drop_placeholder")]) as fake:
        settings = settings_for("libre", fake.base_url, batch_size=2, max_concurrency=1)
        translator = Translator(
            [settings], TranslatePolicy(), cache, source="en", target="fr", texts=texts
        )
        translator.consult_cache()
        report = with_pool(lambda pool: translator.translate(pool, on_settled=handed.append))
        retried = [request.texts for request in fake.requests if len(request.texts) == 1]
    cache.close()
    merged = [text for step in handed for text in step]
    assert sorted(merged) == sorted(report.translations) == sorted(texts)
    assert {text: translation for step in handed for text, translation in step.items()} == (
        report.translations
    )
    assert report.cached == {"Cached {{name}}"}
    assert retried  # one text came back without its placeholder and was retried alone


def test_a_text_is_cached_only_while_its_units_are_and_what_it_lacks_is_sent_once(
    tmp_path: Path,
) -> None:
    # "Save" verifies from the cache; the plural does not (its other branch invents a
    # placeholder), so its units, "Save" among them, are forgotten and sent again, once.
    plural = "{n, plural, one {Save} other {# Saves}}"
    texts = ["Save", plural, "Open"]
    save, saves = protect_placeholders(plural).units
    cache = TranslationCache.open(tmp_path / "cache.sqlite3", writable=True)
    cache.put_many("libre", "en", "fr", [(save.key, "Sichern"), (saves.key, "# Sichern {x}")])
    with FakeProvider("libre") as fake:
        translator = Translator(
            [settings_for("libre", fake.base_url)],
            TranslatePolicy(),
            cache,
            source="en",
            target="fr",
            texts=texts,
        )
        translator.consult_cache()
        assert translator.cached == set()
        assert translator.pending == {
            save.key: "Save",
            saves.key: saves.masked,
            "Open\0Open": "Open",
        }
        report = with_pool(lambda pool: translator.translate(pool))
        [request] = fake.requests
    cache.close()
    assert request.texts == ["Save", saves.masked, "Open"]
    assert report.translations == {
        "Save": "Sichern",
        plural: protect_placeholders(plural).restore(
            [fake_translation("Save", "fr"), fake_translation(saves.masked, "fr")]
        ),
        "Open": fake_translation("Open", "fr"),
    }
