"""Progress events that ops emit while they run, and the sink type hosts listen with."""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from i18nprune.ops.engine.offload import on_loop_thread


class ProgressEvent(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """`run.progress.<op>` with a `phase` and the counts that phase knows."""

    type: str
    phase: str
    target: str | None = None
    done: int | None = None
    total: int | None = None
    failed: int | None = None
    cached: int | None = None
    path: str | None = None
    targets: list[str] | None = None


EventSink = Callable[[ProgressEvent], None]


def discard(event: ProgressEvent) -> None:
    """A sink for hosts that do not show progress."""


def from_worker_thread(emit: EventSink) -> EventSink:
    """A sink that code running in `offload.run_blocking` may call: each event is handed to
    `emit` on the event loop's thread (the call waits until it was delivered)."""

    def deliver(event: ProgressEvent) -> None:
        on_loop_thread(emit, event)

    return deliver
