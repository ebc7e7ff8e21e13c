"""Azure AI Translator v3 (`/translate?api-version=3.0`): subscription key and region headers,
an array of `{"Text": …}`, HTML text type so the `<x id="N"/>` tokens pass through.
"""

from __future__ import annotations

from typing import Annotated, Any

import httpx
import msgspec

from i18nprune.pool.messages import FailureKind, ProviderSettings, TextNote

from .exchange import exchange_masked, read_as
from .languages import subtags

_QUOTA_CODES = frozenset({403001})


class _Translation(msgspec.Struct):
    text: str


class _Entry(msgspec.Struct):
    translations: Annotated[list[_Translation], msgspec.Meta(min_length=1)]


class _Problem(msgspec.Struct):
    code: int = 0
    message: str = ""


class _ErrorBody(msgspec.Struct):
    error: _Problem


def language_code(code: str) -> str:
    """Azure's code: `zh-Hans`/`zh-Hant` (from scripts or regions), `pt-PT` (else `pt`),
    `fr-CA`, `sr-Latn`/`sr-Cyrl`, `nb` for Norwegian, otherwise the language alone."""
    parts = subtags(code)
    if parts.language == "zh":
        return "zh-Hant" if parts.traditional_chinese else "zh-Hans"
    if parts.language == "pt" and parts.region == "pt":
        return "pt-PT"
    if parts.language == "fr" and parts.region == "ca":
        return "fr-CA"
    if parts.language == "sr":
        return "sr-Latn" if parts.script == "latn" else "sr-Cyrl"
    if parts.norwegian_bokmal:
        return "nb"
    return parts.language


async def translate(
    client: httpx.AsyncClient,
    settings: ProviderSettings,
    texts: list[str],
    source: str,
    target: str,
    notes: list[TextNote | None],
) -> list[str]:
    """Translate unique `texts` in one request. Raises ProviderError."""
    headers = {"Ocp-Apim-Subscription-Key": settings.api_key or ""}
    if settings.region is not None:
        headers["Ocp-Apim-Subscription-Region"] = settings.region

    def build(escaped: list[str]) -> httpx.Request:
        return client.build_request(
            "POST",
            f"{settings.base_url}/translate",
            params={
                "api-version": "3.0",
                "from": language_code(source),
                "to": language_code(target),
                "textType": "html",
            },
            headers=headers,
            json=[{"Text": text} for text in escaped],
        )

    return await exchange_masked(
        client,
        settings,
        texts,
        build,
        list[_Entry],
        _read_error,
        lambda answer: [entry.translations[0].text for entry in answer],
    )


def _read_error(status: int, body: Any) -> tuple[str | None, FailureKind | None]:
    problem = read_as(body, _ErrorBody)
    if problem is None:
        return None, None
    kind: FailureKind | None = "quota" if problem.error.code in _QUOTA_CODES else None
    return problem.error.message, kind
