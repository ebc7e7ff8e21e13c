"""Loopback fake translation providers: real HTTP on 127.0.0.1 speaking one provider's wire
format, with latency, batch-limit, credential, hard-limit and fault knobs, recording every request.
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Literal

import msgspec
import trio

from i18nprune.testing.loopback import Client, HttpReply, HttpRequest, LoopbackServer
from i18nprune.testing.wire_formats import WIRE_FORMATS, WireCall, WireError

FaultKind = Literal[
    "rate_limit",
    "server_error",
    "quota",
    "auth",
    "hang",
    "reset",
    "malformed",
    "wrong_count",
    "drop_placeholder",
    "rename_placeholder",
]

_TOKEN = re.compile(r'<x id="(\d+)"/>')


def fake_translation(text: str, target: str) -> str:
    """What every fake translates `text` into for `target`, the language code as the provider
    received it: `"<TARGET upper-cased>:<text>"`, tokens, entities and all else untouched.
    """
    return f"{target.upper()}:{text}"


class Fault(msgspec.Struct, frozen=True, kw_only=True):
    """A misbehaviour for the next `times` requests (-1: for ever) that pass the route, shape,
    credential and batch-limit checks.

    rate_limit: 429, with `Retry-After: <retry_after>` when set (whole seconds as an integer,
    fractions such as "0.25" kept so that tests stay fast). server_error: 500. quota: the
    provider's quota answer (deepl 456, google-cloud 403 dailyLimitExceeded, azure 403 code
    403001, mymemory HTTP 200 with responseStatus 429 and quotaFinished, llm 429
    insufficient_quota, libre and google 429 with "quota exceeded"). auth: the provider's auth
    error (azure and llm 401, others 403). hang: no answer until the client goes away or the fake
    stops. reset: the connection is reset (RST) without an answer. malformed: 200 with an HTML
    body (llm: a completion whose content is chatter, not JSON). wrong_count: one translation
    fewer. drop_placeholder: each translation loses its first `<x id="N"/>` token.
    rename_placeholder: that token becomes `<x id="N+100"/>`. `status`, when set, replaces the
    status of the answer. Raises ValueError for a `times` that is neither -1 nor positive.
    """

    kind: FaultKind
    times: int = 1
    retry_after: float | None = None
    status: int | None = None

    def __post_init__(self) -> None:
        if self.times == 0 or self.times < -1:
            raise ValueError(f"Fault.times must be -1 or positive, not {self.times}")


class HardLimit(msgspec.Struct, frozen=True, kw_only=True):
    """A provider's own limit, enforced on every client together: past it a request is answered
    at once (no latency) with the provider's 429, with `Retry-After: <retry_after>` when set.

    `rps`: at most `rps × window` requests (rounded down, at least one) admitted in any
    sliding `window` seconds. `concurrency`: at most this many admitted requests in flight at
    once. Either may be None (no such limit). Refused requests count toward neither: they
    cost the provider nothing. Raises ValueError for a limit or window that is not positive.
    """

    rps: float | None = None
    window: float = 1.0
    concurrency: int | None = None
    retry_after: float | None = 1.0

    def __post_init__(self) -> None:
        for name in ("rps", "window", "concurrency", "retry_after"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"HardLimit.{name} must be positive, not {value}")

    @property
    def per_window(self) -> int | None:
        """Requests admitted in any `window` seconds at most (None: no rps limit)."""
        if self.rps is None:
            return None
        return max(1, math.floor(self.rps * self.window + 1e-9))


class RecordedRequest(msgspec.Struct, frozen=True):
    """One request as the fake saw it. `path` excludes the query; `texts`, `source` and `target`
    are as sent (empty/None when the request could not be read); header names are lower-cased;
    `started`/`finished` are `time.monotonic()` (`finished` is None while in flight); `status` is
    None when no answer was sent (hang, reset, aborted, fake stopped); `aborted` means the client
    went away before the answer; `fault` is the kind applied; `error` says why the fake refused
    the request (route, shape, credential, batch limit); `body` is the request body as sent (see
    `json`); `limited` names the part of the fake's `HardLimit` that refused it ("rps" or
    "concurrency"), None when it was admitted.
    """

    method: str
    path: str
    texts: list[str]
    source: str | None
    target: str | None
    headers: dict[str, str]
    started: float
    finished: float | None
    status: int | None
    aborted: bool
    fault: str | None
    error: str | None
    body: bytes = b""
    limited: str | None = None

    def json(self) -> Any:
        """The body decoded as JSON (a provider's parameters, such as DeepL's `formality`).

        Raises msgspec.DecodeError for a body that is not JSON.
        """
        return msgspec.json.decode(self.body)


class FakeStats(msgspec.Struct, frozen=True):
    """Counts so far: requests received, texts in them, the most requests in flight at once,
    requests the client abandoned, one batch size per request in arrival order, requests in
    flight now, and requests the hard limit refused.
    """

    requests: int
    texts: int
    max_concurrency: int
    aborted: int
    batch_sizes: list[int]
    in_flight: int
    limited: int = 0


@dataclass
class _ArmedFault:
    fault: Fault
    remaining: int


@dataclass(frozen=True)
class _Plan:
    """How the fake answers one request, decided when it arrives."""

    call: WireCall | None
    reply: HttpReply | None
    fault: Fault | None
    error: str | None
    limited: str | None = None
    """The part of the hard limit that refused the request (answered at once)."""
    admitted: bool = False
    """The request holds a place under the hard limit's concurrency until it departs."""


