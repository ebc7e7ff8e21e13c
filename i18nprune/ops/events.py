"""Progress events that ops emit while they run, and the sink type hosts listen with."""

from __future__ import annotations

from collections.abc import Callable

import msgspec


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
