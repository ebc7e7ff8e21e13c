"""The provider registry: defaults, settings resolved from config rows, the environment and
defaults, credential and unknown-id errors, and the fallback chain."""

from __future__ import annotations

import msgspec
import pytest
from rich.pretty import pretty_repr

from i18nprune.config import provider_env
from i18nprune.config.schema import ProviderRow, RateLimit, TranslateConfig, TranslatePolicy
from i18nprune.envelope import Code, ProblemError
from i18nprune.translate.providers import (
    DEEPL_FREE_URL,
    DEFAULT_LLM_MODEL,
    PROVIDERS,
    ProviderSettings,
    provider_chain,
    resolve_settings,
)

NO_ROWS = TranslateConfig(providers=[])


def config_with(*rows: ProviderRow, routing: str = "single") -> TranslateConfig:
    policy = msgspec.convert({"routing": routing}, TranslatePolicy)
    return TranslateConfig(providers=list(rows), policy=policy)


def test_registry_lists_every_provider_pseudo_first() -> None:
    assert list(PROVIDERS) == [
        "pseudo",
        "google",
        "google-cloud",
        "deepl",
        "libre",
        "azure",
        "llm",
        "mymemory",
    ]


def test_registry_batch_sizes_are_the_documented_ones() -> None:
    sizes = {info.id: (info.default_batch_size, info.batch_limit) for info in PROVIDERS.values()}
    assert sizes["deepl"] == (50, 50)
    assert sizes["google-cloud"] == (128, 128)
    assert sizes["azure"] == (100, 1000)
    assert sizes["libre"][0] == 100
    assert sizes["llm"][0] == 20
    assert sizes["google"][0] == 25
    assert sizes["mymemory"] == (1, 1)
    assert all(default <= limit for default, limit in sizes.values())


def test_libre_defaults_to_eight_concurrent_requests() -> None:
    assert PROVIDERS["libre"].default_max_concurrency == 8


@pytest.mark.parametrize("provider_id", [id for id in PROVIDERS if id != "pseudo"])
def test_every_listed_env_var_is_read_into_the_settings(provider_id: str) -> None:
    info = PROVIDERS[provider_id]
    key = {info.env_vars[0]: "key"} if info.needs_api_key else {}
    for variable in info.env_vars:
        env = {**key, variable: "http://set.example/x"}
        settings = resolve_settings(provider_id, NO_ROWS, env)
        assert "http://set.example/x" in (settings.api_key, settings.base_url, settings.model)


@pytest.mark.parametrize("provider_id", list(PROVIDERS))
def test_settings_a_provider_does_not_use_are_ignored(provider_id: str) -> None:
    info = PROVIDERS[provider_id]
    prefix = "I18NPRUNE_TRANSLATE_" + provider_id.upper().replace("-", "_") + "_"
    unused = {
        prefix + suffix: "unused"
        for suffix in ("API_KEY", "URL", "BASE_URL", "MODEL")
        if prefix + suffix not in info.env_vars
    }
    env = {**unused, prefix + "API_KEY": "key"} if info.needs_api_key else unused
    settings = resolve_settings(provider_id, NO_ROWS, env)
    assert "unused" not in (settings.api_key, settings.base_url, settings.model)


def test_env_vars_are_the_names_provider_env_reads() -> None:
    for provider_id, info in PROVIDERS.items():
        for variable in info.env_vars:
            read = provider_env({variable: "v"}, provider_id)
            assert "v" in (read.api_key, read.base_url, read.model), variable


def test_historical_variable_names_are_listed() -> None:
    assert "I18NPRUNE_TRANSLATE_DEEPL_API_KEY" in PROVIDERS["deepl"].env_vars
    assert "I18NPRUNE_TRANSLATE_LIBRE_URL" in PROVIDERS["libre"].env_vars
    assert {
        "I18NPRUNE_TRANSLATE_LLM_API_KEY",
        "I18NPRUNE_TRANSLATE_LLM_BASE_URL",
        "I18NPRUNE_TRANSLATE_LLM_MODEL",
    } <= set(PROVIDERS["llm"].env_vars)