GATHER_TIMEOUT = 30.0
"""The longest a `FakeProvider(gather=…)` holds an answer for the requests to gather."""


class FakeProvider:
    """A fake of provider `provider_id` ("google", "google-cloud", "deepl", "libre", "azure",
    "llm", "mymemory") serving on 127.0.0.1 at a random port while inside `with`.

    Each request is checked in order: route and shape (refused with 404/400), credential when
    `api_key` is given (the provider's auth error), `batch_limit` (the provider's too-many-texts
    error), `limit` (a `HardLimit` over every client: past it, a 429 at once), then the next
    armed fault applies, else every text is answered with `fake_translation`. Faults are decided
    when a request arrives; `latency` seconds then pass before the answer, and a client that
    disconnects meanwhile is recorded as aborted. With `gather`, the answers of the first
    requests are held until `gather` requests are in flight together (once; at most
    `GATHER_TIMEOUT` seconds), before their latency: a test that a client reaches a concurrency
    then does not depend on how fast the machine runs it. The fake stops on `__exit__`
    (promptly, even with hanging requests) or after `max_lifetime` seconds. Raises ValueError
    for an unknown provider id, a `gather` below 2, or an `api_key` for a provider that takes
    none.
    """

    def __init__(
        self,
        provider_id: str,
        *,
        latency: float = 0.0,
        batch_limit: int | None = None,
        faults: Iterable[Fault] = (),
        api_key: str | None = None,
        limit: HardLimit | None = None,
        max_lifetime: float = 600.0,
        gather: int | None = None,
    ) -> None:
        if gather is not None and gather < 2:
            raise ValueError(f"gather must be 2 or more, not {gather}")
        if provider_id not in WIRE_FORMATS:
            known = ", ".join(WIRE_FORMATS)
            raise ValueError(f"no fake for provider {provider_id!r}; fakes exist for {known}")
        self._wire = WIRE_FORMATS[provider_id]
        if api_key is not None and not self._wire.takes_key:
            raise ValueError(f"provider {provider_id!r} takes no API key")
        self._latency = latency
        self._batch_limit = batch_limit
        self._api_key = api_key
        self._changed = threading.Condition()
        self._faults: deque[_ArmedFault] = deque()
        self._records: list[RecordedRequest] = []
        self._in_flight = 0
        self._max_concurrency = 0
        self._limit = limit
        self._admitted_at: deque[float] = deque()
        self._admitted_in_flight = 0
        self._gather = gather
        self._gathered: trio.Event | None = None
        """Set once `gather` requests were in flight together (made in the server's loop)."""
        for fault in faults:
            self.add_fault(fault)
        self._server = LoopbackServer(
            self._handle, name=f"fake-{provider_id}", max_lifetime=max_lifetime
        )

    def __enter__(self) -> FakeProvider:
        self._server.__enter__()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._server.__exit__(exc_type, exc, traceback)

    @property
    def base_url(self) -> str:
        """`http://127.0.0.1:<port>`, the provider's base URL for clients; RuntimeError before
        `__enter__`."""
        return f"http://127.0.0.1:{self._server.port}"

    @property
    def requests(self) -> list[RecordedRequest]:
        """A snapshot of every request received so far, in arrival order."""
        with self._changed:
            return list(self._records)

    def add_fault(self, fault: Fault) -> None:
        """Arm `fault` after the faults already armed. Thread-safe, at any time."""
        with self._changed:
            self._faults.append(_ArmedFault(fault, fault.times))

    def stats(self) -> FakeStats:
        """Counts of everything received so far."""
        with self._changed:
            sizes = [len(record.texts) for record in self._records]
            return FakeStats(
                requests=len(self._records),
                texts=sum(sizes),
                max_concurrency=self._max_concurrency,
                aborted=sum(record.aborted for record in self._records),
                batch_sizes=sizes,
                in_flight=self._in_flight,
                limited=sum(record.limited is not None for record in self._records),
            )

    def wait_for_requests(self, count: int, timeout: float = 5.0) -> bool:
        """Block until at least `count` requests have arrived; False if `timeout` seconds pass
        first."""
        with self._changed:
            return self._changed.wait_for(lambda: len(self._records) >= count, timeout)

    async def _handle(self, request: HttpRequest, client: Client) -> HttpReply | None:
        started = time.monotonic()
        plan = self._plan(request, started)
        index, together = self._arrive(request, plan, started)
        status: int | None = None
        aborted = False
        try:
            if plan.limited is not None and plan.reply is not None:
                status = plan.reply.status
                return plan.reply
            if self._gather is not None:
                await self._wait_gathered(together)
            if plan.fault is not None and plan.fault.kind == "hang":
                aborted = await client.wait_gone(math.inf)
                return None
            if self._latency > 0 and await client.wait_gone(self._latency):
                aborted = True
                return None
            if plan.reply is not None:
                status = plan.reply.status
            return plan.reply
        finally:
            self._depart(index, status, aborted, plan.admitted)

    async def _wait_gathered(self, together: int) -> None:
        """Hold the request until `gather` requests were in flight together (`together`: how
        many were, this one included, when it arrived), or `GATHER_TIMEOUT` seconds pass."""
        if self._gathered is None:
            self._gathered = trio.Event()
        assert self._gather is not None
        if together >= self._gather:
            self._gathered.set()
        with trio.move_on_after(GATHER_TIMEOUT):
            await self._gathered.wait()

    def _plan(self, request: HttpRequest, now: float) -> _Plan:
        wire = self._wire
        try:
            call = wire.parse(request)
        except WireError as refusal:
            return _Plan(
                None, wire.failure(refusal.failure, refusal.message), None, refusal.message
            )
        if self._api_key is not None and call.credential != self._api_key:
            message = "missing or wrong API key"
            return _Plan(call, wire.failure("auth", message), None, message)
        if self._batch_limit is not None and len(call.texts) > self._batch_limit:
            message = f"too many texts: {len(call.texts)} > {self._batch_limit}"
            return _Plan(call, wire.failure("too_many", message), None, message)
        with self._changed:
            if self._limit is not None and (refused := self._over_limit(self._limit, now)):
                too_busy = _retry_after(wire.failure("rate_limit"), self._limit.retry_after)
                return _Plan(call, too_busy, None, None, limited=refused)
            admitted = self._admit(now)
            fault = self._take_fault()
        translations = [fake_translation(text, call.target) for text in call.texts]
        if fault is None:
            answer = wire.translations(call, translations)
            return _Plan(call, answer, None, None, admitted=admitted)
        return _Plan(
            call, self._fault_reply(call, fault, translations), fault, None, admitted=admitted
        )

    def _over_limit(self, limit: HardLimit, now: float) -> str | None:
        """Which part of `limit` a request arriving `now` is past (None: it may go); call with
        the lock held."""
        while self._admitted_at and self._admitted_at[0] <= now - limit.window:
            self._admitted_at.popleft()
        if limit.concurrency is not None and self._admitted_in_flight >= limit.concurrency:
            return "concurrency"
        per_window = limit.per_window
        if per_window is not None and len(self._admitted_at) >= per_window:
            return "rps"
        return None

    def _admit(self, now: float) -> bool:
        """Count a request under the hard limit (False when there is none); lock held."""
        if self._limit is None:
            return False
        self._admitted_at.append(now)
        self._admitted_in_flight += 1
        return True

    def _take_fault(self) -> Fault | None:
        if not self._faults:
            return None
        armed = self._faults[0]
        if armed.remaining > 0:
            armed.remaining -= 1
            if armed.remaining == 0:
                self._faults.popleft()
        return armed.fault

    def _fault_reply(
        self, call: WireCall, fault: Fault, translations: list[str]
    ) -> HttpReply | None:
        wire = self._wire
        match fault.kind:
            case "hang" | "reset":
                return None
            case "rate_limit":
                reply = _retry_after(wire.failure("rate_limit"), fault.retry_after)
            case "server_error" | "quota" | "auth":
                reply = wire.failure(fault.kind)
            case "malformed":
                reply = wire.malformed(call)
            case "wrong_count":
                reply = wire.translations(call, translations[:-1])
            case "drop_placeholder":
                dropped = [_TOKEN.sub("", text, count=1) for text in translations]
                reply = wire.translations(call, dropped)
            case "rename_placeholder":
                renamed = [_TOKEN.sub(_renumber, text, count=1) for text in translations]
                reply = wire.translations(call, renamed)
        if fault.status is not None:
            reply = msgspec.structs.replace(reply, status=fault.status)
        return reply

    def _arrive(self, request: HttpRequest, plan: _Plan, started: float) -> tuple[int, int]:
        """Record the request: (its index, the requests in flight with it)."""
        call = plan.call
        record = RecordedRequest(
            method=request.method,
            path=request.path,
            texts=call.texts if call is not None else [],
            source=call.source if call is not None else None,
            target=call.target if call is not None else None,
            headers=request.headers,
            started=started,
            finished=None,
            status=None,
            aborted=False,
            fault=plan.fault.kind if plan.fault is not None else None,
            error=plan.error,
            body=request.body,
            limited=plan.limited,
        )
        with self._changed:
            self._records.append(record)
            self._in_flight += 1
            self._max_concurrency = max(self._max_concurrency, self._in_flight)
            self._changed.notify_all()
            return len(self._records) - 1, self._in_flight

    def _depart(self, index: int, status: int | None, aborted: bool, admitted: bool) -> None:
        with self._changed:
            self._records[index] = msgspec.structs.replace(
                self._records[index], finished=time.monotonic(), status=status, aborted=aborted
            )
            self._in_flight -= 1
            if admitted:
                self._admitted_in_flight -= 1
            self._changed.notify_all()


def _retry_after(reply: HttpReply, seconds: float | None) -> HttpReply:
    """`reply` with `Retry-After: <seconds>` (whole seconds as an integer, fractions kept so
    that tests stay fast); unchanged when `seconds` is None."""
    if seconds is None:
        return reply
    value = float(seconds)
    text = str(int(value)) if value.is_integer() else str(value)
    return msgspec.structs.replace(reply, headers=(*reply.headers, ("retry-after", text)))


def _renumber(token: re.Match[str]) -> str:
    return f'<x id="{int(token[1]) + 100}"/>'
