"""DeepL API v2 (`/v2/translate`, `DeepL-Auth-Key` header): up to 50 texts, XML tag handling
with `x` ignored so the `<x id="N"/>` tokens pass through; the row's `formality` (per target)
and `context` go with every request.
"""

from __future__ import annotations

from typing import Any

import httpx
import msgspec

from i18nprune.locale_codes import per_locale
from i18nprune.pool.messages import FailureKind, ProviderSettings, TextNote

from .exchange import exchange_masked, read_as
from .languages import subtags

# The target languages DeepL has formality for (its /v2/languages `supports_formality`); others
# reject `more`/`less` with a 400, so those are sent as `prefer_*`, which DeepL accepts anywhere.
_FORMALITY_TARGETS = frozenset(
    {"DE", "FR", "IT", "ES", "ES-419", "NL", "PL", "PT-BR", "PT-PT", "JA", "RU"}
)


class _Text(msgspec.Struct):
    text: str


class _Answer(msgspec.Struct):
    translations: list[_Text]


class _ErrorBody(msgspec.Struct):
    message: str = ""
    detail: str = ""


def source_code(code: str) -> str:
    """DeepL's source language: the language alone, upper-cased (`pt-BR` → `PT`, `nb` → `NB`)."""
    parts = subtags(code)
    return "NB" if parts.norwegian_bokmal else parts.language.upper()


def target_code(code: str) -> str:
    """DeepL's target language: `EN-US` (for `en`, `en-US`) or `EN-GB` (other English),
    `PT-BR` or `PT-PT`, `ZH-HANT` or `ZH-HANS`, `ES-419`, else the language upper-cased."""
    parts = subtags(code)
    if parts.language == "en":
        return "EN-US" if parts.region in ("", "us") else "EN-GB"
    if parts.language == "pt":
        return "PT-BR" if parts.region == "br" else "PT-PT"
    if parts.language == "zh":
        return "ZH-HANT" if parts.traditional_chinese else "ZH-HANS"
    if parts.language == "es" and parts.region == "419":
        return "ES-419"
    return source_code(code)


def formality_parameter(formality: str | None, target_lang: str) -> str | None:
    """The `formality` to send to DeepL for a target (`target_code`) under the configured
    value: None for none or `default` (not sent), `prefer_more`/`prefer_less` for `more`/`less`
    where the target has no formality, else the value as configured."""
    if formality is None or formality == "default":
        return None
    if formality in ("more", "less") and target_lang not in _FORMALITY_TARGETS:
        return f"prefer_{formality}"
    return formality


async def translate(
    client: httpx.AsyncClient,
    settings: ProviderSettings,
    texts: list[str],
    source: str,
    target: str,
    notes: list[TextNote | None],
) -> list[str]:
    """Translate unique `texts` in one request (`notes` are not used: DeepL's context is one
    per request). Raises ProviderError."""
    target_lang = target_code(target)

    def build(escaped: list[str]) -> httpx.Request:
        body: dict[str, Any] = {
            "text": escaped,
            "source_lang": source_code(source),
            "target_lang": target_lang,
            "tag_handling": "xml",
            "ignore_tags": ["x"],
        }
        formality = formality_parameter(per_locale(settings.formality, target), target_lang)
        if formality is not None:
            body["formality"] = formality
        if settings.context:
            body["context"] = settings.context
        return client.build_request(
            "POST",
            f"{settings.base_url}/v2/translate",
            headers={"Authorization": f"DeepL-Auth-Key {settings.api_key or ''}"},
            json=body,
        )

    return await exchange_masked(
        client,
        settings,
        texts,
        build,
        _Answer,
        _read_error,
        lambda answer: [item.text for item in answer.translations],
    )


def _read_error(status: int, body: Any) -> tuple[str | None, FailureKind | None]:
    problem = read_as(body, _ErrorBody)
    if problem is None:
        return None, None
    return " ".join(part for part in (problem.message, problem.detail) if part), None
