"""A progress bar on stderr for long work, fed by an op's progress events; without a terminal
(CI logs), a plain line every few seconds instead."""

from __future__ import annotations

import time
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING

from i18nprune.cli.output import rich_console
from i18nprune.ops.engine.events import ProgressEvent

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, TaskID


def _bars(console: Console) -> Progress:
    """The bars of a terminal. rich's progress modules are imported here: a run without a
    terminal (CI, `--json` piped to a file, a host) does not pay for them at start-up."""
    from rich.progress import (
        BarColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class RateColumn(ProgressColumn):
        """Items per second, once rich has enough samples to estimate it."""

        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            return Text(f"{speed:,.0f}/s" if speed else "", style="dim")

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        RateColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )


# What the count of each phase counts, where that is not obvious.
_UNITS = {"translate": "texts", "scan": "files"}
# Without a terminal, a progress line at most this often (and none for a shorter run).
LINE_INTERVAL_S = 5.0


class ProgressDisplay:
    """An event sink that draws one bar per (phase, target) while counts arrive.

    On a terminal, bars; otherwise one plain line `translate fr: 1,200/20,000 texts (6%)` at
    most every `interval` seconds (so a long run in CI shows it is alive and a short one
    prints nothing). Events without counts are ignored. `clock` is for tests.
    """

    def __init__(
        self,
        console: Console,
        enabled: bool,
        *,
        interval: float = LINE_INTERVAL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._console = console
        self._lines = enabled and not console.is_terminal
        self._interval = interval
        self._clock = clock
        self._last_line = clock()
        self._progress: Progress | None = (
            _bars(rich_console(console)) if enabled and console.is_terminal else None
        )
        self._tasks: dict[tuple[str, str | None], TaskID] = {}

    def __enter__(self) -> ProgressDisplay:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._progress is not None:
            self._progress.stop()

    def __call__(self, event: ProgressEvent) -> None:
        # `done` ends a run: a bar of it would flash `done 0/1` just before the result.
        if event.total is None or event.done is None or event.phase == "done":
            return
        label = f"{event.phase} {event.target}" if event.target else event.phase
        # Texts the cache settled are no work (a rate of them would be the cache's, absurdly
        # high), and a text that failed is settled, not progress: the bar counts neither.
        failed, cached = event.failed or 0, event.cached or 0
        done, total = event.done - failed - cached, event.total - cached
        notes = _notes(event.phase, cached, failed)
        if self._lines:
            self._line(label, done, total, notes)
            return
        if self._progress is None:
            return
        key = (event.phase, event.target)
        description = f"{label} ({', '.join(notes)})" if notes else label
        if key not in self._tasks:
            self._tasks[key] = self._progress.add_task(description, total=total, completed=done)
        self._progress.update(
            self._tasks[key], completed=done, total=total, description=description
        )

    def _line(self, label: str, done: int, total: int, notes: list[str]) -> None:
        now = self._clock()
        if now - self._last_line < self._interval:
            return
        self._last_line = now
        words = [f"{label}: {done:,}/{total:,}", *notes[:1]]
        if total:
            words.append(f"({done * 100 // total}%)")
        if notes[1:]:
            words.append(", ".join(notes[1:]))
        self._console.print(" ".join(words))


def _notes(phase: str, cached: int, failed: int) -> list[str]:
    """What a bar's label says after the phase: its unit, then the texts the cache settled and
    those that failed (outside the bar's count); empty when there is nothing to say."""
    notes = [_UNITS.get(phase, "texts" if cached or failed else "")]
    if cached:
        notes.append(f"{cached:,} cached")
    if failed:
        notes.append(f"{failed:,} failed")
    return notes if notes[0] else []
