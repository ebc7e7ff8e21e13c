"""LibreTranslate (`/translate`): a JSON array of texts, optional `api_key`, HTML format so
the `<x id="N"/>` tokens pass through.
"""

from __future__ import annotations

from typing import Any

import httpx
import msgspec

from i18nprune.pool.messages import FailureKind, ProviderSettings, TextNote

from .exchange import exchange_masked, mentions_quota, read_as
from .languages import subtags


class _Answer(msgspec.Struct, rename="camel"):
    translated_text: list[str]


class _ErrorBody(msgspec.Struct):
    error: str


def language_code(code: str) -> str:
    """LibreTranslate's code: `zh-Hant` → `zt`, other Chinese `zh`, `pt-BR` → `pb`, `no` →
    `nb`, otherwise the language alone."""
    parts = subtags(code)
    if parts.language == "zh":
        return "zt" if parts.traditional_chinese else "zh"
    if parts.language == "pt" and parts.region == "br":
        return "pb"
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

    def build(escaped: list[str]) -> httpx.Request:
        body: dict[str, Any] = {
            "q": escaped,
            "source": language_code(source),
            "target": language_code(target),
            "format": "html",
        }
        if settings.api_key is not None:
            body["api_key"] = settings.api_key
        return client.build_request("POST", f"{settings.base_url}/translate", json=body)

    return await exchange_masked(
        client, settings, texts, build, _Answer, _read_error, lambda a: a.translated_text
    )


def _read_error(status: int, body: Any) -> tuple[str | None, FailureKind | None]:
    problem = read_as(body, _ErrorBody)
    said = problem.error if problem is not None else None
    return said, mentions_quota(status, said)
