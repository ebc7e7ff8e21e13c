"""The `$/progress` relay: an op's progress events become notification lines, coalesced so a
burst never floods the pipe, and never written after the request's response
(docs/serve.md#10-progress).
"""

from __future__ import annotations

from collections.abc import Callable

import trio

from i18nprune.ops.engine.events import ProgressEvent
from i18nprune.serve.protocol import progress_line

PROGRESS_INTERVAL_SECONDS = 0.05
"""At most one progress line per request per interval (plus the first, the last, and the last
of each phase)."""


class ProgressRelay:
    """Relays the progress events of one request as `$/progress` lines.

    The first event goes out at once; within an interval only the latest event is kept and
    sent when the interval ends — except that an event of another phase first sends the one
    held back, so every phase's last state reaches the host even in a run shorter than an
    interval (the `translate` counts of a run the cache settled at once); `close()` sends the
    one still held back (the last) and stops the relay, so a host that closes it before
    answering never writes progress after the response. Events must be emitted from the trio
    thread (ops do, even from their threads, through `trio.from_thread`).
    """

    def __init__(
        self,
        request_id: bytes,
        send: Callable[[bytes], None],
        nursery: trio.Nursery,
        interval: float = PROGRESS_INTERVAL_SECONDS,
    ) -> None:
        self._request_id = request_id
        self._send = send
        self._nursery = nursery
        self._interval = interval
        self._next_send = -float("inf")
        self._held: ProgressEvent | None = None
        self._timer_running = False
        self._closed = False

    def emit(self, event: ProgressEvent) -> None:
        """An `EventSink`: send `event` now, or hold it until the interval ends."""
        if self._closed:
            return
        if trio.current_time() >= self._next_send:
            self._write(event)
            return
        if self._held is not None and self._held.phase != event.phase:
            self._write(self._held)
        self._held = event
        if not self._timer_running:
            self._timer_running = True
            self._nursery.start_soon(self._send_held_later)

    def close(self) -> None:
        """Send the event still held back, if any; after this the relay sends nothing."""
        if self._closed:
            return
        if self._held is not None:
            self._write(self._held)
        self._closed = True

    async def _send_held_later(self) -> None:
        try:
            await trio.sleep_until(self._next_send)
        finally:
            self._timer_running = False
        if not self._closed and self._held is not None:
            self._write(self._held)

    def _write(self, event: ProgressEvent) -> None:
        self._held = None
        self._next_send = trio.current_time() + self._interval
        self._send(progress_line(self._request_id, event))
