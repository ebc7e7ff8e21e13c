"""Google Cloud Translation v2 (`/language/translate/v2?key=…`): JSON arrays of up to 128
texts, HTML format so the `<x id="N"/>` tokens pass through.
"""

from __future__ import annotations

from typing import Any

import httpx
import msgspec

from i18nprune.pool.messages import FailureKind, ProviderSettings, TextNote

from .exchange import exchange_masked, read_as
from .google import language_code

_QUOTA_REASONS = frozenset({"dailyLimitExceeded", "quotaExceeded"})
_RATE_REASONS = frozenset({"rateLimitExceeded", "userRateLimitExceeded"})


class _Translation(msgspec.Struct, rename="camel"):
    translated_text: str


class _Data(msgspec.Struct):
    translations: list[_Translation]


class _Answer(msgspec.Struct):
    data: _Data


class _Reason(msgspec.Struct):
    reason: str = ""


class _Problem(msgspec.Struct):
    message: str = ""
    errors: list[_Reason] = []


class _ErrorBody(msgspec.Struct):
    error: _Problem


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
            f"{settings.base_url}/language/translate/v2",
            params={"key": settings.api_key or ""},
            json={
                "q": escaped,
                "source": language_code(source),
                "target": language_code(target),
                "format": "html",
            },
        )

    return await exchange_masked(
        client,
        settings,
        texts,
        build,
        _Answer,
        _read_error,
        lambda answer: [item.translated_text for item in answer.data.translations],
    )


def _read_error(status: int, body: Any) -> tuple[str | None, FailureKind | None]:
    problem = read_as(body, _ErrorBody)
    if problem is None:
        return None, None
    reasons = {item.reason for item in problem.error.errors}
    kind: FailureKind | None = None
    if reasons & _QUOTA_REASONS:
        kind = "quota"
    elif reasons & _RATE_REASONS:
        kind = "rate_limited"
    return problem.error.message, kind
