"""Google Translate's public endpoint (`translate_a/t`, client `gtx`): no key, one form field
`q` per text, HTML mode so the `<x id="N"/>` tokens pass through.
"""

from __future__ import annotations

from typing import Any

import httpx

from i18nprune.pool.messages import FailureKind, ProviderSettings, TextNote

from .errors import bad_response
from .exchange import exchange_masked, mentions_quota
from .languages import subtags


def language_code(code: str) -> str:
    """Google's code for our locale code: `zh-Hant` → `zh-TW`, `pt-PT` stays, `pt-BR` → `pt`,
    `nb` → `no`, otherwise the language alone. Google Cloud v2 uses the same codes."""
    parts = subtags(code)
    if parts.language == "zh":
        return "zh-TW" if parts.traditional_chinese else "zh-CN"
    if parts.language == "pt" and parts.region == "pt":
        return "pt-PT"
    if parts.norwegian_bokmal:
        return "no"
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
        return client.build_request(
            "POST",
            f"{settings.base_url}/translate_a/t",
            params={
                "client": "gtx",
                "sl": language_code(source),
                "tl": language_code(target),
                "format": "html",
            },
            data={"q": escaped},
        )

    return await exchange_masked(
        client,
        settings,
        texts,
        build,
        object,
        _read_error,
        lambda answer: _entries(settings.id, answer, len(texts)),
    )


def _entries(provider_id: str, answer: object, count: int) -> list[str]:
    # one q may come back bare (`"…"` or `["…", "fr"]`); several come back one entry each,
    # an entry being the text or a list whose first element is the text
    if isinstance(answer, str):
        answer = [answer]
    if not isinstance(answer, list):
        raise bad_response(provider_id, "the body is not a list")
    if count == 1 and answer and isinstance(answer[0], str):
        answer = answer[:1]
    if len(answer) != count:
        raise bad_response(provider_id, f"{len(answer)} translations for {count} texts")
    texts: list[str] = []
    for entry in answer:
        text = entry[0] if isinstance(entry, list) and entry else entry
        if not isinstance(text, str):
            raise bad_response(provider_id, "an entry is not a string")
        texts.append(text)
    return texts


def _read_error(status: int, body: Any) -> tuple[str | None, FailureKind | None]:
    # the public endpoint answers errors as HTML or plain text, not JSON
    said = body if isinstance(body, str) else None
    return None, mentions_quota(status, said)
