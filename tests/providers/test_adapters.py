"""Provider adapters: pseudo-localisation, HTML-mode escaping, failure classification, language
codes, and every HTTP adapter against its loopback fake (request shape, batching, failures)."""

from __future__ import annotations

import email.utils
import time
from collections.abc import Callable
from typing import Any

import httpx
import msgspec
import pytest
import trio

from i18nprune.config.schema import ProviderRow, TranslateConfig
from i18nprune.pool.messages import ProviderSettings
from i18nprune.testing import FakeProvider, Fault, fake_translation
from i18nprune.translate.providers import PROVIDERS, resolve_settings
from i18nprune_workers.providers import (
    ADAPTERS,
    ProviderError,
    azure,
    deepl,
    google,
    libre,
    mymemory,
    translate_batch,
)
from i18nprune_workers.providers.errors import parse_retry_after, scrub
from i18nprune_workers.providers.markup import escape_masked, unescape_answer
from i18nprune_workers.providers.pseudo import pseudo_localize

HTTP_PROVIDERS = ["google", "google-cloud", "deepl", "libre", "azure", "llm", "mymemory"]
HTML_MODE = {"google", "google-cloud", "deepl", "libre", "azure"}
KEY = "s3cr3t-key-0123"
TOKEN = '<x id="0"/>'


# --- helpers ---------------------------------------------------------------------------------


def settings_for(provider_id: str, fake: FakeProvider, **changes: Any) -> ProviderSettings:
    """Settings reaching `fake` through a config row (with an API key where one is taken)."""
    takes_key = "apiKey" in PROVIDERS[provider_id].config_keys
    row = ProviderRow(id=provider_id, base_url=fake.base_url, api_key=KEY if takes_key else None)
    settings = resolve_settings(provider_id, TranslateConfig(providers=[row]), {})
    return msgspec.structs.replace(settings, **changes)


def translate(
    settings: ProviderSettings, texts: list[str], source: str = "en", target: str = "fr"
) -> list[str]:
    async def main() -> list[str]:
        async with httpx.AsyncClient() as client:
            return await translate_batch(client, settings, texts, source, target)

    return trio.run(main)


def failure_of(settings: ProviderSettings, texts: list[str]) -> ProviderError:
    with pytest.raises(ProviderError) as caught:
        translate(settings, texts)
    return caught.value


def fake_for(provider_id: str, **options: Any) -> FakeProvider:
    takes_key = "apiKey" in PROVIDERS[provider_id].config_keys
    return FakeProvider(provider_id, api_key=KEY if takes_key else None, **options)


def test_every_registered_provider_has_an_adapter() -> None:
    assert list(ADAPTERS) == list(PROVIDERS)


# --- pseudo ----------------------------------------------------------------------------------


def test_pseudo_accents_letters_and_brackets_the_text() -> None:
    assert pseudo_localize("Save") == "[Šáṽé]"
    assert pseudo_localize("Hello world").startswith("[Ĥéļļó ŵóŕļð")


def test_pseudo_keeps_tokens_untouched() -> None:
    result = pseudo_localize(f'Hi {TOKEN}, you have <x id="12"/> new')
    assert TOKEN in result
    assert '<x id="12"/>' in result


def test_pseudo_grows_text_by_about_35_percent() -> None:
    text = "The quick brown fox jumps over the lazy dog and keeps running"
    growth = len(pseudo_localize(text)) / len(text)
    assert 1.30 <= growth <= 1.45


def test_pseudo_is_deterministic() -> None:
    assert pseudo_localize("Settings & more") == pseudo_localize("Settings & more")


def test_pseudo_localises_20000_short_strings_keeping_every_token() -> None:
    # How fast: benchmarks/micro.py (`pseudo_20k_strings_s`).
    texts = [f"Item {index} of the list {TOKEN}" for index in range(20_000)]

    localised = [pseudo_localize(text) for text in texts]

    assert all(TOKEN in text and text.startswith("[") for text in localised)
    assert len(set(localised)) == len(texts)


