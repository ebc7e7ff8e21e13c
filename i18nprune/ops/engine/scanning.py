"""The scan step shared by every op that compares code with locales, and where it scans from:
`scan_project` itself, unless the host lends a scanner (a long-lived `serve` keeps an index) —
and results an op derives from the files, kept by such a host while none of them changes."""

from __future__ import annotations

import os
import time
from collections.abc import Awaitable, Callable, Collection, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Protocol, TypeVar, cast

import msgspec

from i18nprune.envelope import Envelope
from i18nprune.ops.engine.events import EventSink, ProgressEvent
from i18nprune.ops.engine.offload import on_loop_thread, run_blocking
from i18nprune.project import Project, ProjectHandle
from i18nprune.reference import Evidence
from i18nprune.scan import ScanOptions, ScanResult, scan_project
from i18nprune.scan.project_scan import BufferSites

T = TypeVar("T")
Scanner = Callable[[ScanOptions, Callable[[int, int], None] | None], ScanResult]
"""Scans as `scan_project(options, on_progress)` does, with the same result; called in a thread."""


class Snapshots(Protocol):
    """Results derived from a root's files, kept while none of them changes (`serve`'s scan
    index). Both methods may wait for a scan of the root in progress: call them in a thread."""

    def recall(self, root: Path, key: Hashable) -> tuple[int | None, object | None]:
        """(the state of the files under `root` now, or None when it is not watched; what was
        remembered under `key` for that state, or None)."""
        ...

    def remember(
        self,
        root: Path,
        generation: int,
        key: Hashable,
        value: object,
        reads: Collection[str | os.PathLike[str]],
    ) -> None:
        """Keep `value`, computed from the files at state `generation`, under `key` (unless
        something changed since, or one of `reads` lies where changes are not seen)."""
        ...


BufferReader = Callable[[ScanOptions, str, bytes], BufferSites]
"""Reads one file's unsaved content against the project as last scanned, as
`ScanIndex.read_buffer` does (the cost of that file); called in a thread."""

_scanner: ContextVar[Scanner | None] = ContextVar("i18nprune_scanner", default=None)
_buffers: ContextVar[BufferReader | None] = ContextVar("i18nprune_buffers", default=None)
_snapshots: ContextVar[Snapshots | None] = ContextVar("i18nprune_snapshots", default=None)
_shared_scans: ContextVar[list[tuple[ScanOptions, ScanResult]] | None] = ContextVar(
    "i18nprune_shared_scans", default=None
)


@contextmanager
def scanning_with(
    scanner: Scanner, snapshots: Snapshots | None = None, buffers: BufferReader | None = None
) -> Iterator[None]:
    """Within the block, and in the tasks started from it, `scan_code` scans with `scanner`,
    `remembered_run` keeps envelopes in `snapshots` and `scan_buffer` reads with `buffers`
    (when given)."""
    scanner_token = _scanner.set(scanner)
    snapshots_token = _snapshots.set(snapshots)
    buffers_token = _buffers.set(buffers)
    try:
        yield
    finally:
        _buffers.reset(buffers_token)
        _snapshots.reset(snapshots_token)
        _scanner.reset(scanner_token)


@contextmanager
def one_scan_per_options() -> Iterator[None]:
    """Within the block, `scan_code` scans once for each set of scan options and hands the
    same result to every op that asks with equal options: for ops run one after another on
    files nothing writes meanwhile (`report` reads through five ops, three of which scan)."""
    token = _shared_scans.set([])
    try:
        yield
    finally:
        _shared_scans.reset(token)


async def remembered_run(
    handle: ProjectHandle,
    kind: str,
    options: Hashable,
    emit: EventSink,
    run: Callable[[], Awaitable[tuple[Envelope, Project]]],
) -> Envelope:
    """`run()`'s envelope, or, when the host keeps snapshots and no file under the project's
    root changed since an earlier run of op `kind` with equal `options` and request, that
    run's envelope (a `scan` and a `done` progress event are emitted for it, and its duration
    is this call's).

    `run` returns its envelope and the project it read: an envelope computed from a locale
    file the host cannot watch (see `project_reads`) is not kept. Without a host that keeps
    snapshots (the CLI), or for a request that names no root, this is `run()`.
    """
    started = time.perf_counter()
    snapshots = _snapshots.get()
    root = handle.request.project
    if snapshots is None or root is None:
        return (await run())[0]
    key = (kind, options, handle.request)
    generation, kept = await run_blocking(snapshots.recall, root, key)
    if isinstance(kept, Envelope):
        for phase in ("scan", "done"):
            emit(ProgressEvent(type=f"run.progress.{kind}", phase=phase))
        duration = round((time.perf_counter() - started) * 1000)
        meta = msgspec.structs.replace(kept.meta, duration_ms=duration)
        return Envelope(ok=kept.ok, kind=kept.kind, data=kept.data, issues=kept.issues, meta=meta)
    envelope, project = await run()
    if generation is not None:

        def remember() -> None:
            snapshots.remember(root, generation, key, envelope, project_reads(project))

        await run_blocking(remember)
    return envelope


