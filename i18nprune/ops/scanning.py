"""The scan step shared by every op that compares code with locales."""

from __future__ import annotations

import trio

from i18nprune.ops.events import EventSink, ProgressEvent
from i18nprune.project import Project
from i18nprune.reference import Evidence
from i18nprune.scan import scan_project


async def scan_code(
    project: Project, kind: str, emit: EventSink, literal_texts: frozenset[str] | None = None
) -> Evidence:
    """Scan the project's source off the event loop, reporting `scan` progress as `kind`.

    `literal_texts` are the locale texts whose quoted occurrences in the code count as
    evidence (the keys an op may remove); see `reference.literal_candidates`.
    """
    event_type = f"run.progress.{kind}"
    emit(ProgressEvent(type=event_type, phase="scan"))

    def report(done: int, total: int) -> None:
        trio.from_thread.run_sync(
            emit, ProgressEvent(type=event_type, phase="scan", done=done, total=total)
        )

    options = project.scan_options(literal_texts)
    result = await trio.to_thread.run_sync(lambda: scan_project(options, on_progress=report))
    return Evidence(result, options.syntax)
