"""Classified provider failures: turning HTTP answers and httpx exceptions into ProviderError,
reading Retry-After, and keeping secrets out of every message.
"""

from __future__ import annotations

import email.utils
import re
import time
from collections.abc import Callable

import httpx

from i18nprune.config.secrets import REDACTED
from i18nprune.pool.messages import FailureKind

_DETAIL_LIMIT = 200
_KEY_PARAMETER = re.compile(r"((?:api[_-]?)?key=)[^&\s\"']+", re.IGNORECASE)
_URL_CREDENTIALS = re.compile(r"\b([a-z][a-z0-9+.-]*://)[^/@\s]+@", re.IGNORECASE)


class ProviderError(Exception):
    """A classified provider failure. Its message never contains secrets."""

    def __init__(
        self,
        kind: FailureKind,
        message: str,
        *,
        retry_after: float | None = None,
        status: int | None = None,
    ) -> None:
        super().__init__(message)
        self.kind: FailureKind = kind
        self.message = message
        self.retry_after = retry_after
        self.status = status

    def __repr__(self) -> str:
        return f"ProviderError({self.kind!r}, {self.message!r}, status={self.status!r})"


def scrub(text: str, secret: str | None) -> str:
    """`text` without `secret`, `key=` query values or URL credentials (each shown as `***`)."""
    if secret:
        text = text.replace(secret, REDACTED)
    text = _URL_CREDENTIALS.sub(rf"\1{REDACTED}@", text)
    return _KEY_PARAMETER.sub(rf"\1{REDACTED}", text)


def detail(text: str, secret: str | None) -> str:
    """A provider's error text fit for a message: one line, secrets stripped, truncated."""
    flat = " ".join(scrub(text, secret).split())
    if len(flat) > _DETAIL_LIMIT:
        return flat[: _DETAIL_LIMIT - 1] + "…"
    return flat


def parse_retry_after(value: str | None, now: Callable[[], float] = time.time) -> float | None:
    """Seconds to wait from a Retry-After value: delta-seconds or an HTTP date (never < 0).

    None when absent or unreadable.
    """
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - now())


def failure_from_response(
    provider_id: str,
    response: httpx.Response,
    secret: str | None,
    *,
    kind: FailureKind | None = None,
    text: str | None = None,
) -> ProviderError:
    """The failure a non-2xx answer means.

    `kind` is what the adapter recognised in the provider's error body (a quota answer, a
    rate limit sent as 403); otherwise the status decides: 429 → rate_limited, 456 → quota,
    401/403 → auth, 5xx → transient, other 4xx → bad_response. A rate limit carries the
    Retry-After delay. `text` is the provider's error message (default: the body).
    """
    status = response.status_code
    said = detail(response.text if text is None else text, secret)
    message = f"{provider_id}: HTTP {status}" + (f": {said}" if said else "")
    kind = kind or _kind_of_status(status)
    retry_after = None
    if kind == "rate_limited":
        retry_after = parse_retry_after(response.headers.get("retry-after"))
    return ProviderError(kind, message, retry_after=retry_after, status=status)


def _kind_of_status(status: int) -> FailureKind:
    if status == 429:
        return "rate_limited"
    if status == 456:
        return "quota"
    if status in (401, 403):
        return "auth"
    if status >= 500:
        return "transient"
    return "bad_response"


def failure_from_exception(
    provider_id: str, problem: httpx.HTTPError, secret: str | None
) -> ProviderError:
    """The failure an httpx exception means: timeouts, connection errors and resets are
    transient; anything else (an unusable base URL, an undecodable body) is bad_response."""
    name = type(problem).__name__
    if isinstance(problem, httpx.TimeoutException):
        return ProviderError("transient", f"{provider_id}: timed out ({name})")
    said = detail(str(problem), secret)
    message = f"{provider_id}: {name}" + (f": {said}" if said else "")
    if isinstance(problem, (httpx.NetworkError, httpx.RemoteProtocolError, httpx.ProxyError)):
        return ProviderError("transient", message)
    return ProviderError("bad_response", message)


def bad_response(provider_id: str, what: str) -> ProviderError:
    """A 2xx answer the adapter cannot use (unparsable, wrong shape, wrong count)."""
    return ProviderError("bad_response", f"{provider_id}: unusable answer: {what}", status=200)
