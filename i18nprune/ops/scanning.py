"""The scan step shared by every op that compares code with locales, and where it scans from:
`scan_project` itself, unless the host lends a scanner (a long-lived `serve` keeps an index)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import msgspec
import trio

from i18nprune.ops.events import EventSink, ProgressEvent
from i18nprune.project import Project
from i18nprune.reference import Evidence
from i18nprune.scan import ScanOptions, ScanResult, scan_project

Scanner = Callable[[ScanOptions, Callable[[int, int], None] | None], ScanResult]
"""Scans as `scan_project(options, on_progress)` does, with the same result; called in a thread."""

_scanner: ContextVar[Scanner | None] = ContextVar("i18nprune_scanner", default=None)


@contextmanager
def scanning_with(scanner: Scanner) -> Iterator[None]:
    """Within the block, and in the tasks started from it, `scan_code` scans with `scanner`."""
    token = _scanner.set(scanner)
    try:
        yield
    finally:
        _scanner.reset(token)


async def scan_code(
    project: Project,
    kind: str,
    emit: EventSink,
    literal_texts: frozenset[str] | None = None,
    *,
    overlay: dict[str, bytes] | None = None,
) -> Evidence:
    """Scan the project's source off the event loop, reporting `scan` progress as `kind`.

    `literal_texts` are the locale texts whose quoted occurrences in the code count as
    evidence (the keys an op may remove); see `reference.literal_candidates`. `overlay` maps
    files to content scanned in place of the disk's (unsaved buffers; see `ScanOptions`).
    """
    event_type = f"run.progress.{kind}"
    emit(ProgressEvent(type=event_type, phase="scan"))

    def report(done: int, total: int) -> None:
        trio.from_thread.run_sync(
            emit, ProgressEvent(type=event_type, phase="scan", done=done, total=total)
        )

    options = project.scan_options(literal_texts)
    if overlay:
        options = msgspec.structs.replace(options, overlay=overlay)
    scanner = _scanner.get()
    if scanner is None:
        # A command's own scan: its thread parses beside the workers (one process fewer). A host
        # that lends a scanner decides for itself (a server's loop must not wait for the GIL).
        options = msgspec.structs.replace(options, examine_here=True)
        scanner = scan_project
    result = await trio.to_thread.run_sync(scanner, options, report)
    return Evidence(result, options.syntax)
