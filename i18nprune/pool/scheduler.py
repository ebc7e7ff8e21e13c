"""Per-provider state shared by every job of a pool: the rate limits (requests in flight, pacing
of request starts, a pause everyone honours after a 429), the backoff delays between attempts,
and whether the provider still answers at all.
"""

from __future__ import annotations

import math
import random

import trio

from i18nprune.pool.messages import ProviderSettings

BACKOFF_BASE_SECONDS = 0.25
BACKOFF_CAP_SECONDS = 10.0


def backoff_delay(failed_attempts: int) -> float:
    """Seconds to wait after the `failed_attempts`-th failure (1, 2, …) of a batch.

    Exponential with full jitter: uniform in [0, min(10, 0.25 · 2^(n-1))], so clients that failed
    together do not retry together.
    """
    ceiling = min(BACKOFF_CAP_SECONDS, BACKOFF_BASE_SECONDS * 2 ** max(0, failed_attempts - 1))
    return random.uniform(0.0, ceiling)


class ProviderGate:
    """The admission of requests to one provider endpoint.

    At most `max_concurrency` requests hold the gate at once, request starts are spaced by
    `max(1/rps, 60/rpm)` seconds (an even pace rather than bursts, so it never exceeds either
    limit), characters are paced likewise (the request after a batch of `n` characters starts
    `n · 60/chars_per_minute` seconds after it at the earliest), and none starts while the gate
    is paused.
    """

    def __init__(
        self,
        max_concurrency: int,
        rps: float | None,
        rpm: float | None,
        chars_per_minute: float | None = None,
    ) -> None:
        self._slots = trio.Semaphore(max(1, max_concurrency))
        intervals = [1.0 / rps if rps else 0.0, 60.0 / rpm if rpm else 0.0]
        self._interval = max(intervals)
        self._seconds_per_char = 60.0 / chars_per_minute if chars_per_minute else 0.0
        self._next_start = -math.inf
        self._paused_until = -math.inf

    async def acquire(self, chars: int = 0) -> None:
        """Wait for a free slot, then for the pace and any pause; the caller may then start one
        request carrying `chars` characters of text and must `release` afterwards.

        A request is never refused for its size: one larger than a minute's worth of characters
        starts when those before it are paid for, and the next waits for its own.
        Cancellation gives back whatever was taken (nothing is held when this raises).
        """
        await self._slots.acquire()
        try:
            while True:
                # A slot handed over just as the caller was cancelled must not start a request.
                await trio.lowlevel.checkpoint_if_cancelled()
                now = trio.current_time()
                start = max(self._paused_until, self._next_start)
                if start <= now:
                    break
                # Re-checked after waking: a pause may have begun (or been extended) meanwhile.
                await trio.sleep_until(start)
        except BaseException:
            self._slots.release()
            raise
        self._next_start = now + max(self._interval, chars * self._seconds_per_char)

    def release(self) -> None:
        """Give back the slot taken by `acquire` (the request settled)."""
        self._slots.release()

    def pause(self, seconds: float) -> float:
        """No request may start in the next `seconds` (a pause already longer stays); returns
        by how many seconds that lengthened the pause."""
        now = trio.current_time()
        until = now + seconds
        lengthened = max(0.0, until - max(self._paused_until, now))
        self._paused_until = max(self._paused_until, until)
        return lengthened


class ProviderHealth:
    """Whether one provider endpoint still answers: when it last answered successfully, and its
    last failure since (shared by every job that uses the endpoint)."""

    def __init__(self) -> None:
        self._last_success = -math.inf
        self._last_failure: str | None = None
        self._changed = trio.Event()

    def succeeded(self) -> None:
        """A request succeeded: the provider answers."""
        self._last_success = trio.current_time()
        if self._last_failure is not None:
            # Without a failure, a waiter waits for the next one, which a success does not
            # bring nearer: only clearing one is news (waking it for every answer was a task
            # switch per reply).
            self._last_failure = None
            self._notify()

    def failed(self, reason: str) -> None:
        """A request failed for `reason` ("<kind>: <provider>: <message>")."""
        self._last_failure = reason
        self._notify()

    def hopeless(self, seconds: float, since: float) -> str | None:
        """The last failure when the provider has failed and not succeeded for `seconds`,
        counted from `since` (a job's start) or its last success if later; else None."""
        if self._last_failure is None:
            return None
        if trio.current_time() < max(self._last_success, since) + seconds:
            return None
        return self._last_failure

    async def wait_hopeless(self, seconds: float, since: float) -> str:
        """Wait until `hopeless(seconds, since)` and return the last failure.

        Only a failure makes a provider hopeless: requests that are merely slow never do (each
        is bounded by its own timeout, which then counts as a failure).
        """
        while True:
            reason = self.hopeless(seconds, since)
            if reason is not None:
                return reason
            changed = self._changed
            if self._last_failure is None:
                await changed.wait()
            else:
                with trio.move_on_at(max(self._last_success, since) + seconds):
                    await changed.wait()

    def _notify(self) -> None:
        self._changed.set()
        self._changed = trio.Event()


class ProviderGates:
    """One gate and one health record per provider endpoint, keyed by (id, base URL): jobs that
    reach the same endpoint share its limits; the limits are those of the settings that first
    reached it."""

    def __init__(self) -> None:
        self._gates: dict[tuple[str, str], ProviderGate] = {}
        self._health: dict[tuple[str, str], ProviderHealth] = {}

    def gate(self, settings: ProviderSettings) -> ProviderGate:
        """The gate of the endpoint `settings` calls."""
        key = (settings.id, settings.base_url)
        gate = self._gates.get(key)
        if gate is None:
            gate = ProviderGate(
                settings.max_concurrency, settings.rps, settings.rpm, settings.chars_per_minute
            )
            self._gates[key] = gate
        return gate

    def health(self, settings: ProviderSettings) -> ProviderHealth:
        """The health record of the endpoint `settings` calls."""
        key = (settings.id, settings.base_url)
        health = self._health.get(key)
        if health is None:
            health = self._health[key] = ProviderHealth()
        return health
