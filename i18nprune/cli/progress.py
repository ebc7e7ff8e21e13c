"""A progress bar on stderr for long work, fed by an op's progress events."""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from i18nprune.ops.events import ProgressEvent


class RateColumn(ProgressColumn):
    """Items per second, once rich has enough samples to estimate it."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.0f}/s" if speed else "", style="dim")


class ProgressDisplay:
    """An event sink that draws one bar per (phase, target) while counts arrive.

    Draws nothing unless the console is a terminal; events without counts are ignored.
    """

    def __init__(self, console: Console, enabled: bool) -> None:
        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.completed}/{task.total}"),
            RateColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
            disable=not (enabled and console.is_terminal),
        )
        self._tasks: dict[tuple[str, str | None], TaskID] = {}

    def __enter__(self) -> ProgressDisplay:
        self._progress.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._progress.stop()

    def __call__(self, event: ProgressEvent) -> None:
        if event.total is None or event.done is None:
            return
        key = (event.phase, event.target)
        if key not in self._tasks:
            label = f"{event.phase} {event.target}" if event.target else event.phase
            self._tasks[key] = self._progress.add_task(label, total=event.total)
        self._progress.update(self._tasks[key], completed=event.done, total=event.total)
