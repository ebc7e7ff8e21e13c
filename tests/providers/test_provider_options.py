"""Provider options and per-text notes at the adapter: DeepL's `formality` (per row, per target,
`prefer_*` where a target has none) and `context`; the LLM's per-target instructions and each
text's key paths and description; and the cache name that keeps their translations apart."""

from __future__ import annotations

from typing import Any

import httpx
import msgspec
import pytest
import trio

from i18nprune.config.schema import ProviderRow, TranslateConfig
from i18nprune.pool.messages import NOTE_KEYS, ProviderSettings, TextNote
from i18nprune.testing import FakeProvider, Fault
from i18nprune.translate.providers import PROVIDERS, resolve_settings
from i18nprune_workers.providers import ProviderError, translate_batch
from i18nprune_workers.providers.llm import INSTRUCTIONS, TARGET_INSTRUCTIONS

KEY = "deepl-key-0123"


def settings_from_row(provider_id: str, fake: FakeProvider, **row: Any) -> ProviderSettings:
    """Settings resolved from a config row reaching `fake`, with the row's other fields."""
    api_key = KEY if "apiKey" in PROVIDERS[provider_id].config_keys else None
    config_row = msgspec.convert(
        {"id": provider_id, "baseUrl": fake.base_url, "apiKey": api_key, **row},
        ProviderRow,
    )
    return resolve_settings(provider_id, TranslateConfig(providers=[config_row]), {})


def translate(
    settings: ProviderSettings,
    texts: list[str],
    target: str,
    notes: list[TextNote | None] | None = None,
) -> list[str]:
    async def main() -> list[str]:
        async with httpx.AsyncClient() as client:
            return await translate_batch(client, settings, texts, "en", target, notes)

    return trio.run(main)


def sent_bodies(fake: FakeProvider) -> list[Any]:
    return [request.json() for request in fake.requests]


def llm_task(body: Any) -> Any:
    """The JSON task of a chat-completions request (its last user message)."""
    [user] = [message for message in body["messages"] if message["role"] == "user"]
    return msgspec.json.decode(user["content"])


def llm_system(body: Any) -> str:
    [system] = [message for message in body["messages"] if message["role"] == "system"]
    content: str = system["content"]
    return content


# --- DeepL ----------------------------------------------------------------------------------


def test_deepl_sends_the_rows_formality_and_context() -> None:
    context = "Labels of a hosting dashboard."
    with FakeProvider("deepl", api_key=KEY) as fake:
        settings = settings_from_row("deepl", fake, formality="less", context=context)
        assert translate(settings, ["Save"], "de") == ["DE:Save"]
    [body] = sent_bodies(fake)
    assert body["formality"] == "less"
    assert body["context"] == context


def test_deepl_formality_per_target_takes_the_code_then_the_language_then_the_rest() -> None:
    formality = {"pt-BR": "less", "de": "more", "*": "prefer_less"}
    with FakeProvider("deepl", api_key=KEY) as fake:
        settings = settings_from_row("deepl", fake, formality=formality)
        for target in ("pt-BR", "de-AT", "fr"):
            translate(settings, ["Save"], target)
    sent = [(body["target_lang"], body["formality"]) for body in sent_bodies(fake)]
    assert sent == [("PT-BR", "less"), ("DE", "more"), ("FR", "prefer_less")]


def test_deepl_sends_more_as_prefer_more_to_a_target_without_formality() -> None:
    # DeepL (and its fake) answer 400 to `more` for English; `prefer_more` is accepted anywhere.
    with FakeProvider("deepl", api_key=KEY) as fake:
        settings = settings_from_row("deepl", fake, formality="more")
        assert translate(settings, ["Save"], "en-GB") == ["EN-GB:Save"]
        assert translate(settings, ["Save"], "de") == ["DE:Save"]
    assert [body["formality"] for body in sent_bodies(fake)] == ["prefer_more", "more"]


def test_deepl_leaves_formality_out_when_it_is_default_or_unset() -> None:
    with FakeProvider("deepl", api_key=KEY) as fake:
        translate(settings_from_row("deepl", fake, formality="default"), ["Save"], "de")
        translate(settings_from_row("deepl", fake), ["Save"], "de")
    for body in sent_bodies(fake):
        assert "formality" not in body
        assert "context" not in body


def test_deepl_sends_no_notes() -> None:
    note = TextNote(["home.save"], "The save button")
    with FakeProvider("deepl", api_key=KEY) as fake:
        settings = settings_from_row("deepl", fake)
        translate(settings, ["Save"], "de", [note])
    [request] = fake.requests
    assert b"home.save" not in request.body
    assert b"save button" not in request.body


# --- LLM ------------------------------------------------------------------------------------