def test_pseudo_batch_needs_no_network() -> None:
    settings = resolve_settings("pseudo", TranslateConfig(providers=[]), {})
    assert translate(settings, ["Save", "Save", "Open"]) == ["[Šáṽé]", "[Šáṽé]", "[Óþéñ]"]


# --- markup, Retry-After, scrubbing, language codes --------------------------------------------


def test_escape_masked_escapes_plain_parts_and_keeps_tokens() -> None:
    assert escape_masked(f'a & b <c> {TOKEN} "d"') == f'a &amp; b &lt;c&gt; {TOKEN} "d"'


def test_unescape_answer_decodes_entities_and_keeps_tokens() -> None:
    assert unescape_answer(f"a &amp; b &lt;c&gt; {TOKEN} &#39;d&quot;") == f"a & b <c> {TOKEN} 'd\""


def test_unescape_answer_respells_tokens_canonically() -> None:
    answer = '<x id = "0" /> and <x id="1"></x>'
    assert unescape_answer(answer) == '<x id="0"/> and <x id="1"/>'


def test_escape_then_unescape_is_the_identity() -> None:
    text = f'Tom &amp; "Jerry" <b>{TOKEN}</b> &'
    assert unescape_answer(escape_masked(text)) == text


def test_retry_after_reads_delta_seconds() -> None:
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after("1.5") == 1.5


def test_retry_after_reads_an_http_date() -> None:
    now = 1_700_000_000.0
    header = email.utils.formatdate(now + 30, usegmt=True)
    assert parse_retry_after(header, now=lambda: now) == pytest.approx(30.0)


def test_retry_after_in_the_past_or_unreadable() -> None:
    past = email.utils.formatdate(1_000_000_000, usegmt=True)
    assert parse_retry_after(past) == 0.0
    assert parse_retry_after("soon") is None
    assert parse_retry_after(None) is None


def test_scrub_removes_keys_from_urls_and_texts() -> None:
    text = f"GET https://u:p@h/x?key={KEY}&q=1 failed for {KEY}"
    cleaned = scrub(text, KEY)
    assert KEY not in cleaned
    assert "u:p" not in cleaned
    assert "key=***" in cleaned


@pytest.mark.parametrize(
    ("code", "source", "target"),
    [
        ("en", "EN", "EN-US"),
        ("en-GB", "EN", "EN-GB"),
        ("pt-BR", "PT", "PT-BR"),
        ("pt", "PT", "PT-PT"),
        ("zh-Hant", "ZH", "ZH-HANT"),
        ("zh-TW", "ZH", "ZH-HANT"),
        ("zh-Hans", "ZH", "ZH-HANS"),
        ("zh", "ZH", "ZH-HANS"),
        ("es-419", "ES", "ES-419"),
        ("nb", "NB", "NB"),
        ("de_DE", "DE", "DE"),
    ],
)
def test_deepl_language_codes(code: str, source: str, target: str) -> None:
    assert (deepl.source_code(code), deepl.target_code(code)) == (source, target)


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("zh-Hans", "zh-Hans"),
        ("zh-CN", "zh-Hans"),
        ("zh-Hant", "zh-Hant"),
        ("zh-HK", "zh-Hant"),
        ("pt-BR", "pt"),
        ("pt-PT", "pt-PT"),
        ("fr-CA", "fr-CA"),
        ("sr-Latn", "sr-Latn"),
        ("sr", "sr-Cyrl"),
        ("no", "nb"),
        ("de-AT", "de"),
    ],
)
def test_azure_language_codes(code: str, expected: str) -> None:
    assert azure.language_code(code) == expected


@pytest.mark.parametrize(
    ("code", "expected"),
    [("zh-Hant", "zh-TW"), ("zh-Hans", "zh-CN"), ("pt-BR", "pt"), ("pt-PT", "pt-PT"), ("nb", "no")],
)
def test_google_language_codes(code: str, expected: str) -> None:
    assert google.language_code(code) == expected


