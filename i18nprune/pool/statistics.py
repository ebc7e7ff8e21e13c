"""Translate-pool statistics of one run: per batch how long it waited for a provider slot, how
long its worker took and how much of that was HTTP, the requests in flight over time, retries
and rate-limit pauses (`generate --json` → `data.pool`).
"""

from __future__ import annotations

import math
from typing import Literal

import msgspec

TIMELINE_POINTS = 2000
"""At most this many [seconds, in flight] points are kept (evenly thinned beyond)."""

BatchOutcome = Literal["translated", "failed"]


class Distribution(msgspec.Struct, frozen=True):
    """Milliseconds over the batches of a run: percentiles are nearest-rank."""

    min: float
    p50: float
    p95: float
    p99: float
    max: float
    mean: float


class BatchTiming(msgspec.Struct, frozen=True, rename="camel"):
    """One batch of a run, once it settled (a batch sent again after a failure is one batch
    with several attempts; the times add up over its attempts)."""

    provider: str
    """The provider it was last sent to."""
    target: str
    texts: int
    attempts: int
    queue_wait_ms: float
    """Ready in the front → sent to a worker (waiting for a provider slot, pacing, a pause)."""
    worker_ms: float
    """Sent to a worker → its answer received in the front."""
    http_ms: float
    """Time the worker spent in HTTP requests for it."""
    outcome: BatchOutcome
    """Whether its texts came back translated, or failed for good."""


class InFlightStatistics(msgspec.Struct, frozen=True):
    """Requests in flight (sent to a worker, not answered yet) over the run."""

    limit: int
    """The providers' `maxConcurrency`, summed over the providers the run sent requests to."""
    max: int
    mean: float
    """Time-weighted mean while the pool had work (a batch waiting or in flight)."""
    timeline: list[tuple[float, int]]
    """[seconds since the first batch was submitted, requests in flight] at each change."""


class RunPoolStatistics(msgspec.Struct, frozen=True, rename="camel"):
    """What the worker pool did for one run (`data.pool`); times are relative to the moment the
    run's first batch was submitted."""

    workers: int
    """The pool's size."""
    spawned: int
    """Worker processes started during the run (replacements included)."""
    respawned: int
    """Of those, the ones started to replace a worker that died."""
    batches: int
    """Batches settled (see `batch_timings`)."""
    requests: int
    """HTTP requests the workers made (retries included)."""
    retries: int
    """Attempts after a batch's first, for any cause."""
    rate_limited: int
    """429 answers."""
    rate_limit_pause_seconds: float
    """Total time a provider was paused by Retry-After or backoff after a 429."""
    queue_wait_ms: Distribution
    worker_ms: Distribution
    http_ms: Distribution
    in_flight: InFlightStatistics
    batch_timings: list[BatchTiming]
    """One per settled batch, in the order they settled."""


