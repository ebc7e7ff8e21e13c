"""The translator against a real pool and a loopback provider: what it reports while it works."""

from __future__ import annotations

import itertools

from i18nprune.config.schema import TranslatePolicy
from i18nprune.testing import FakeProvider, Fault, fake_translation
from i18nprune.translate.translator import Translator
from tests.pool.conftest import settings_for, with_pool


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