@pytest.mark.parametrize(
    ("code", "expected"),
    [("zh-Hant", "zt"), ("zh-Hans", "zh"), ("pt-BR", "pb"), ("pt-PT", "pt"), ("fr-CA", "fr")],
)
def test_libre_language_codes(code: str, expected: str) -> None:
    assert libre.language_code(code) == expected


@pytest.mark.parametrize(
    ("code", "expected"),
    [("zh-Hant", "zh-TW"), ("zh-Hans", "zh-CN"), ("pt-BR", "pt-BR"), ("fr", "fr")],
)
def test_mymemory_language_codes(code: str, expected: str) -> None:
    assert mymemory.language_code(code) == expected


# --- every HTTP adapter against its fake -------------------------------------------------------


@pytest.mark.parametrize("provider_id", HTTP_PROVIDERS)
def test_full_batch_goes_in_one_request_and_comes_back_in_order(provider_id: str) -> None:
    with fake_for(provider_id) as fake:
        settings = settings_for(provider_id, fake)
        texts = [f"Text number {index}" for index in range(settings.batch_size)]
        assert translate(settings, texts) == [fake_translation(text, "fr") for text in texts]
        assert fake.stats().batch_sizes == [settings.batch_size]
        assert all(request.error is None for request in fake.requests)


@pytest.mark.parametrize("provider_id", HTTP_PROVIDERS)
def test_identical_texts_are_sent_once(provider_id: str) -> None:
    with fake_for(provider_id) as fake:
        settings = settings_for(provider_id, fake, batch_size=3)
        result = translate(settings, ["Yes", "Yes", "Yes"])
        assert result == [fake_translation("Yes", "fr")] * 3
        assert [request.texts for request in fake.requests] == [["Yes"]]


@pytest.mark.parametrize("provider_id", HTTP_PROVIDERS)
def test_tokens_and_markup_characters_survive_the_round_trip(provider_id: str) -> None:
    text = f'Tom & "Jerry" <b> {TOKEN} a > b'
    with fake_for(provider_id) as fake:
        assert translate(settings_for(provider_id, fake), [text]) == [fake_translation(text, "fr")]
        sent = fake.requests[0].texts
    if provider_id in HTML_MODE:
        assert sent == [f'Tom &amp; "Jerry" &lt;b&gt; {TOKEN} a &gt; b']
    else:
        assert sent == [text]


@pytest.mark.parametrize("provider_id", HTTP_PROVIDERS)
def test_base_url_comes_from_the_environment_variable(provider_id: str) -> None:
    info = PROVIDERS[provider_id]
    url_variable = next(name for name in info.env_vars if name.endswith("_URL"))
    with fake_for(provider_id) as fake:
        env = {url_variable: fake.base_url}
        if "apiKey" in info.config_keys:
            env[info.env_vars[0]] = KEY
        settings = resolve_settings(provider_id, TranslateConfig(providers=[]), env)
        assert translate(settings, ["Hello"]) == [fake_translation("Hello", "fr")]


@pytest.mark.parametrize("provider_id", HTTP_PROVIDERS)
@pytest.mark.parametrize(
    ("fault", "kind", "status"),
    [
        (Fault(kind="server_error"), "transient", 500),
        (Fault(kind="server_error", status=503), "transient", 503),
        (Fault(kind="quota"), "quota", None),
        (Fault(kind="auth"), "auth", None),
        (Fault(kind="malformed"), "bad_response", 200),
        (Fault(kind="wrong_count"), "bad_response", 200),
        (Fault(kind="reset"), "transient", None),
    ],
    ids=lambda value: value.kind if isinstance(value, Fault) else None,
)
def test_faults_are_classified(
    provider_id: str, fault: Fault, kind: str, status: int | None
) -> None:
    with fake_for(provider_id, faults=[fault]) as fake:
        settings = settings_for(provider_id, fake)
        problem = failure_of(settings, ["One", "Two"][: settings.batch_size])
    assert problem.kind == kind
    if status is not None:
        assert problem.status == status
    assert KEY not in str(problem)