def remembered_value(
    project: Project, key: Hashable, compute: Callable[[], T], request: Hashable = None
) -> T:
    """`compute()` — a value derived from the project's configuration and locale files — or,
    when the host keeps snapshots and no file under the project's root changed since an
    earlier call with equal `key` (and `request`, the ProjectRequest the project was opened
    with), that call's value. Blocks: call it in a worker thread (the host's snapshots are
    those of the task that started the thread). A value computed from a locale file the host
    cannot watch is not kept (see `project_reads`); without a host (the CLI) this is
    `compute()`."""
    snapshots = _snapshots.get()
    if snapshots is None:
        return compute()
    full_key = (key, request)
    generation, kept = snapshots.recall(project.root, full_key)
    if kept is not None:
        return cast("T", kept)
    value = compute()
    if generation is not None:
        snapshots.remember(project.root, generation, full_key, value, project_reads(project))
    return value


def project_reads(project: Project) -> list[Path]:
    """What an op that reads the project's configuration and locales depends on besides its
    sources: the root, the locales folder and every locale file in it."""
    inventory, _ = project.inventory()
    segments = [segment.path for found in inventory.segments.values() for segment in found]
    return [project.root, project.locales_dir, *segments]


async def scan_code(
    project: Project,
    kind: str,
    emit: EventSink,
    literal_texts: dict[int, str] | None = None,
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
        on_loop_thread(emit, ProgressEvent(type=event_type, phase="scan", done=done, total=total))

    options = project.scan_options(literal_texts)
    if overlay:
        options = msgspec.structs.replace(options, overlay=overlay)
    shared = _shared_scans.get()
    result = next((kept for asked, kept in shared or () if asked == options), None)
    if result is None:
        result = await _scan(options, report, literal_texts)
        if shared is not None:
            shared.append((options, result))
    return Evidence(result, options.syntax, project.source_locale())


async def _scan(
    options: ScanOptions, report: Callable[[int, int], None], literal_texts: dict[int, str] | None
) -> ScanResult:
    """One scan with `options`, by the host's scanner or `scan_project`, with the repository's
    evidence outside the root when literal texts are asked for."""
    scanner = _scanner.get()
    if scanner is None:
        # A command's own scan: its thread parses beside the workers (one process fewer). A host
        # that lends a scanner decides for itself (a server's loop must not wait for the GIL).
        options = msgspec.structs.replace(options, examine_here=True)
        scanner = scan_project
    result = await run_blocking(scanner, options, report)
    if options.repository is not None and literal_texts:
        result = await run_blocking(with_outside_evidence, result, options)
    return result


async def scan_buffer(
    project: Project, kind: str, emit: EventSink, relpath: str, content: bytes
) -> Evidence:
    """The project's evidence with `relpath`'s sites as if it held `content` (an unsaved
    buffer): only that file's sites, issues and dynamic sites are in it. A host that lends a
    buffer reader (`serve`'s index) reads the one file against its kept scan; otherwise the
    project is scanned with the buffer in place of the file."""
    reader = _buffers.get()
    if reader is None:
        evidence = await scan_code(project, kind, emit, overlay={relpath: content})
        scan = evidence.scan
        return Evidence(
            msgspec.structs.replace(
                scan,
                observations=[o for o in scan.observations if o.file == relpath],
                dynamic=[d for d in scan.dynamic if d.file == relpath],
                issues=[issue for issue in scan.issues if issue.path in (relpath, None)],
            ),
            evidence.syntax,
            evidence.source_locale,
        )
    evidence = await scan_code(project, kind, emit)
    sites = await run_blocking(reader, project.scan_options(), relpath, content)
    scan = msgspec.structs.replace(
        evidence.scan, observations=sites.observations, dynamic=sites.dynamic, issues=sites.issues
    )
    return Evidence(scan, evidence.syntax, evidence.source_locale)


def with_outside_evidence(result: ScanResult, options: ScanOptions) -> ScanResult:
    """`result` with what the repository's files outside the project root say (the scan reads
    the part inside): read here after every scan, because a host that keeps scans while
    nothing under the root changes (`serve`) does not see changes outside it."""
    assert options.repository is not None and options.literal_texts is not None
    from i18nprune.scan.repository import read_repository

    outside = read_repository(
        options.repository,
        options.literal_texts,
        options.root,
        inside=False,
        writable=options.cache_writable,
    )
    if not (outside.literals or outside.foreign or outside.issues):
        return result
    return msgspec.structs.replace(
        result,
        literals=sorted([*result.literals, *outside.literals]),
        foreign=sorted(
            [*result.foreign, *outside.foreign], key=lambda site: (site.file, site.line)
        ),
        issues=[*result.issues, *outside.issues],
    )
