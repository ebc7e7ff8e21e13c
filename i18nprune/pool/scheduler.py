"""Per-provider rate limits shared by every job of a pool: requests in flight, pacing of request
starts, a pause everyone honours after a 429, and the backoff delays between attempts.
"""

from __future__ import annotations

import math
import random

import trio

from i18nprune.translate.providers import ProviderSettings

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
    limit), and none starts while the gate is paused.
    """

    def __init__(self, max_concurrency: int, rps: float | None, rpm: float | None) -> None:
        self._slots = trio.Semaphore(max(1, max_concurrency))
        intervals = [1.0 / rps if rps else 0.0, 60.0 / rpm if rpm else 0.0]
        self._interval = max(intervals)
        self._next_start = -math.inf
        self._paused_until = -math.inf

    async def acquire(self) -> None:
        """Wait for a free slot, then for the pace and any pause; the caller may then start one
        request and must `release` afterwards.

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
        self._next_start = now + self._interval

    def release(self) -> None:
        """Give back the slot taken by `acquire` (the request settled)."""
        self._slots.release()

    def pause(self, seconds: float) -> None:
        """No request may start in the next `seconds` (a pause already longer stays)."""
        self._paused_until = max(self._paused_until, trio.current_time() + seconds)


class ProviderGates:
    """One gate per provider endpoint, keyed by (id, base URL): jobs that reach the same endpoint
    share its limits; the limits are those of the settings that first reached it."""

    def __init__(self) -> None:
        self._gates: dict[tuple[str, str], ProviderGate] = {}

    def gate(self, settings: ProviderSettings) -> ProviderGate:
        """The gate of the endpoint `settings` calls."""
        key = (settings.id, settings.base_url)
        gate = self._gates.get(key)
        if gate is None:
            gate = ProviderGate(settings.max_concurrency, settings.rps, settings.rpm)
            self._gates[key] = gate
        return gate