def distribution(values: list[float]) -> Distribution:
    """min, nearest-rank p50/p95/p99, max and mean of `values` (all zero when empty)."""
    if not values:
        return Distribution(0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    ordered = sorted(values)

    def rank(share: float) -> float:
        return ordered[max(0, math.ceil(share * len(ordered)) - 1)]

    return Distribution(
        min=round(ordered[0], 3),
        p50=round(rank(0.50), 3),
        p95=round(rank(0.95), 3),
        p99=round(rank(0.99), 3),
        max=round(ordered[-1], 3),
        mean=round(sum(ordered) / len(ordered), 3),
    )


class PoolRecorder:
    """Collects the pool statistics of one run from the jobs that run on it.

    Jobs report each batch that starts waiting for a provider slot (`queued`), is sent
    (`sent`), answered or given up (`returned`), and settles (`settled`); rate-limit pauses and
    429s as they happen. Times come from the caller (trio's clock), in seconds.
    """

    def __init__(self) -> None:
        self._origin: float | None = None
        self._waiting = 0
        self._in_flight = 0
        self._timeline: list[tuple[float, int]] = []
        self._busy_since: float | None = None
        self._busy_seconds = 0.0
        self._weighted = 0.0
        self._last_change = 0.0
        self._max = 0
        self._limits: dict[tuple[str, str], int] = {}
        self.requests = 0
        self.retries = 0
        self.rate_limited = 0
        self.pause_seconds = 0.0
        self.timings: list[BatchTiming] = []

    def queued(self, now: float) -> None:
        """A batch is ready and waits for a provider slot."""
        if self._origin is None:
            self._origin = self._last_change = now
            self._timeline.append((0.0, 0))
        self._change(now, waiting=1)

    def sent(self, now: float, provider: tuple[str, str], limit: int, *, retry: bool) -> None:
        """A waiting batch was sent to a worker (`retry`: not its first attempt)."""
        self._limits.setdefault(provider, limit)
        self.retries += retry
        self._change(now, waiting=-1, in_flight=1)

    def unqueued(self, now: float) -> None:
        """A waiting batch stopped waiting without being sent."""
        self._change(now, waiting=-1)

    def returned(self, now: float, requests: int, *, rate_limited: bool) -> None:
        """A batch sent to a worker came back (answered, lost with its worker, or abandoned);
        the worker made `requests` HTTP requests for it."""
        self.requests += requests
        self.rate_limited += rate_limited
        self._change(now, in_flight=-1)

    def paused(self, seconds: float) -> None:
        """A provider was paused for `seconds` more than it already was."""
        self.pause_seconds += seconds

    def settled(self, timing: BatchTiming) -> None:
        """A batch that was sent at least once settled."""
        self.timings.append(timing)

    def statistics(self, workers: int, spawned: int, respawned: int) -> RunPoolStatistics:
        """The run's statistics so far, with the pool's size and its start-ups during the run."""
        busy = self._busy_seconds
        weighted = self._weighted
        if self._busy_since is not None:  # still busy: count up to the last change
            busy += self._last_change - self._busy_since
        timings = self.timings
        return RunPoolStatistics(
            workers=workers,
            spawned=spawned,
            respawned=respawned,
            batches=len(timings),
            requests=self.requests,
            retries=self.retries,
            rate_limited=self.rate_limited,
            rate_limit_pause_seconds=round(self.pause_seconds, 3),
            queue_wait_ms=distribution([timing.queue_wait_ms for timing in timings]),
            worker_ms=distribution([timing.worker_ms for timing in timings]),
            http_ms=distribution([timing.http_ms for timing in timings]),
            in_flight=InFlightStatistics(
                limit=sum(self._limits.values()),
                max=self._max,
                mean=round(weighted / busy, 3) if busy > 0 else 0.0,
                timeline=_thinned(self._timeline),
            ),
            batch_timings=list(timings),
        )

    def _change(self, now: float, *, waiting: int = 0, in_flight: int = 0) -> None:
        origin = self._origin if self._origin is not None else now
        if self._busy_since is not None:
            self._weighted += self._in_flight * (now - self._last_change)
        self._last_change = now
        was_busy = self._waiting + self._in_flight > 0
        self._waiting += waiting
        self._in_flight += in_flight
        busy = self._waiting + self._in_flight > 0
        if busy and not was_busy:
            self._busy_since = now
        elif was_busy and not busy and self._busy_since is not None:
            self._busy_seconds += now - self._busy_since
            self._busy_since = None
        if in_flight:
            self._max = max(self._max, self._in_flight)
            self._timeline.append((round(now - origin, 6), self._in_flight))


def _thinned(points: list[tuple[float, int]]) -> list[tuple[float, int]]:
    """At most TIMELINE_POINTS of `points`, evenly spaced, the last one kept."""
    if len(points) <= TIMELINE_POINTS:
        return list(points)
    step = math.ceil(len(points) / (TIMELINE_POINTS - 1))
    thinned = points[::step]
    if thinned[-1] != points[-1]:
        thinned.append(points[-1])
    return thinned