def test_unknown_provider_is_an_error_with_a_suggestion() -> None:
    with pytest.raises(ProblemError) as caught:
        resolve_settings("deepel", NO_ROWS, {})
    assert caught.value.issue.code == Code.UNKNOWN_PROVIDER
    assert "did you mean `deepl`?" in caught.value.issue.message


def test_missing_key_names_the_variable_and_the_config_key() -> None:
    with pytest.raises(ProblemError) as caught:
        resolve_settings("deepl", NO_ROWS, {})
    assert caught.value.issue.code == Code.MISSING_CREDENTIALS
    assert "I18NPRUNE_TRANSLATE_DEEPL_API_KEY" in caught.value.issue.message
    assert "apiKey" in caught.value.issue.message


def test_provider_without_a_row_takes_env_and_defaults() -> None:
    settings = resolve_settings("azure", NO_ROWS, {"I18NPRUNE_TRANSLATE_AZURE_API_KEY": "k"})
    info = PROVIDERS["azure"]
    assert settings.api_key == "k"
    assert settings.base_url == info.default_base_url
    assert settings.batch_size == info.default_batch_size
    assert settings.timeout_seconds == info.default_timeout_seconds
    assert settings.max_concurrency == info.default_max_concurrency
    assert settings.rps == info.default_rps


def test_row_api_key_wins_over_env() -> None:
    config = config_with(ProviderRow(id="deepl", api_key="from-row"))
    env = {"I18NPRUNE_TRANSLATE_DEEPL_API_KEY": "from-env"}
    assert resolve_settings("deepl", config, env).api_key == "from-row"


def test_base_url_row_beats_env_beats_default() -> None:
    env = {"I18NPRUNE_TRANSLATE_LIBRE_URL": "http://env.example"}
    with_row = config_with(ProviderRow(id="libre", base_url="http://row.example/"))
    assert resolve_settings("libre", with_row, env).base_url == "http://row.example"
    assert resolve_settings("libre", NO_ROWS, env).base_url == "http://env.example"
    assert resolve_settings("libre", NO_ROWS, {}).base_url == "https://libretranslate.com"


def test_base_url_variable_is_an_alias_of_url() -> None:
    env = {"I18NPRUNE_TRANSLATE_LLM_BASE_URL": "http://127.0.0.1:8080/v1"}
    assert resolve_settings("llm", NO_ROWS, env).base_url == "http://127.0.0.1:8080/v1"


def test_deepl_free_key_selects_the_free_host() -> None:
    free = resolve_settings("deepl", NO_ROWS, {"I18NPRUNE_TRANSLATE_DEEPL_API_KEY": "k:fx"})
    pro = resolve_settings("deepl", NO_ROWS, {"I18NPRUNE_TRANSLATE_DEEPL_API_KEY": "k"})
    assert free.base_url == DEEPL_FREE_URL
    assert pro.base_url == "https://api.deepl.com"


def test_deepl_base_url_override_beats_the_free_host() -> None:
    env = {
        "I18NPRUNE_TRANSLATE_DEEPL_API_KEY": "k:fx",
        "I18NPRUNE_TRANSLATE_DEEPL_URL": "http://127.0.0.1:9",
    }
    assert resolve_settings("deepl", NO_ROWS, env).base_url == "http://127.0.0.1:9"


def test_llm_on_its_default_endpoint_needs_a_key() -> None:
    with pytest.raises(ProblemError) as caught:
        resolve_settings("llm", NO_ROWS, {})
    assert caught.value.issue.code == Code.MISSING_CREDENTIALS


def test_llm_on_a_local_server_needs_no_key() -> None:
    env = {"I18NPRUNE_TRANSLATE_LLM_URL": "http://127.0.0.1:11434/v1"}
    settings = resolve_settings("llm", NO_ROWS, env)
    assert settings.api_key is None
    assert settings.model == DEFAULT_LLM_MODEL


def test_llm_model_row_beats_env() -> None:
    config = config_with(ProviderRow(id="llm", api_key="k", model="row-model"))
    env = {"I18NPRUNE_TRANSLATE_LLM_MODEL": "env-model"}
    assert resolve_settings("llm", config, env).model == "row-model"
    assert resolve_settings(
        "llm", NO_ROWS, {**env, "I18NPRUNE_TRANSLATE_LLM_API_KEY": "k"}
    ).model == ("env-model")