@pytest.mark.parametrize("provider_id", HTTP_PROVIDERS)
def test_rate_limit_carries_retry_after(provider_id: str) -> None:
    with fake_for(provider_id, faults=[Fault(kind="rate_limit", retry_after=7)]) as fake:
        problem = failure_of(settings_for(provider_id, fake), ["Hello"])
    assert (problem.kind, problem.status, problem.retry_after) == ("rate_limited", 429, 7.0)


@pytest.mark.parametrize("provider_id", HTTP_PROVIDERS)
def test_rate_limit_without_retry_after(provider_id: str) -> None:
    with fake_for(provider_id, faults=[Fault(kind="rate_limit")]) as fake:
        problem = failure_of(settings_for(provider_id, fake), ["Hello"])
    assert (problem.kind, problem.retry_after) == ("rate_limited", None)


@pytest.mark.slow
@pytest.mark.parametrize("provider_id", HTTP_PROVIDERS)
def test_hang_past_the_timeout_is_transient_within_the_timeout(provider_id: str) -> None:
    with fake_for(provider_id, faults=[Fault(kind="hang")]) as fake:
        settings = settings_for(provider_id, fake, timeout_seconds=0.3)
        started = time.monotonic()
        problem = failure_of(settings, ["Hello"])
        elapsed = time.monotonic() - started
    # The fake never answers: failing at all is the timeout at work, and not before it ran out.
    assert problem.kind == "transient"
    assert elapsed >= 0.25


@pytest.mark.parametrize("provider_id", [id for id in HTTP_PROVIDERS if id != "google"])
def test_wrong_key_is_an_auth_failure_that_never_shows_the_key(provider_id: str) -> None:
    wrong = "wrong-key-9876"
    with fake_for(provider_id) as fake:
        problem = failure_of(settings_for(provider_id, fake, api_key=wrong), ["Hello"])
    assert problem.kind == "auth"
    assert wrong not in str(problem)
    assert wrong not in repr(problem)


@pytest.mark.parametrize("provider_id", ["google-cloud", "mymemory"])
def test_connection_failure_is_transient_and_never_shows_the_key(provider_id: str) -> None:
    with fake_for(provider_id) as fake:
        settings = settings_for(provider_id, fake)
    # the fake has stopped: nothing listens on its port any more
    problem = failure_of(settings, ["Hello"])
    assert problem.kind == "transient"
    assert KEY not in str(problem)


@pytest.mark.parametrize("provider_id", ["google", "google-cloud", "libre", "azure", "llm"])
def test_too_many_texts_is_a_bad_response_with_the_provider_message(provider_id: str) -> None:
    with fake_for(provider_id, batch_limit=2) as fake:
        problem = failure_of(settings_for(provider_id, fake), ["a", "b", "c"])
    assert problem.kind == "bad_response"
    assert "too many texts" in str(problem)


def test_deepl_too_many_texts_is_a_bad_response() -> None:
    with fake_for("deepl", batch_limit=2) as fake:
        problem = failure_of(settings_for("deepl", fake), ["a", "b", "c"])
    assert (problem.kind, problem.status) == ("bad_response", 413)


def test_cancellation_aborts_the_request_in_flight() -> None:
    # An hour of latency: only the cancel can end the request (returning at all shows it did).
    with fake_for("libre", latency=3600.0) as fake:
        settings = settings_for("libre", fake)

        async def main() -> None:
            async with httpx.AsyncClient() as client, trio.open_nursery() as nursery:
                nursery.start_soon(translate_batch, client, settings, ["Hello"], "en", "fr")
                # Cancel only once the fake holds the request, however slow the machine is.
                assert await trio.to_thread.run_sync(fake.wait_for_requests, 1, 30)
                nursery.cancel_scope.cancel()

        trio.run(main)
        assert _eventually(lambda: fake.stats().aborted == 1, seconds=30.0)


