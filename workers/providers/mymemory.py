"""MyMemory (`/get?q=…&langpair=en|fr`): one text per GET request, plain text, optional key;
quota exhaustion arrives inside a 200 answer.
"""

from __future__ import annotations

from typing import Any

import httpx
import msgspec

from i18nprune.pool.messages import FailureKind, ProviderSettings, TextNote

from .errors import ProviderError, bad_response, detail
from .exchange import exchange, mentions_quota, read_as
from .languages import subtags


class _Data(msgspec.Struct, rename="camel"):
    translated_text: str


class _Answer(msgspec.Struct, rename="camel"):
    response_data: _Data
    response_status: int | str = 200
    response_details: str = ""
    quota_finished: bool | None = None


class _ErrorBody(msgspec.Struct, rename="camel"):
    response_details: str = ""


def language_code(code: str) -> str:
    """MyMemory's code (RFC 3066): `zh-Hans` → `zh-CN`, `zh-Hant` → `zh-TW`, otherwise the
    language with its region (`pt-BR`, `fr`)."""
    parts = subtags(code)
    if parts.language == "zh":
        return "zh-TW" if parts.traditional_chinese else "zh-CN"
    if parts.region.isalpha():
        return f"{parts.language}-{parts.region.upper()}"
    return parts.language


async def translate(
    client: httpx.AsyncClient,
    settings: ProviderSettings,
    texts: list[str],
    source: str,
    target: str,
    notes: list[TextNote | None],
) -> list[str]:
    """Translate unique `texts`, one request each, in order. Raises ProviderError."""
    langpair = f"{language_code(source)}|{language_code(target)}"
    return [await _translate_one(client, settings, text, langpair) for text in texts]


async def _translate_one(
    client: httpx.AsyncClient, settings: ProviderSettings, text: str, langpair: str
) -> str:
    params = {"q": text, "langpair": langpair}
    if settings.api_key is not None:
        params["key"] = settings.api_key
    request = client.build_request("GET", f"{settings.base_url}/get", params=params)
    answer = await exchange(client, settings, request, _Answer, _read_error)
    status = str(answer.response_status)
    if answer.quota_finished or status == "429":
        said = detail(answer.response_details, settings.api_key)
        raise ProviderError("quota", f"{settings.id}: quota exhausted: {said}", status=200)
    if status != "200":
        said = detail(answer.response_details, settings.api_key)
        raise bad_response(settings.id, f"status {status}: {said}")
    return answer.response_data.translated_text


def _read_error(status: int, body: Any) -> tuple[str | None, FailureKind | None]:
    problem = read_as(body, _ErrorBody)
    said = problem.response_details if problem is not None else None
    return said, mentions_quota(status, said)
