"""One HTTP exchange with a provider: sent with the settings' timeout, failures classified,
and the 2xx body decoded into the adapter's answer type.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx
import msgspec
import trio

from i18nprune.pool.messages import FailureKind, ProviderSettings

from .errors import (
    ProviderError,
    bad_response,
    failure_from_exception,
    failure_from_response,
)
from .markup import escape_masked, unescape_answer

T = TypeVar("T")

# (status, error body decoded from JSON or else its text) → (the provider's error message, or
# None for the raw body; the failure kind the body shows, or None to classify by status alone)
ErrorReader = Callable[[int, Any], tuple[str | None, FailureKind | None]]


@dataclass
class HttpLedger:
    """The HTTP requests made for one batch, and the seconds they took."""

    requests: int = 0
    seconds: float = 0.0


http_ledger: ContextVar[HttpLedger | None] = ContextVar("http_ledger", default=None)
"""Where `exchange` counts its requests: set per batch by the worker's runtime (each batch runs
in its own task, so in its own context)."""


async def exchange(
    client: httpx.AsyncClient,
    settings: ProviderSettings,
    request: httpx.Request,
    answer_type: type[T],
    read_error: ErrorReader,
) -> T:
    """Send `request` and return its 2xx body decoded as `answer_type`.

    The whole exchange is bounded by `settings.timeout_seconds`. Raises ProviderError:
    classified from the status (with `read_error` naming quota answers and the provider's
    message), transient for timeouts and connection failures, bad_response for a 2xx body that
    is not JSON of the expected shape. Cancellation aborts the request and propagates.
    """
    timeout = settings.timeout_seconds
    # httpx bounds each read and write; the trio deadline bounds the exchange as a whole
    request.extensions["timeout"] = httpx.Timeout(timeout).as_dict()
    ledger = http_ledger.get()
    started = time.perf_counter()
    try:
        with trio.move_on_after(timeout):
            try:
                response = await client.send(request)
            except httpx.HTTPError as problem:
                raise failure_from_exception(settings.id, problem, settings.api_key) from None
            return _answer(settings, response, answer_type, read_error)
    finally:
        if ledger is not None:
            ledger.requests += 1
            ledger.seconds += time.perf_counter() - started
    raise ProviderError("transient", f"{settings.id}: timed out after {timeout:g} s")


async def exchange_masked(
    client: httpx.AsyncClient,
    settings: ProviderSettings,
    texts: list[str],
    build: Callable[[list[str]], httpx.Request],
    answer_type: type[T],
    read_error: ErrorReader,
    translations: Callable[[T], Iterable[str]],
) -> list[str]:
    """The shape every markup-aware adapter shares: `build` one request from the texts with
    their placeholder tokens escaped as markup the provider passes through (`escape_masked`),
    `exchange` it, and return the `translations` the answer holds, unescaped, in order (the
    count is checked by `translate_batch`). Raises ProviderError as `exchange` does."""
    request = build([escape_masked(text) for text in texts])
    answer = await exchange(client, settings, request, answer_type, read_error)
    return [unescape_answer(text) for text in translations(answer)]


def _answer(
    settings: ProviderSettings,
    response: httpx.Response,
    answer_type: type[T],
    read_error: ErrorReader,
) -> T:
    if not response.is_success:
        try:
            body = msgspec.json.decode(response.content)
        except msgspec.DecodeError:
            body = response.text
        said, kind = read_error(response.status_code, body)
        raise failure_from_response(settings.id, response, settings.api_key, kind=kind, text=said)
    try:
        return msgspec.json.decode(response.content, type=answer_type)
    except msgspec.ValidationError as problem:
        raise bad_response(settings.id, f"unexpected JSON shape ({problem})") from None
    except msgspec.DecodeError:
        raise bad_response(settings.id, "the body is not JSON") from None


def read_as(body: Any, shape: type[T]) -> T | None:
    """`body` (decoded JSON) as `shape`, or None when it does not have that shape."""
    try:
        return msgspec.convert(body, shape)
    except msgspec.ValidationError:
        return None


def mentions_quota(status: int, said: str | None) -> FailureKind | None:
    """quota for a 429 or 403 whose message speaks of a quota (providers without a quota
    status of their own answer that way); None otherwise."""
    if status in (403, 429) and said is not None and "quota" in said.lower():
        return "quota"
    return None