def test_row_batch_size_is_capped_at_the_provider_limit() -> None:
    env = {"I18NPRUNE_TRANSLATE_DEEPL_API_KEY": "k"}
    big = config_with(ProviderRow(id="deepl", batch_size=500))
    small = config_with(ProviderRow(id="deepl", batch_size=10))
    assert resolve_settings("deepl", big, env).batch_size == 50
    assert resolve_settings("deepl", small, env).batch_size == 10


def test_row_timeout_and_rate_limit_override_defaults() -> None:
    row = ProviderRow(
        id="libre",
        timeout_seconds=2.5,
        rate_limit=RateLimit(max_concurrency=3, rps=1.5, rpm=60, chars_per_minute=9000),
    )
    settings = resolve_settings("libre", config_with(row), {})
    assert settings.timeout_seconds == 2.5
    limits = (settings.max_concurrency, settings.rps, settings.rpm, settings.chars_per_minute)
    assert limits == (3, 1.5, 60, 9000)
    assert (
        resolve_settings("libre", config_with(ProviderRow(id="libre")), {}).chars_per_minute is None
    )


def test_azure_region_comes_from_its_row() -> None:
    config = config_with(ProviderRow(id="azure", api_key="k", region="westeurope"))
    assert resolve_settings("azure", config, {}).region == "westeurope"


def test_settings_repr_hides_the_api_key() -> None:
    settings = resolve_settings("deepl", NO_ROWS, {"I18NPRUNE_TRANSLATE_DEEPL_API_KEY": "s3cr3t"})
    assert "s3cr3t" not in repr(settings)
    assert "s3cr3t" not in str(settings)
    assert "api_key='***'" in repr(settings)
    assert "s3cr3t" not in pretty_repr(settings)


def test_settings_repr_hides_credentials_in_the_base_url() -> None:
    env = {"I18NPRUNE_TRANSLATE_LIBRE_URL": "https://user:pa55@libre.internal"}
    settings = resolve_settings("libre", NO_ROWS, env)
    assert settings.base_url == "https://user:pa55@libre.internal"
    assert "pa55" not in repr(settings)
    assert "pa55" not in pretty_repr(settings)


def test_settings_cross_a_msgpack_pipe_unchanged() -> None:
    settings = resolve_settings("deepl", NO_ROWS, {"I18NPRUNE_TRANSLATE_DEEPL_API_KEY": "k"})
    wire = msgspec.msgpack.encode(settings)
    assert msgspec.msgpack.decode(wire, type=ProviderSettings) == settings


def test_single_routing_chain_is_the_primary_alone() -> None:
    config = config_with(ProviderRow(id="google"), ProviderRow(id="libre"))
    assert [settings.id for settings in provider_chain("pseudo", config, {})] == ["pseudo"]


def test_auto_routing_falls_back_along_enabled_rows_in_order() -> None:
    config = config_with(
        ProviderRow(id="libre"),
        ProviderRow(id="google", enabled=False),
        ProviderRow(id="pseudo"),
        ProviderRow(id="mymemory"),
        routing="auto",
    )
    chain = provider_chain("pseudo", config, {})
    assert [settings.id for settings in chain] == ["pseudo", "libre", "mymemory"]


def test_auto_routing_skips_rows_without_credentials() -> None:
    config = config_with(ProviderRow(id="deepl"), ProviderRow(id="libre"), routing="auto")
    assert [settings.id for settings in provider_chain("google", config, {})] == [
        "google",
        "libre",
    ]


def test_primary_without_credentials_is_an_error_even_with_auto_routing() -> None:
    config = config_with(ProviderRow(id="libre"), routing="auto")
    with pytest.raises(ProblemError) as caught:
        provider_chain("deepl", config, {})
    assert caught.value.issue.code == Code.MISSING_CREDENTIALS


def test_auto_routing_reports_a_row_with_an_unknown_id() -> None:
    config = config_with(ProviderRow(id="libre"), ProviderRow(id="bing"), routing="auto")
    with pytest.raises(ProblemError) as caught:
        provider_chain("libre", config, {})
    assert caught.value.issue.code == Code.UNKNOWN_PROVIDER
