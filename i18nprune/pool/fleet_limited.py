"""A `Requester` whose requests hold the fleet's rate limit (`fleet.limits`, in Redis) as well
as this process's own: used only when the run shares a memory with a fleet.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Awaitable, Callable
from functools import partial

import trio

from i18nprune.fleet.connection import FleetUnavailable
from i18nprune.fleet.limits import Endpoint, FleetLimits, endpoint_key
from i18nprune.pool.job import BatchLost, Requester
from i18nprune.pool.messages import Failure, ProviderSettings, Result, TextNote
from i18nprune.pool.pool import WorkerPool
from i18nprune.pool.scheduler import ProviderHealth

RELEASE_WAIT_SECONDS = 1.0
"""How long a settled request waits for its lease to be given back before leaving that to a
thread (and, should the server not answer, to the lease's expiry)."""


class FleetLimitedRequester:
    """A `Requester` that takes an admission from the fleet's limit (`limits`) before each
    request of `inner` (the worker pool, whose own gate still applies) and gives it back when
    the request settles, is cancelled or fails.

    A pause (a 429 answer) pauses `inner` at once and every member of the fleet: a 429's
    `Retry-After` as its lease is given back, any other pause with this member's next
    admission to the endpoint. Admissions to one endpoint are asked for one at a time, in the
    order requests arrive.

    Once the server is lost (`limits.lost`), that request and every later one end as `BatchLost`
    naming the failure, without asking Redis again; requests already sent finish and their
    answers are returned.
    """

    def __init__(self, inner: Requester, limits: FleetLimits) -> None:
        self.limits = limits
        self._inner = inner
        self._endpoints: dict[tuple[str, str, str | None], Endpoint] = {}
        self._turns: dict[str, trio.Lock] = {}
        self._pauses: dict[str, float] = {}
        """Endpoint key → when (trio's clock) a pause this member owes the fleet ends."""

    async def request(
        self,
        settings: ProviderSettings,
        source: str,
        target: str,
        texts: list[str],
        admit: Callable[[], bool],
        notes: list[TextNote | None] | None = None,
    ) -> Result | Failure | BatchLost | None:
        """`inner`'s answer to the request, sent once the fleet admits it; `BatchLost` when
        Redis failed (now or before).

        Cancellation while waiting for admission leaves no lease behind; once admitted, the
        lease is given back (shielded) whatever ends the request.
        """
        endpoint = self._endpoint(settings)
        held: list[str] = []
        reply: Result | Failure | BatchLost | None = None
        if isinstance(self._inner, WorkerPool):
            # An admitted request should start at once: requests admitted while the workers
            # still start would wait for them and then leave together, past the fleet's pace.
            await self._inner.wait_for_worker()
        try:
            try:
                await self._admit(endpoint, sum(map(len, texts)), held)
            except FleetUnavailable as failure:
                return BatchLost(str(failure))
            send = partial(self._inner.request, settings, source, target, texts, admit, notes)
            reply = await self._renewing(endpoint, held[0], send)
            return reply
        finally:
            if held:
                await self._release(endpoint, held[0], _retry_after(reply))

    def pause(self, settings: ProviderSettings, seconds: float) -> float:
        """Pause the endpoint of `settings` for `seconds` in `inner` now, and for the fleet
        from this member's next admission to it; returns by how much that lengthened `inner`'s
        pause."""
        key = self._endpoint(settings).key
        until = trio.current_time() + seconds
        self._pauses[key] = max(self._pauses.get(key, -math.inf), until)
        return self._inner.pause(settings, seconds)

    def health(self, settings: ProviderSettings) -> ProviderHealth:
        """`inner`'s view of whether the endpoint of `settings` still answers."""
        return self._inner.health(settings)

    def _endpoint(self, settings: ProviderSettings) -> Endpoint:
        """The fleet's limit of the endpoint `settings` calls, with the limits of the settings
        that first reached it (as the pool's gates)."""
        identity = (settings.id, settings.base_url, settings.api_key)
        endpoint = self._endpoints.get(identity)
        if endpoint is None:
            endpoint = self._endpoints[identity] = Endpoint(
                key=endpoint_key(*identity),
                max_concurrency=settings.max_concurrency,
                rps=settings.rps,
                rpm=settings.rpm,
                chars_per_minute=settings.chars_per_minute,
                lease_seconds=self.limits.lease_seconds,
            )
        return endpoint

    async def _admit(self, endpoint: Endpoint, chars: int, held: list[str]) -> None:
        """Wait until the fleet admits a request of `chars` characters to `endpoint`, and put
        its lease in `held` (nothing is held when this raises). Raises FleetUnavailable."""
        turn = self._turns.setdefault(endpoint.key, trio.Lock())
        async with turn:
            while True:
                if self.limits.lost is not None:
                    raise FleetUnavailable(str(self.limits.lost))
                owed = self._pauses.get(endpoint.key, -math.inf)
                pause = max(0.0, owed - trio.current_time())
                # Not abandoned on cancel: a lease granted meanwhile must reach `held`.
                admission = await trio.to_thread.run_sync(self.limits.admit, endpoint, chars, pause)
                if self._pauses.get(endpoint.key) == owed:
                    del self._pauses[endpoint.key]  # pushed (a longer one may have come since)
                if admission.lease is not None:
                    held.append(admission.lease)
                    return
                await trio.sleep(admission.wait)

    async def _renewing(
        self,
        endpoint: Endpoint,
        lease: str,
        send: Callable[[], Awaitable[Result | Failure | BatchLost | None]],
    ) -> Result | Failure | BatchLost | None:
        """`send()`'s answer, `lease` kept from expiring meanwhile."""
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._renew, endpoint, lease)
                reply = await send()
                nursery.cancel_scope.cancel()
        except BaseExceptionGroup as group:
            # The nursery wraps what `send` raised; give it back as raised.
            if len(group.exceptions) == 1:
                raise group.exceptions[0] from None
            raise
        return reply

    async def _renew(self, endpoint: Endpoint, lease: str) -> None:
        """Keep `lease` from expiring while its request runs (a lost server ends this)."""
        while True:
            await trio.sleep(endpoint.lease_seconds / 3)
            try:
                await trio.to_thread.run_sync(self.limits.renew, endpoint, lease)
            except FleetUnavailable:
                return  # kept in `limits.lost`; the request finishes

    async def _release(self, endpoint: Endpoint, lease: str, pause: float) -> None:
        """Give `lease` back, extending the fleet's pause to `pause` seconds at once."""
        if self.limits.lost is not None:
            return  # the lease expires by itself
        # A failure is kept in `limits.lost`; the request's answer is returned all the same.
        with (
            trio.CancelScope(shield=True, relative_deadline=RELEASE_WAIT_SECONDS),
            contextlib.suppress(FleetUnavailable),
        ):
            await trio.to_thread.run_sync(
                self.limits.release, endpoint, lease, pause, abandon_on_cancel=True
            )


def _retry_after(reply: Result | Failure | BatchLost | None) -> float:
    """The seconds a 429 answer asks every client to wait (0: none)."""
    if isinstance(reply, Failure) and reply.kind == "rate_limited" and reply.retry_after:
        return reply.retry_after
    return 0.0
