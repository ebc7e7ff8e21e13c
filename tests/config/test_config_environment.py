"""I18NPRUNE_* variables: the config values they set and the provider settings they carry."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from i18nprune.config import LoadedConfig, ProviderEnv, provider_env
from i18nprune.envelope import Code, ProblemError

Load = Callable[..., LoadedConfig]
Write = Callable[[str, str], Path]

QUIET = {"I18NPRUNE_NO_DISCOVERY": "1"}


def test_environment_sets_locales_and_src(load: Load) -> None:
    config = load(
        env={
            **QUIET,
            "I18NPRUNE_SOURCE": "fr",
            "I18NPRUNE_LOCALES_DIR": "i18n",
            "I18NPRUNE_SRC": "app",
        }
    ).config
    assert (config.locales.source, config.locales.directory, config.src) == ("fr", "i18n", "app")


def test_functions_variable_is_a_comma_list(load: Load) -> None:
    config = load(env={**QUIET, "I18NPRUNE_FUNCTIONS": "t, i18n.t,,$t"}).config
    assert config.functions == ["t", "i18n.t", "$t"]


def test_translate_provider_and_workers_come_from_environment(load: Load) -> None:
    config = load(
        env={
            **QUIET,
            "I18NPRUNE_TRANSLATE_PROVIDER": "pseudo",
            "I18NPRUNE_TRANSLATE_MAX_WORKERS": "9",
        }
    ).config
    assert (config.translate.primary, config.translate.workers) == ("pseudo", 9)


@pytest.mark.parametrize("value", ["many", "0", "-2", "2.5"])
def test_invalid_max_workers_names_the_variable(load: Load, value: str) -> None:
    with pytest.raises(ProblemError) as raised:
        load(env={"I18NPRUNE_TRANSLATE_MAX_WORKERS": value})
    issue = raised.value.issue
    assert issue.code == Code.CONFIG_INVALID
    assert "I18NPRUNE_TRANSLATE_MAX_WORKERS must be a positive integer" in issue.message
    assert f"`{value}`" in issue.message


def test_environment_overrides_the_file(load: Load, write: Write) -> None:
    write("i18nprune.config.json", '{"locales": {"source": "en", "directory": "loc"}}')
    config = load(env={**QUIET, "I18NPRUNE_SOURCE": "de"}).config
    assert config.locales.source == "de"
    assert config.locales.directory == "loc"


def test_empty_variable_counts_as_unset(load: Load, write: Write) -> None:
    write("i18nprune.config.json", '{"src": "web"}')
    loaded = load(env={**QUIET, "I18NPRUNE_SRC": ""})
    assert loaded.config.src == "web"
    assert loaded.field_sources["src"] == "file"


def test_loaded_env_lists_every_i18nprune_variable_with_secrets_redacted(load: Load) -> None:
    env = {
        **QUIET,
        "I18NPRUNE_TRANSLATE_DEEPL_API_KEY": "secret-key:fx",
        "I18NPRUNE_TRANSLATE_LIBRE_URL": "http://localhost:5000",
        "PATH": "/bin",
    }
    assert load(env=env).env == {
        "I18NPRUNE_NO_DISCOVERY": "1",
        "I18NPRUNE_TRANSLATE_DEEPL_API_KEY": "***",
        "I18NPRUNE_TRANSLATE_LIBRE_URL": "http://localhost:5000",
    }


def test_provider_env_reads_key_url_and_model_by_id() -> None:
    env = {
        "I18NPRUNE_TRANSLATE_GOOGLE_CLOUD_API_KEY": "k",
        "I18NPRUNE_TRANSLATE_GOOGLE_CLOUD_URL": "http://127.0.0.1:9/",
    }
    assert provider_env(env, "google-cloud") == ProviderEnv(
        api_key="k", base_url="http://127.0.0.1:9/"
    )


def test_provider_env_reads_the_historical_llm_names() -> None:
    env = {
        "I18NPRUNE_TRANSLATE_LLM_API_KEY": "k",
        "I18NPRUNE_TRANSLATE_LLM_BASE_URL": "http://127.0.0.1:8080/v1",
        "I18NPRUNE_TRANSLATE_LLM_MODEL": "tiny",
    }
    assert provider_env(env, "llm") == ProviderEnv(
        api_key="k", base_url="http://127.0.0.1:8080/v1", model="tiny"
    )


def test_provider_env_reads_the_historical_deepl_and_libre_names() -> None:
    env = {
        "I18NPRUNE_TRANSLATE_DEEPL_API_KEY": "d",
        "I18NPRUNE_TRANSLATE_LIBRE_URL": "http://127.0.0.1:5000",
    }
    assert provider_env(env, "deepl").api_key == "d"
    assert provider_env(env, "libre").base_url == "http://127.0.0.1:5000"


def test_provider_env_url_wins_over_base_url() -> None:
    env = {
        "I18NPRUNE_TRANSLATE_LLM_URL": "http://127.0.0.1:1",
        "I18NPRUNE_TRANSLATE_LLM_BASE_URL": "http://127.0.0.1:2",
    }
    assert provider_env(env, "llm").base_url == "http://127.0.0.1:1"


def test_provider_env_without_variables_is_empty() -> None:
    assert provider_env({}, "azure") == ProviderEnv()
