"""The I18NPRUNE_* environment: the config values it sets, whether discovery is off, and each
translation provider's credentials and endpoint.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from i18nprune.config.layers import deep_merge, nested
from i18nprune.envelope import Code, ProblemError, error

# variable → dotted config field it sets (plain string values)
_STRING_FIELDS = {
    "I18NPRUNE_SOURCE": "locales.source",
    "I18NPRUNE_LOCALES_DIR": "locales.directory",
    "I18NPRUNE_SRC": "src",
    "I18NPRUNE_TRANSLATE_PROVIDER": "translate.primary",
    "I18NPRUNE_CACHE_URL": "cache.url",
}
FUNCTIONS_VARIABLE = "I18NPRUNE_FUNCTIONS"
WORKERS_VARIABLE = "I18NPRUNE_TRANSLATE_MAX_WORKERS"
NO_DISCOVERY_VARIABLE = "I18NPRUNE_NO_DISCOVERY"

_TRUE_WORDS = frozenset({"1", "true", "yes"})


class ProviderEnv(msgspec.Struct, frozen=True, kw_only=True):
    """What the environment says about one translation provider; None = not set."""

    api_key: str | None = None
    base_url: str | None = None
    model: str | None = None


def environment_layer(env: Mapping[str, str]) -> dict[str, Any]:
    """The config values set by environment variables, as a camelCase layer.

    Empty variables count as unset. Raises ProblemError (CONFIG_INVALID) when
    I18NPRUNE_TRANSLATE_MAX_WORKERS is not a positive integer.
    """
    layer: dict[str, Any] = {}
    for variable, field in _STRING_FIELDS.items():
        value = _given(env, variable)
        if value is not None:
            layer = deep_merge(
                layer, nested(field, source_dirs(value) if field == "src" else value)
            )
    functions = _given(env, FUNCTIONS_VARIABLE)
    if functions is not None:
        names = [name.strip() for name in functions.split(",") if name.strip()]
        if names:
            layer = deep_merge(layer, nested("functions", names))
    workers = _given(env, WORKERS_VARIABLE)
    if workers is not None:
        layer = deep_merge(layer, nested("translate.workers", _positive_integer(workers)))
    return layer


def source_dirs(text: str) -> str | list[str]:
    """`src` as a flag or variable gives it: one directory, or several separated by commas."""
    if "," not in text:
        return text
    return [part.strip() for part in text.split(",") if part.strip()]


def discovery_disabled(env: Mapping[str, str]) -> bool:
    """True when I18NPRUNE_NO_DISCOVERY is `1`, `true` or `yes` (any case)."""
    return (_given(env, NO_DISCOVERY_VARIABLE) or "").lower() in _TRUE_WORDS


def provider_variable_prefix(provider_id: str) -> str:
    """Where a provider's variable names start (`deepl` → `I18NPRUNE_TRANSLATE_DEEPL_`)."""
    return "I18NPRUNE_TRANSLATE_" + provider_id.upper().replace("-", "_") + "_"


def provider_env(env: Mapping[str, str], provider_id: str) -> ProviderEnv:
    """Credentials and endpoint of `provider_id` from the environment.

    Reads I18NPRUNE_TRANSLATE_<ID>_API_KEY, I18NPRUNE_TRANSLATE_<ID>_URL (else
    I18NPRUNE_TRANSLATE_<ID>_BASE_URL) and I18NPRUNE_TRANSLATE_<ID>_MODEL, with ID upper-cased
    and `-` as `_` (`google-cloud` → GOOGLE_CLOUD). The historical names
    (I18NPRUNE_TRANSLATE_DEEPL_API_KEY, I18NPRUNE_TRANSLATE_LIBRE_URL,
    I18NPRUNE_TRANSLATE_LLM_{API_KEY,BASE_URL,MODEL}) are these same patterns.
    """
    prefix = provider_variable_prefix(provider_id)
    return ProviderEnv(
        api_key=_given(env, prefix + "API_KEY"),
        base_url=_given(env, prefix + "URL") or _given(env, prefix + "BASE_URL"),
        model=_given(env, prefix + "MODEL"),
    )


def _given(env: Mapping[str, str], variable: str) -> str | None:
    value = env.get(variable, "").strip()
    return value or None


def _positive_integer(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise ProblemError(
            error(
                Code.CONFIG_INVALID,
                f"environment variable {WORKERS_VARIABLE} must be a positive integer "
                f"(the number of translation workers), got `{text}`",
                WORKERS_VARIABLE,
            )
        )
    return number
