"""Which settings are secrets, and how they are shown: as `***`, never their value."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import msgspec

from i18nprune.config.schema import Config

REDACTED = "***"

_SECRET_ENDINGS = ("key", "token", "secret", "password", "credentials")
_URL_CREDENTIALS = re.compile(r"^([a-z][a-z0-9+.-]*://)[^/@\s]+@", re.IGNORECASE)
_QUERY_CREDENTIALS = re.compile(
    r"^([a-z][a-z0-9+.-]*://\S*?[?&](?:password|pass|auth)=)[^&#\s]*", re.IGNORECASE
)


def is_secret_name(name: str) -> bool:
    """True for key- or token-like names: `apiKey`, `I18NPRUNE_TRANSLATE_DEEPL_API_KEY`, `token`."""
    flat = name.lower().replace("_", "").replace("-", "")
    return flat.endswith(_SECRET_ENDINGS)


def redact_url_credentials(value: str) -> str:
    """`https://user:pass@host/` → `https://***@host/`, and a password in the query
    (`unix:///run/redis.sock?password=pw` → `…?password=***`); other strings unchanged."""
    shown = _URL_CREDENTIALS.sub(rf"\1{REDACTED}@", value)
    return _QUERY_CREDENTIALS.sub(rf"\1{REDACTED}", shown)


def redacted_config(config: Config) -> dict[str, Any]:
    """camelCase builtins of the config with every secret (apiKey and anything key/token-like,
    and credentials inside URLs) shown as "***". Unset secrets stay `null`."""
    redacted: dict[str, Any] = _redact(msgspec.to_builtins(config))
    return redacted


def redacted_env(env: Mapping[str, str]) -> dict[str, str]:
    """Every `I18NPRUNE_*` variable, sorted by name, with secret values as "***"."""
    return {
        name: REDACTED if is_secret_name(name) and value else redact_url_credentials(value)
        for name, value in sorted(env.items())
        if name.startswith("I18NPRUNE_")
    }


def _redact(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            key: REDACTED if is_secret_name(key) and item is not None else _redact(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_redact(item) for item in value]
    if isinstance(value, str):
        return redact_url_credentials(value)
    return value