def test_llm_adds_the_targets_instructions_to_the_system_message() -> None:
    instructions = {"de": "Address the user as du.", "*": "Keep it plain."}
    with FakeProvider("llm") as fake:
        settings = settings_from_row("llm", fake, instructions=instructions)
        assert translate(settings, ["Save"], "de-CH") == ["DE-CH:Save"]
        translate(settings, ["Save"], "fr")
    german, french = (llm_system(body) for body in sent_bodies(fake))
    assert german == f"{INSTRUCTIONS}\n\n{TARGET_INSTRUCTIONS}\nAddress the user as du."
    assert french.endswith("\nKeep it plain.")


def test_llm_without_instructions_sends_the_plain_system_message() -> None:
    with FakeProvider("llm") as fake:
        translate(settings_from_row("llm", fake), ["Save"], "de")
    [body] = sent_bodies(fake)
    assert llm_system(body) == INSTRUCTIONS


def test_llm_sends_each_noted_text_with_its_key_paths_and_description() -> None:
    notes = [TextNote(["home.title"], "Hero heading on the landing page"), None, TextNote(["b"])]
    with FakeProvider("llm") as fake:
        settings = settings_from_row("llm", fake)
        translated = translate(settings, ["Welcome", "Save", "Bye"], "de", notes)
    assert translated == ["DE:Welcome", "DE:Save", "DE:Bye"]
    [body] = sent_bodies(fake)
    assert llm_task(body)["texts"] == [
        {
            "text": "Welcome",
            "keys": ["home.title"],
            "description": "Hero heading on the landing page",
        },
        "Save",
        {"text": "Bye", "keys": ["b"]},
    ]


def test_llm_merges_the_notes_of_a_text_sent_twice() -> None:
    notes = [TextNote([f"k{index}"], "first" if index == 1 else None) for index in range(5)]
    with FakeProvider("llm") as fake:
        translate(settings_from_row("llm", fake), ["Same"] * 5, "de", list(notes))
    [body] = sent_bodies(fake)
    [item] = llm_task(body)["texts"]
    assert item == {
        "text": "Same",
        "keys": [f"k{index}" for index in range(NOTE_KEYS)],
        "description": "first",
    }


def test_llm_answer_with_one_translation_too_few_is_refused_with_notes_too() -> None:
    notes: list[TextNote | None] = [TextNote(["a"], "A"), TextNote(["b"], "B")]
    with FakeProvider("llm") as fake:
        fake.add_fault(Fault(kind="wrong_count"))
        with pytest.raises(ProviderError) as caught:
            translate(settings_from_row("llm", fake), ["One", "Two"], "de", notes)
    assert caught.value.kind == "bad_response"
    assert "1 translations for 2 texts" in str(caught.value)


def test_only_the_llm_reads_notes() -> None:
    assert [info.id for info in PROVIDERS.values() if info.reads_notes] == ["llm"]


# --- the cache name -------------------------------------------------------------------------


def test_settings_without_options_cache_under_the_provider_id() -> None:
    with FakeProvider("deepl", api_key=KEY) as fake:
        assert settings_from_row("deepl", fake).cache_provider("de") == "deepl"
        assert settings_from_row("deepl", fake, formality="default").cache_provider("de") == "deepl"


def test_each_option_value_has_its_own_cache_name() -> None:
    with FakeProvider("deepl", api_key=KEY) as fake:
        names = {
            settings_from_row("deepl", fake, **row).cache_provider("de")
            for row in (
                {},
                {"formality": "more"},
                {"formality": "less"},
                {"context": "A dashboard."},
                {"context": "A game."},
            )
        }
    assert len(names) == 5
    assert all(name.startswith("deepl") for name in names)


def test_a_per_target_option_changes_only_that_targets_cache_name() -> None:
    with FakeProvider("llm") as fake:
        before = settings_from_row("llm", fake, instructions={"de": "Use du."})
        after = settings_from_row("llm", fake, instructions={"de": "Use Sie."})
    assert before.cache_provider("de") != after.cache_provider("de")
    assert before.cache_provider("fr") == after.cache_provider("fr") == "llm"


def test_options_a_provider_does_not_use_are_not_read() -> None:
    with FakeProvider("libre") as fake:
        settings = settings_from_row("libre", fake, formality="more", context="x", instructions="y")
    assert (settings.formality, settings.context, settings.instructions) == ({}, None, {})
    assert settings.cache_provider("de") == "libre"


def test_the_deepl_fake_refuses_more_for_a_target_without_formality_as_deepl_does() -> None:
    with FakeProvider("deepl", api_key=KEY) as fake:
        answer = httpx.post(
            f"{fake.base_url}/v2/translate",
            headers={"Authorization": f"DeepL-Auth-Key {KEY}"},
            json={"text": ["Save"], "target_lang": "EN-GB", "formality": "more"},
        )
    assert answer.status_code == 400
    assert "formality" in answer.json()["message"]
