"""Secrets are never shown: the redacted config snapshot."""

from __future__ import annotations

from i18nprune.config import Config, ProviderRow, TranslateConfig, redacted_config


def _config_with(row: ProviderRow) -> Config:
    return Config(translate=TranslateConfig(providers=[row]))


def test_api_key_is_redacted() -> None:
    snapshot = redacted_config(_config_with(ProviderRow(id="deepl", api_key="abc:fx")))
    assert snapshot["translate"]["providers"][0]["apiKey"] == "***"
    assert "abc:fx" not in str(snapshot)


def test_unset_api_key_stays_null() -> None:
    snapshot = redacted_config(_config_with(ProviderRow(id="deepl")))
    assert snapshot["translate"]["providers"][0]["apiKey"] is None


def test_credentials_inside_a_url_are_redacted() -> None:
    row = ProviderRow(id="llm", base_url="https://user:pa55@gateway.example/v1")
    snapshot = redacted_config(_config_with(row))
    assert snapshot["translate"]["providers"][0]["baseUrl"] == "https://***@gateway.example/v1"


def test_key_lists_that_are_not_secrets_are_shown() -> None:
    snapshot = redacted_config(Config())
    assert snapshot["policies"]["preserve"]["copyKeys"] == []
    assert snapshot["reference"]["defaults"]["uncertainKeyPolicy"] == "protect"
    assert snapshot["locales"]["source"] == "en"