def _eventually(condition: Callable[[], bool], seconds: float = 2.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


# --- per-provider request shapes and codes ------------------------------------------------------


def test_google_public_request_shape() -> None:
    with fake_for("google") as fake:
        translate(settings_for("google", fake), ["Hello", "World"], "en", "zh-Hant")
        request = fake.requests[0]
    assert (request.method, request.path) == ("POST", "/translate_a/t")
    assert (request.source, request.target, request.texts) == ("en", "zh-TW", ["Hello", "World"])


def test_google_public_single_text_answer_is_accepted() -> None:
    with fake_for("google") as fake:
        assert translate(settings_for("google", fake), ["Hello"]) == ["FR:Hello"]


def test_google_cloud_request_shape() -> None:
    with fake_for("google-cloud") as fake:
        translate(settings_for("google-cloud", fake), ["Hello"], "en", "zh-Hans")
        request = fake.requests[0]
    assert (request.method, request.path) == ("POST", "/language/translate/v2")
    assert (request.source, request.target) == ("en", "zh-CN")


@pytest.mark.parametrize(
    ("target", "code"), [("en-GB", "EN-GB"), ("pt-BR", "PT-BR"), ("zh-Hant", "ZH-HANT")]
)
def test_deepl_request_shape_and_target_codes(target: str, code: str) -> None:
    with fake_for("deepl") as fake:
        result = translate(settings_for("deepl", fake), ["Hello"], "de", target)
        request = fake.requests[0]
    assert result == [fake_translation("Hello", code)]
    assert (request.method, request.path) == ("POST", "/v2/translate")
    assert (request.source, request.target) == ("DE", code)
    assert request.headers["authorization"] == f"DeepL-Auth-Key {KEY}"


def test_libre_sends_the_key_only_when_set() -> None:
    with FakeProvider("libre") as fake:
        translate(settings_for("libre", fake, api_key=None), ["Hello"], "en", "pt-BR")
        request = fake.requests[0]
    assert (request.path, request.source, request.target) == ("/translate", "en", "pb")
    assert request.error is None


def test_azure_request_shape_with_region() -> None:
    with fake_for("azure") as fake:
        settings = settings_for("azure", fake, region="westeurope")
        translate(settings, ["Hello"], "en", "zh-Hans")
        request = fake.requests[0]
    assert (request.method, request.path) == ("POST", "/translate")
    assert (request.source, request.target) == ("en", "zh-Hans")
    assert request.headers["ocp-apim-subscription-key"] == KEY
    assert request.headers["ocp-apim-subscription-region"] == "westeurope"


def test_azure_omits_the_region_header_when_unset() -> None:
    with fake_for("azure") as fake:
        translate(settings_for("azure", fake), ["Hello"])
        assert "ocp-apim-subscription-region" not in fake.requests[0].headers


def test_llm_request_shape() -> None:
    with fake_for("llm") as fake:
        translate(settings_for("llm", fake), ["Hello"], "en", "pt-BR")
        request = fake.requests[0]
    assert (request.method, request.path) == ("POST", "/chat/completions")
    assert (request.source, request.target) == ("en", "pt-BR")
    assert request.headers["authorization"] == f"Bearer {KEY}"


def test_llm_without_a_key_sends_no_authorization() -> None:
    with FakeProvider("llm") as fake:
        settings = settings_for("llm", fake, api_key=None)
        assert translate(settings, ["Hello"]) == ["FR:Hello"]
        assert "authorization" not in fake.requests[0].headers


def test_mymemory_request_shape() -> None:
    with fake_for("mymemory") as fake:
        translate(settings_for("mymemory", fake), ["Hello"], "en", "zh-Hant")
        request = fake.requests[0]
    assert (request.method, request.path) == ("GET", "/get")
    assert (request.source, request.target, request.texts) == ("en", "zh-TW", ["Hello"])
