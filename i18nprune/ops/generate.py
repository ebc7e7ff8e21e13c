"""`generate`: machine-translate the template into target locales (PRODUCT §6).

A run reads the locales and, when it will likely need workers, starts the worker pool before it
scans the code; it then plans each target, prepares (masks placeholders, consults the cache),
and translates, placing each leaf into its target's editor (in memory) as its translation
settles; once every translation has settled, it places the rest and writes the files.
"""

from __future__ import annotations

import contextlib
import math
import shlex
import threading
import time
from collections.abc import Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import Annotated, Literal, TypeVar

import msgspec
import trio

from i18nprune.envelope import (
    Code,
    Envelope,
    Issue,
    ProblemError,
    error,
    has_errors,
    make_envelope,
    warning,
)
from i18nprune.locales.editor import LocaleEditor
from i18nprune.locales.jsondoc import JsonStyle
from i18nprune.locales.leaves import NEEDS_REVIEW, is_message_object
from i18nprune.locales.view import LocaleView
from i18nprune.ops.engine.events import EventSink, ProgressEvent
from i18nprune.ops.engine.scanning import scan_code
from i18nprune.ops.shared.targets import Target, select_targets
from i18nprune.ops.sync import SourceFiles, array_gap_warning
from i18nprune.placeholders import ProtectedText, protect_placeholders
from i18nprune.pool import ProviderAttempt, WorkerPool
from i18nprune.pool.job import Requester
from i18nprune.pool.lease import lease_pool
from i18nprune.pool.messages import ProviderSettings, TextNote
from i18nprune.pool.pool import PoolStatistics, worker_ceiling
from i18nprune.pool.statistics import PoolRecorder, RunPoolStatistics
from i18nprune.pool.switching import responsive_loop
from i18nprune.project import Project, ProjectHandle
from i18nprune.reference import Evidence, source_gate
from i18nprune.template import build_templates
from i18nprune.translate.cache import TranslationCache
from i18nprune.translate.descriptions import Descriptions, key_descriptions
from i18nprune.translate.glossary import Glossary, load_glossary
from i18nprune.translate.local import LocalRequester, providers_in_use, runs_locally
from i18nprune.translate.lock import (
    LOCK_FILE,
    PENDING_FILE,
    Lock,
    LockFileError,
    TargetEntries,
    entry_for,
    lock_key,
    read_lock,
    read_pending,
    record_pending,
    recover_entries,
    review_accepted,
    settle_pending,
    split_lock_key,
    update_lock,
)
from i18nprune.translate.notes import text_notes
from i18nprune.translate.plan import TargetPlan, plan_target
from i18nprune.translate.providers import provider_chain
from i18nprune.translate.translator import (
    YIELD_EVERY,
    TranslationReport,
    Translator,
    joined_reports,
)

_T = TypeVar("_T")

KIND = "generate"
EVENT = "run.progress.generate"
CACHE_FILE = "translations.sqlite3"

TargetStatus = Literal["written", "dry_run", "skipped", "failed"]


class GenerateOptions(msgspec.Struct, frozen=True, kw_only=True):
    target: Annotated[
        list[str] | None, msgspec.Meta(description="target locales (comma list, or `all`)")
    ] = None
    all: Annotated[bool, msgspec.Meta(description="every existing non-source locale")] = False
    resume: Annotated[
        bool, msgspec.Meta(description="also translate leaves still equal to the source text")
    ] = False
    force: Annotated[
        bool, msgspec.Meta(description="re-translate every template leaf (overwrites)")
    ] = False
    dry_run: Annotated[bool, msgspec.Meta(description="plan only: no network, no writes")] = False
    metadata: Annotated[
        bool, msgspec.Meta(description="write structured leaves with a machine status")
    ] = False
    provider: Annotated[
        str | None, msgspec.Meta(description="translation provider (see `i18nprune providers`)")
    ] = None
    workers: Annotated[
        int | None, msgspec.Meta(description="worker processes (default: translate.workers)")
    ] = None
    check: Annotated[
        bool,
        msgspec.Meta(
            description="send and write nothing; fail when a target lacks translations or has "
            "stale ones (a CI gate: every locale is fully and currently translated)"
        ),
    ] = False
    no_retranslate_stale: Annotated[
        bool,
        msgspec.Meta(
            description="keep stale translations (source changed since) that generate wrote, "
            "instead of re-translating them; they are reported"
        ),
    ] = False


class TargetResult(msgspec.Struct, frozen=True, rename="camel"):
    target: str
    status: TargetStatus
    partial: bool
    source_leaf_count: int
    translated_leaf_count: int
    cached_leaf_count: int
    failed_leaf_count: int
    stale_leaf_count: int
    """Leaves whose source text changed since they were translated (`i18nprune.lock.json`):
    those re-translated and those kept (a person's edit, or `--no-retranslate-stale`)."""
    retranslated_leaf_count: int
    """Stale leaves this run re-translated and wrote."""
    output_paths: list[str]
    provider_attempts: list[ProviderAttempt]
    fallback_count: int
    duration_ms: int


class GenerateData(msgspec.Struct, frozen=True, rename="camel"):
    provider_id: str | None
    dry_run: bool
    targets: list[str]
    leaves_processed: int
    partial: bool
    target_results: list[TargetResult]
    pool: RunPoolStatistics | None = None
    """What the worker pool did for this run; None when the run used none (a dry run,
    everything from the cache, or a provider that runs in the front process, such as
    `pseudo`)."""
    locale_names: dict[str, str] = {}
    """Each of `targets` (normalised: `pt-br`) → how the project spells it (`pt_BR`, or a new
    target as `--target` named it)."""
    lock_file: str | None = None
    """The lock file, when this run wrote it (relative to the root)."""


def machine_leaf(translation: str, existing: object) -> dict[str, object]:
    """A structured leaf holding a machine translation; an existing structured leaf keeps its
    other fields."""
    leaf: dict[str, object] = dict(existing) if isinstance(existing, dict) else {}
    leaf.update({"value": translation, "status": "machine", NEEDS_REVIEW: True})
    leaf.pop("needsTranslationAgain", None)
    return leaf


def review_leaf(value: str, existing: object) -> dict[str, object]:
    """A structured leaf holding `value` (a person's, kept) marked `needsReview`; an existing
    structured leaf keeps its other fields."""
    leaf: dict[str, object] = dict(existing) if isinstance(existing, dict) else {}
    leaf.update({"value": value, NEEDS_REVIEW: True})
    return leaf


class TargetPart:
    """One namespace of a target: the source's and the target's views of it, its plan, and
    its lock entries (the plan's, then updated by the write)."""

    def __init__(
        self, namespace: str | None, source: LocaleView, view: LocaleView, plan: TargetPlan
    ) -> None:
        self.namespace = namespace
        self.source = source
        self.view = view
        self.plan = plan
        self.entries: TargetEntries = dict(plan.entries)


class TargetRun:
    """One target of a `generate` run: its plan (per namespace), translation and write."""

    def __init__(self, project: Project, target: Target, parts: list[TargetPart]) -> None:
        self.project = project
        self.target = target
        self.parts = parts
        self.started = time.perf_counter()
        self.writer: TargetWriter | None = None
        """Places the leaves as their translations settle (a run that translates)."""

    @property
    def leaf_count(self) -> int:
        return sum(len(part.plan.leaves) for part in self.parts)

    @property
    def kept_stale_count(self) -> int:
        """Stale leaves this run leaves as they are (reported)."""
        return sum(len(part.plan.stale) for part in self.parts)

    def texts_to_translate(self) -> list[str]:
        return [text for part in self.parts for text in part.plan.texts_to_translate()]

    def result(
        self,
        status: TargetStatus,
        report: TranslationReport | None = None,
        written: list[str] | None = None,
        translated: int = 0,
        retranslated: int = 0,
    ) -> TargetResult:
        failed = 0
        cached = 0
        if report is not None:
            texts = self.texts_to_translate()
            failed = sum(1 for text in texts if text in report.failures)
            cached = sum(1 for text in texts if text in report.cached)
        return TargetResult(
            target=self.target.code,
            status=status,
            partial=failed > 0 and status == "written",
            source_leaf_count=sum(part.plan.template_leaf_count for part in self.parts),
            translated_leaf_count=translated,
            cached_leaf_count=cached,
            failed_leaf_count=failed,
            stale_leaf_count=sum(part.plan.stale_count for part in self.parts),
            retranslated_leaf_count=retranslated,
            output_paths=written or [],
            provider_attempts=report.attempts if report else [],
            fallback_count=report.fallback_count if report else 0,
            duration_ms=round((time.perf_counter() - self.started) * 1000),
        )

    def write(self, report: TranslationReport) -> tuple[list[str], int, int]:
        """Write every planned leaf that has a text (with `--metadata`, also mark the kept
        stale leaves `needsReview`), and record what was written in each part's lock entries:
        the run's `writer`, which placed leaves while translating, finishes.

        Returns (files written, leaves written, stale leaves re-translated).
        """
        assert self.writer is not None, "a run that writes is given its writer before translating"
        return self.writer.finish(report)


class _PartPlacement:
    """Where the placing of one part's leaves into its editor has got to."""

    def __init__(self, project: Project, part: TargetPart) -> None:
        self.part = part
        self.files = SourceFiles(project, part.source)
        self.editor = project.editor(part.view)
        self.new_files: dict[str, tuple[Path, JsonStyle]] = {}
        """Every leaf of a source segment goes to the same target file."""
        self.held_back: list[str] = []
        """Array items not written because an earlier item of their array is missing."""
        self.next = 0
        """The index in the plan's leaves of the next leaf to place."""


class TargetWriter:
    """Writes one target: places its leaves into the editors, in plan order, as their texts
    become known (`settled`, while other texts are still being translated), then places the
    rest and saves (`finish`). The leaves are placed in the same order, with the same values,
    whenever their texts arrive, so the files are the same byte for byte; nothing reaches the
    disk before `finish`.

    Its methods run in worker threads, one at a time (`turn`, shared by the run's writers).
    """

    def __init__(self, run: TargetRun, metadata: bool, turn: threading.Lock | None = None) -> None:
        # Not `run` itself: the run holds its writer, and a cycle between them would leave
        # every leaf of the target for the garbage collector to free, on whichever thread it
        # happens to run (in `serve`, the event loop: a 50 ms pause).
        self.project = run.project
        self.target = run.target
        self.parts = run.parts
        self.metadata = metadata
        self.structured = metadata or run.project.config.locale_leaves.mode == "structured"
        self._turn = turn if turn is not None else threading.Lock()
        self._known: dict[str, str] = {}
        self._parts: list[_PartPlacement] = []
        self._problem: ProblemError | None = None
        self._problem_at = 0
        """The index of the part whose placing met `_problem`."""
        self._working = 0
        self.count = 0
        self.retranslated = 0

    def settled(self, translations: dict[str, str]) -> None:
        """`translations` (source text → verified translation) are final: place the leaves
        they allow (a leaf waits for every leaf before it). A problem placing them (a target
        file outside the root, an unreadable one) is kept for `finish` to raise."""
        with self._turn:
            self._known.update(translations)
            if self._problem is None:
                try:
                    self._place(self._known.get)
                except ProblemError as exc:
                    self._problem, self._problem_at = exc, self._working

    def finish(self, report: TranslationReport) -> tuple[list[str], int, int]:
        """Place every leaf that has a text in `report`, mark the kept stale leaves (with
        `metadata`), save each part in turn, and record what was written in each part's lock
        entries.

        Returns (files written, leaves written, stale leaves re-translated). Raises
        ProblemError (as writing would, at the same point) when a file cannot be read or
        written.
        """
        translations = report.translations
        written: list[str] = []
        placed: list[_PartPlacement] = []
        problem: ProblemError | None = None
        with self._turn:
            for index, part in enumerate(self.parts):
                if self._problem is not None and index == self._problem_at:
                    problem = self._problem
                    break
                if index == len(self._parts):
                    self._parts.append(_PartPlacement(self.project, part))
                placement = self._parts[index]
                try:
                    self._place_part(placement, translations.get, final=True)
                except ProblemError as exc:
                    problem = exc
                    break
                if self.metadata:
                    _mark_kept_stale(part, placement.editor)
                placed.append(placement)
            # The lock's entries go on disk before the files they describe: a kill between
            # the files and the lock then leaves the next run knowing its own output.
            self._journal([placement.part for placement in placed])
            for placement in placed:
                written.extend(placement.editor.save())
        if problem is not None:
            raise problem
        return sorted(written), self.count, self.retranslated

    def _journal(self, parts: list[TargetPart]) -> None:
        """Record the entries of `parts` in the lock's journal (see `PENDING_FILE`). Raises
        ProblemError when it cannot be written: then no file is."""
        if self.project.read_only or not any(part.entries for part in parts):
            return
        code = self.target.code
        try:
            record_pending(
                self.project.root,
                {lock_key(code, part.namespace): part.entries for part in parts},
            )
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise ProblemError(
                error(
                    Code.LOCK_UNWRITABLE,
                    f"{PENDING_FILE}: cannot be written ({reason}), so no file of "
                    f"`{self.target.name}` was — free space or fix permissions, then run again",
                    PENDING_FILE,
                )
            ) from exc

    @property
    def held_back(self) -> list[str]:
        """Array items not written because an earlier item of their array is missing (its
        translation failed, or the template leaves it out)."""
        return [path for placement in self._parts for path in placement.held_back]

    def _place(self, text_of: Callable[[str], str | None]) -> None:
        """Place the leaves whose texts are known, part after part, stopping at the first leaf
        still waiting for its text."""
        parts = self.parts
        while True:
            if not self._parts or self._parts[-1].next == len(self._parts[-1].part.plan.leaves):
                if len(self._parts) == len(parts):
                    return
                self._working = len(self._parts)
                self._parts.append(_PartPlacement(self.project, parts[self._working]))
            self._working = len(self._parts) - 1
            if not self._place_part(self._parts[-1], text_of, final=False):
                return

    def _place_part(
        self, placement: _PartPlacement, text_of: Callable[[str], str | None], *, final: bool
    ) -> bool:
        """Place the leaves of one part from `placement.next` on; before `final`, stop at a
        leaf whose text is unknown (False), else skip the leaves without one. True once every
        leaf of the part was seen."""
        part = placement.part
        leaves = part.plan.leaves
        editor = placement.editor
        segment_of = part.source.leaf_segment
        held = part.view.leaf_segment
        order = part.plan.order
        structured = self.structured
        target = self.target
        # Leaves the target does not hold yet, in order, all for the file and style `into`:
        # added together. Added before anything else that can fail (loading a file), so that
        # the first failure is the one leaf by leaf placing meets.
        new: list[tuple[str, object]] = []
        into: tuple[Path, JsonStyle] | None = None

        def add_new() -> None:
            if new:
                assert into is not None
                editor.add(new, into[0], order, into[1])
                new.clear()

        index = placement.next
        try:
            while index < len(leaves):
                if not index % YIELD_EVERY:
                    add_new()
                    time.sleep(0)  # see YIELD_EVERY
                leaf = leaves[index]
                translated = leaf.action == "translate"
                text = text_of(leaf.text) if translated else leaf.text
                if text is None:
                    if not final:
                        add_new()
                        return False
                    index += 1
                    continue
                rel = segment_of[leaf.source_path]
                placed = placement.new_files.get(rel)
                if placed is None:
                    add_new()
                    placed = placement.new_files[rel] = placement.files.target_file(
                        leaf.source_path, target
                    )
                if leaf.target_path not in held:
                    if "[" in leaf.target_path:
                        add_new()
                        if not editor.document(*placed).reaches(leaf.target_path):
                            # An earlier item of its array is missing: its translation
                            # failed, or the template leaves it out.
                            placement.held_back.append(leaf.target_path)
                            index += 1
                            continue
                    if placed is not into:
                        add_new()
                        into = placed
                    # A new leaf is structured when the target's leaves are.
                    fresh = leaf.value
                    if translated:
                        fresh = machine_leaf(text, None) if structured else text
                    new.append((leaf.target_path, fresh))
                else:
                    add_new()
                    existing = editor.get(leaf.target_path)
                    value: object = text if translated else leaf.value
                    # A structured-JSON message takes the bare text (the writer keeps its fields).
                    wants_leaf = structured or isinstance(existing, dict)
                    if translated and wants_leaf and not is_message_object(existing):
                        value = machine_leaf(text, existing)
                    editor.set(leaf.target_path, value, placed[0], order=order, style=placed[1])
                self.count += 1
                if translated:
                    self.retranslated += leaf.stale
                    part.entries[leaf.target_path] = entry_for(
                        leaf.source_path, leaf.target_path, leaf.text, text
                    )
                index += 1
            add_new()
        finally:
            placement.next = index
        return True


def _mark_kept_stale(part: TargetPart, editor: LocaleEditor) -> None:
    """Mark each kept stale leaf of `part` `needsReview` (value unchanged) and note it in its
    lock entry, so that removing the mark settles it. A structured-JSON message has no place
    for the mark and stays as it is."""
    for path in part.plan.stale:
        holder = editor.segment_of(path)
        existing = editor.get(path)
        leaf = part.view.leaves[path]
        if holder is None or not isinstance(leaf.value, str) or is_message_object(existing):
            continue
        editor.set(path, review_leaf(leaf.value, existing), holder)
        part.entries[path] = msgspec.structs.replace(part.entries[path], marked=True)


@dataclass(frozen=True)
class _Loaded:
    """The locales a run works on: the source's view of each namespace, each target's."""

    sources: dict[str | None, LocaleView]
    views: dict[str, dict[str | None, LocaleView]]
    """Target code → its view of each namespace."""
    issues: list[Issue]
    likely_texts: int
    """About how many texts the run will send (see `_likely_texts`)."""
    likely: list[str]
    """The distinct source texts of those (what `_premask` masks while the code is scanned)."""
    lock: Lock | None
    """The project's `i18nprune.lock.json`, None when it has none."""


class _RunPool:
    """The worker pool of one run and its statistics.

    Leased as soon as the run will likely need workers (before the scan, so the workers start
    while the code is scanned and the targets planned), else once translation turns out to need
    them; released as soon as translation ends, and on any early exit: no worker outlives it.
    """

    def __init__(self, project: Project, options: GenerateOptions, chain: list[ProviderSettings]):
        self._project = project
        self._options = options
        self._chain = chain
        self._stack = AsyncExitStack()
        self._pool: WorkerPool | None = None
        self._before: PoolStatistics | None = None
        self._after: PoolStatistics | None = None
        self.recorder = PoolRecorder()

    @property
    def needs_workers(self) -> bool:
        """Whether a provider this run can reach runs in worker processes."""
        return not self._options.dry_run and not all(map(runs_locally, self._chain))

    async def __aenter__(self) -> _RunPool:
        await self._stack.__aenter__()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> bool | None:
        return await self._stack.__aexit__(exc_type, exc, traceback)

    async def lease(self, texts: int) -> None:
        """Lease the pool, sized for `texts` texts to send, unless it is leased already, the
        run needs no workers, or there is nothing to send."""
        if self._before is not None or not self.needs_workers:
            return
        if texts <= 0:
            return
        # `translate.workers` is a most, bounded by the CPUs; a `--workers` given is kept.
        configured = min(self._project.config.translate.workers, worker_ceiling())
        wanted = self._options.workers or configured
        batches = math.ceil(texts / max(self._chain[0].batch_size, 1))
        size = max(1, min(wanted, batches))
        self._pool = await self._stack.enter_async_context(lease_pool(size, self._project.env))
        self._before = self._pool.statistics()

    async def release(self) -> None:
        """Give the pool back (its workers exit unless the host keeps it); idempotent."""
        if self._pool is not None:
            self._after = self._pool.statistics()
            self._pool = None
        await self._stack.aclose()

    def requester(self) -> Requester:
        """Where the run's batches go: the pool, with local providers answered in process."""
        if self._pool is not None and not any(map(runs_locally, self._chain)):
            return self._pool
        return LocalRequester(self._pool)

    def statistics(self) -> RunPoolStatistics | None:
        """The pool statistics of the run, or None when it sent nothing to a pool."""
        if self._before is None or not self.recorder.timings:
            return None
        after = self._pool.statistics() if self._pool is not None else self._after
        assert after is not None  # leased, so either still held or released
        return self.recorder.statistics(
            workers=after.workers,
            spawned=after.spawned - self._before.spawned,
            respawned=after.respawned - self._before.respawned,
        )


async def run(handle: ProjectHandle, options: GenerateOptions, emit: EventSink) -> Envelope:
    """Translate what each target lacks, verify it, and write it atomically per file (with
    `check`, plan only and fail when anything would be translated)."""
    # The run's threads (masking, placing, writing) take turns with the event loop often, so
    # a host's loop (serve's pings, the pool's replies) never waits long for the GIL.
    with responsive_loop():
        return await _run(handle, options, emit)


async def _run(handle: ProjectHandle, options: GenerateOptions, emit: EventSink) -> Envelope:
    started = time.perf_counter()
    if options.check:
        options = msgspec.structs.replace(options, dry_run=True)
    project = handle.open()
    issues: list[Issue] = project.readiness()
    targets, found = await trio.to_thread.run_sync(_select, project, options)
    issues.extend(found)
    glossary = await trio.to_thread.run_sync(load_glossary, project.config.translate, project.root)
    data = GenerateData(None, options.dry_run, [], 0, False, [])
    if has_errors(issues):
        return make_envelope(KIND, data, issues, started=started)
    chain = providers_in_use(_chain(project, options))
    async with _RunPool(project, options, chain) as workers:
        # Reading the locales is pure and can take a while: off the loop, abandoned on cancel.
        loaded = await trio.to_thread.run_sync(
            _load, project, targets, options, abandon_on_cancel=True
        )
        if not has_errors(loaded.issues):
            await workers.lease(loaded.likely_texts)
        # Texts mask the same for every target without glossary terms: once per run, and
        # mostly while the code is scanned.
        masks: dict[str, ProtectedText] = {}
        premask = not has_errors(loaded.issues) and any(
            glossary.for_target(target.code) is None for target in targets
        )
        stop = threading.Event()
        masking = threading.Thread(
            target=_premask, args=(loaded.likely, masks, stop), name="generate-premask"
        )
        if premask:
            masking.start()
        try:
            evidence = await scan_code(project, KIND, emit)
        finally:
            stop.set()
        if premask:
            # It stops after the text it is masking; a cancel need not wait for that.
            await trio.to_thread.run_sync(masking.join, abandon_on_cancel=True)
        issues.extend(evidence.scan.issues)
        issues.extend(loaded.issues)
        if has_errors(issues):
            return make_envelope(KIND, data, issues, started=started)
        runs = await trio.to_thread.run_sync(
            _plan_targets, project, evidence, loaded, targets, options, abandon_on_cancel=True
        )
        descriptions, found = await trio.to_thread.run_sync(
            _descriptions, loaded, evidence, chain, abandon_on_cancel=True
        )
        issues.extend(found)
        reports, found, let_go = await _prepare_and_translate(
            project, runs, chain, workers, options, emit, glossary, descriptions, masks
        )
        issues.extend(found)
        pool = workers.statistics()
    # No checkpoint since `_prepare_and_translate` returned (it released the pool, so leaving
    # the block awaits nothing): `_write` is sure to run, and it lets go.
    results, lock_written, found = await _write(project, runs, reports, options, emit, let_go)
    issues.extend(found)
    issues.extend(
        _stale_warning(project, target_run, options)
        for target_run in runs
        if target_run.kept_stale_count
    )
    if options.check:
        issues.extend(_check_failures(project, runs))
    data = GenerateData(
        provider_id=chain[0].id,
        dry_run=options.dry_run,
        targets=[target.code for target in targets],
        leaves_processed=sum(target_run.leaf_count for target_run in runs),
        partial=any(result.partial or result.status == "failed" for result in results),
        target_results=results,
        pool=pool,
        locale_names={target.code: target.name for target in targets},
        lock_file=LOCK_FILE if lock_written else None,
    )
    emit(ProgressEvent(type=EVENT, phase="done", done=len(runs), total=len(runs)))
    envelope = make_envelope(KIND, data, issues, started=started)
    # What the run read and planned holds every leaf of every target: freed in a thread, since
    # on the loop it would hold up a host's other requests for milliseconds. A command does not
    # wait for it: the envelope is final, and a process that exits meanwhile has nothing left to
    # free. `serve` does: it turns the cyclic collector back on once the op is over, and its
    # first collection would walk whatever of this were still alive (20k leaves: ~115k
    # objects, ~45 ms with the event loop held).
    held: list[object] = [loaded, evidence, runs, reports, masks]
    del loaded, evidence, runs, reports, masks
    if handle.long_lived:
        with trio.CancelScope(shield=True):
            await trio.to_thread.run_sync(held.clear)
    else:
        trio.lowlevel.start_thread_soon(held.clear, _ignore_outcome)
    return envelope


def _beside(main: Callable[[], _T], other: Callable[[], None]) -> _T:
    """`main()` in this thread while `other()` runs in a thread of its own; returns once both
    are done, with what `main` returned, or raises what `main` raised, else what `other`
    raised."""
    raised: list[BaseException] = []

    def run_other() -> None:
        try:
            other()
        except BaseException as problem:  # handed to the caller below
            raised.append(problem)

    thread = threading.Thread(target=run_other, name="i18nprune-let-go")
    thread.start()
    try:
        result = main()
    finally:
        thread.join()
    if raised:
        raise raised[0]
    return result


async def _shielded(let_go: Callable[[], None]) -> None:
    """Run `let_go` (idempotent) in a thread, whatever cancels the caller."""
    with trio.CancelScope(shield=True):
        await trio.to_thread.run_sync(let_go)


def _ignore_outcome(outcome: object) -> None:
    """What a thread that frees memory returns (nothing, and freeing never fails)."""


_LISTED = 5


def _check_failures(project: Project, runs: list[TargetRun]) -> list[Issue]:
    """`--check`: an error naming the targets that lack translations or keep stale ones (none
    when none does)."""
    lacking = [
        (run.target.name, run.leaf_count, run.kept_stale_count)
        for run in runs
        if run.leaf_count or run.kept_stale_count
    ]
    if not lacking:
        return []
    listed = ", ".join(
        f"{code} ({count}{f', {stale} stale kept' if stale else ''})"
        for code, count, stale in lacking
    )
    codes = ",".join(code for code, _, _ in lacking)
    fix = project.command(f"generate --target {codes}")
    translated = sum(count for _, count, _ in lacking)
    kept = sum(stale for _, _, stale in lacking)
    todo = [f"run `{fix}` to translate them"] if translated else []
    todo += ["settle the stale translations a person edited (see the warning)"] if kept else []
    also = f" and {kept} stale translation(s) would be kept" if kept else ""
    return [
        error(
            Code.CHECK_WOULD_CHANGE,
            f"generate --check: {translated} leaf(s) would be translated{also}: {listed}; "
            f"{' and '.join(todo)}",
        )
    ]


def _stale_warning(project: Project, run: TargetRun, options: GenerateOptions) -> Issue:
    """A warning naming the stale leaves of `run` that stay as they are, and how to settle
    them."""
    syntax = project.key_syntax()
    paths = [syntax.display(part.namespace, path) for part in run.parts for path in part.plan.stale]
    shown = ", ".join(paths[:_LISTED]) + (
        f" and {len(paths) - _LISTED} more" if len(paths) > _LISTED else ""
    )
    name = run.target.name
    accept = project.command(f"review --accept {shlex.quote(paths[0])} --target {name}")
    return warning(
        Code.GENERATE_STALE,
        f"{len(paths)} translation(s) of `{name}` are stale (the source text changed since "
        f"they were translated) and were kept: {shown} — edit each (any change settles it), "
        f"accept it with `{accept}` "
        "once `--metadata` marked it, or delete it to have it translated again; a person's edit "
        "is never overwritten"
        + (
            " (without --no-retranslate-stale, those generate wrote are re-translated)"
            if options.no_retranslate_stale
            else ""
        ),
    )


def _select(project: Project, options: GenerateOptions) -> tuple[list[Target], list[Issue]]:
    """The targets the options name; `--resume` alone picks up every existing target (what a
    failed run tells you to run)."""
    requested = (
        ["all"] if options.all or (options.resume and not options.target) else options.target
    )
    if not requested:
        message = "choose the locales to translate: --target <codes> (comma list) or --all"
        return [], [error(Code.TARGET_REQUIRED, message)]
    return select_targets(project, requested, allow_new=True)


def _chain(project: Project, options: GenerateOptions) -> list[ProviderSettings]:
    translate = project.config.translate
    return provider_chain(options.provider or translate.primary, translate, project.env)


def _load(project: Project, targets: list[Target], options: GenerateOptions) -> _Loaded:
    """Read the source and every target, each per namespace; a source that cannot be read in
    full refuses the run."""
    sources = project.load_namespaces(project.source_locale())
    views = {target.code: project.load_namespaces(target.code) for target in targets}
    issues: list[Issue] = []
    for source in sources.values():
        issues.extend(source.issues)
        refusal = source_gate(KIND, source)
        if refusal is not None:
            issues.append(refusal)
    if not has_errors(issues):
        for namespaces in views.values():
            for view in namespaces.values():
                issues.extend(view.issues)
    lock = None
    try:
        lock = read_lock(project.root)
    except LockFileError as exc:
        issues.extend(exc.issues)
    else:
        lock = _recovered(project, lock, views)
    count, likely = _likely_texts(sources, views, options)
    return _Loaded(sources, views, issues, count, likely, lock)


def _recovered(
    project: Project, lock: Lock | None, views: dict[str, dict[str | None, LocaleView]]
) -> Lock | None:
    """`lock` with what the journal of a run killed before writing the lock says of the
    targets of `views` (see `PENDING_FILE`)."""
    pending = read_pending(project.root)
    if not pending:
        return lock
    recovered = dict(lock or {})
    for key, entries in pending.items():
        code, namespace = split_lock_key(key)
        view = views.get(code, {}).get(namespace)
        if view is not None:
            recovered[key] = recover_entries(recovered.get(key, {}), entries, view)
    return recovered


def _likely_texts(
    sources: dict[str | None, LocaleView],
    views: dict[str, dict[str | None, LocaleView]],
    options: GenerateOptions,
) -> tuple[int, list[str]]:
    """About how many texts the run will send, before planning: the source's texts that a
    target lacks, holds as a placeholder or marks for translation again (all of them with
    `--force`, and those still equal to the source with `--resume`); and those texts, each
    once."""
    count = 0
    likely: dict[str, None] = {}
    for namespaces in views.values():
        for namespace, view in namespaces.items():
            for path, leaf in sources[namespace].leaves.items():
                if leaf.kind not in ("string", "structured"):
                    continue
                existing = view.leaves.get(path)
                if (
                    existing is None
                    or options.force
                    or existing.kind == "placeholder"
                    or existing.needs_translation_again
                    or (options.resume and existing.value == leaf.value)
                ):
                    count += 1
                    if isinstance(leaf.value, str):
                        likely[leaf.value] = None
    return count, list(likely)


def _premask(texts: list[str], masks: dict[str, ProtectedText], stop: threading.Event) -> None:
    """Mask `texts` (as targets without glossary terms mask them) into `masks` until `stop` is
    set: the run does this while the code is scanned, when the front waits on the scan's
    workers, so that preparing the targets later finds most texts masked."""
    for text in texts:
        if stop.is_set():
            return
        if text not in masks:
            masks[text] = protect_placeholders(text)


def _plan_targets(
    project: Project,
    evidence: Evidence,
    loaded: _Loaded,
    targets: list[Target],
    options: GenerateOptions,
) -> list[TargetRun]:
    """Every target's plan, per namespace."""
    policy = project.config.reference.policy_for("generate")
    templates = build_templates(loaded.sources, evidence, policy, project.config)
    lock = loaded.lock or {}
    runs = []
    for target in targets:
        parts = []
        for namespace, source in loaded.sources.items():
            view = loaded.views[target.code][namespace]
            plan = plan_target(
                source,
                view,
                templates[namespace],
                resume=options.resume,
                force=options.force,
                lock=lock.get(lock_key(target.code, namespace)),
                retranslate_stale=not options.no_retranslate_stale,
                accepted=review_accepted(partial(project.editor, view)),
            )
            parts.append(TargetPart(namespace, source, view, plan))
        runs.append(TargetRun(project, target, parts))
    return runs


def _open_cache(project: Project) -> tuple[TranslationCache | None, list[Issue]]:
    if not project.cache_enabled:
        return None, []
    path = project.home / CACHE_FILE
    cache = TranslationCache.open(path, writable=not project.read_only)
    if cache.problem:
        return cache, [warning(Code.TRANSLATION_CACHE_UNAVAILABLE, cache.problem, str(path))]
    return cache, []


def _descriptions(
    loaded: _Loaded, evidence: Evidence, chain: list[ProviderSettings]
) -> tuple[Descriptions | None, list[Issue]]:
    """The key descriptions and the meta files' problems when a provider of `chain` reads
    notes; else None (nothing is read)."""
    if not any(settings.reads_notes for settings in chain):
        return None, []
    return key_descriptions(loaded.sources, evidence)


def _notes(run: TargetRun, descriptions: Descriptions | None) -> dict[str, TextNote] | None:
    """What providers that read notes are told of each text of `run`."""
    if descriptions is None:
        return None
    return text_notes(((part.namespace, part.plan.leaves) for part in run.parts), descriptions)


FIRST_PART_TEXTS = 2000
"""A target with at least PARTS_FROM distinct texts to translate is prepared and sent in parts:
the first this large, each next one PART_GROWTH times the one before, up to LARGEST_PART."""
PART_GROWTH = 3
LARGEST_PART = 16000
PARTS_FROM = 4 * FIRST_PART_TEXTS


def text_parts(texts: list[str], batch_size: int) -> list[list[str]]:
    """`texts` (distinct) cut into the parts a run prepares one after another, each sent while
    the next is prepared: masking and looking up 100k texts takes ~0.6 s, during which no
    request would be in flight. A part prepares in a fifth of the time it takes to translate,
    so the next one is ready before the last batch of one is answered. Every part but the last
    is a multiple of `batch_size` texts, so parts cut no more batches than the texts whole
    (unless the cache or shared placeholders thin a part); the last takes the rest when that
    is less than twice the next part's size."""
    if len(texts) < PARTS_FROM:
        return [texts]
    batch = max(batch_size, 1)
    parts: list[list[str]] = []
    start = 0
    size = FIRST_PART_TEXTS
    while start < len(texts):
        size = -(-size // batch) * batch
        end = len(texts) if len(texts) - start < 2 * size else start + size
        parts.append(texts[start:end])
        start = end
        size = min(size * PART_GROWTH, LARGEST_PART)
    return parts


class _TargetTranslation:
    """The translation of one target, part after part (`text_parts`): each part's translator
    and report, and one progress count for the target summed over its parts, reported once the
    run has announced its plan."""

    def __init__(
        self,
        run: TargetRun,
        descriptions: Descriptions | None,
        batch_size: int,
        emit: EventSink,
    ) -> None:
        """Costs time in proportion to the target's leaves: hosts build it in a thread."""
        self.run = run
        self.texts = list(dict.fromkeys(run.texts_to_translate()))
        """The target's distinct texts to translate, in plan order."""
        self.parts = text_parts(self.texts, batch_size)
        self.notes = _notes(run, descriptions)
        self.translators: list[Translator] = []
        self.reports: list[TranslationReport | None] = []
        self._emit = emit
        self._counts: dict[int, tuple[int, int]] = {}
        """Part index → its (done, failed), for the parts whose translation started."""
        self._announced = False

    def add(self, translator: Translator) -> int:
        """Take the translator of the next part; returns the part's index."""
        self.translators.append(translator)
        self.reports.append(None)
        return len(self.translators) - 1

    async def translate(
        self, index: int, requester: Requester | None, recorder: PoolRecorder
    ) -> None:
        """Translate part `index`, placing its leaves as they settle."""

        def progress(done: int, failed: int) -> None:
            self._counts[index] = (done, failed)
            self._report()

        writer = self.run.writer
        self.reports[index] = await self.translators[index].translate(
            requester,
            progress,
            recorder=recorder,
            on_settled=writer.settled if writer is not None else None,
        )

    def announced(self) -> None:
        """The plan is announced: progress is reported from now on, beginning with where the
        parts started already have got to."""
        self._announced = True
        if self._counts:
            self._report()

    def report(self) -> TranslationReport:
        """The target's report (every part's translation finished)."""
        reports = [report for report in self.reports if report is not None]
        assert len(reports) == len(self.reports), "every part of the target was translated"
        return reports[0] if len(reports) == 1 else joined_reports(reports)

    def _report(self) -> None:
        if not self._announced:
            return
        counts = self._counts.values()
        self._emit(
            ProgressEvent(
                type=EVENT,
                phase="translate",
                target=self.run.target.code,
                done=sum(done for done, _ in counts),
                total=len(self.texts),
                failed=sum(failed for _, failed in counts),
                cached=sum(len(self.translators[index].cached) for index in self._counts),
            )
        )


async def _prepare_and_translate(
    project: Project,
    runs: list[TargetRun],
    chain: list[ProviderSettings],
    workers: _RunPool,
    options: GenerateOptions,
    emit: EventSink,
    glossary: Glossary,
    descriptions: Descriptions | None,
    masks: dict[str, ProtectedText],
) -> tuple[list[TranslationReport | None], list[Issue], Callable[[], None]]:
    """Prepare every target against the translation cache and translate what it lacks (nothing
    on a dry run: its reports are None), sending each part of a target's texts while the next
    is prepared (`text_parts`); the pool is released before this returns.

    Also returns what lets the run's translations and cache go (`_let_go`, to call in a
    thread: the caller does, while it writes the files); when this raises, it has called it
    already.
    """
    cache, issues = await trio.to_thread.run_sync(_open_cache, project)
    targets: list[_TargetTranslation] = []
    let_go = partial(_let_go, targets, cache)
    if not options.dry_run:
        # Leaves are placed (in memory) as their texts settle, one target at a time.
        turn = threading.Lock()
        for target_run in runs:
            target_run.writer = TargetWriter(target_run, options.metadata, turn)
    try:
        targets[:] = await trio.to_thread.run_sync(
            lambda: [
                _TargetTranslation(target_run, descriptions, chain[0].batch_size, emit)
                for target_run in runs
            ]
        )
        factory = _TranslatorFactory(project, chain, cache, glossary, masks)
        await _translate_in_parts(factory, targets, workers, options, emit)
        await workers.release()
    except BaseException:
        # Closing checkpoints the database and waits for a write in progress, and dropping the
        # translators frees every masked text of the run (tens of milliseconds for a large
        # one): both in a thread, so neither holds up the event loop.
        await _shielded(let_go)
        raise
    # Every write to the cache is over (each job flushes its writer before it returns).
    if cache is not None and cache.problem and not issues:
        # It opened, then a read or write failed (a file another user owns, a full disk).
        issues.append(warning(Code.TRANSLATION_CACHE_UNAVAILABLE, cache.problem, str(cache.path)))
    reports = [None if options.dry_run else target.report() for target in targets]
    return reports, issues, let_go


def _let_go(targets: list[_TargetTranslation], cache: TranslationCache | None) -> None:
    """Drop the targets' translations, translators and texts (in a thread: freeing them is
    work) and close the cache (checkpointing its log, which waits on the disk). Idempotent."""
    targets.clear()
    if cache is not None:
        cache.close()


@dataclass(frozen=True)
class _TranslatorFactory:
    """Builds the translator of a part of a target's texts."""

    project: Project
    chain: list[ProviderSettings]
    cache: TranslationCache | None
    glossary: Glossary
    shared: dict[str, ProtectedText]
    """Texts masked already as targets without glossary terms mask them (filled further)."""

    def prepared(self, target: _TargetTranslation, texts: list[str]) -> Translator:
        """The translator of `texts` (of `target`), masked and looked up in the cache: pure
        work that takes a while (~6 µs a text), done in a thread."""
        code = target.run.target.code
        terms = self.glossary.for_target(code)
        translator = Translator(
            self.chain,
            self.project.config.translate.policy,
            self.cache,
            source=self.project.source_locale(),
            target=code,
            texts=texts,
            glossary=terms,
            notes=target.notes,
            masks=self.shared if terms is None else None,
        )
        translator.consult_cache()
        return translator


async def _translate_in_parts(
    factory: _TranslatorFactory,
    targets: list[_TargetTranslation],
    workers: _RunPool,
    options: GenerateOptions,
    emit: EventSink,
) -> None:
    """Prepare each part of every target's texts in a thread, part after part (the first part
    of every target, then the second, …); unless on a dry run, translate each part as soon as
    it is prepared, while the next is prepared (each target keeps its parts' translators).
    Announces the plan once every part is prepared.

    Raises Cancelled when cancelled: nothing is written then, and what arrived stays cached.
    """

    async def prepare(target: _TargetTranslation, level: int) -> int:
        # Masking is pure and the cache is only read here: a cancel need not wait.
        translator = await trio.to_thread.run_sync(
            factory.prepared, target, target.parts[level], abandon_on_cancel=True
        )
        return target.add(translator)

    for target in targets:
        await prepare(target, 0)
    pending = sum(len(target.translators[0].pending) for target in targets)
    later = sum(len(part) for target in targets for part in target.parts[1:])
    translating = not options.dry_run
    # The pool is leased (and given back) outside the nursery below, which its lease would
    # outlive: for whatever the later parts may need too.
    if translating and (pending or later):
        await workers.lease(pending + later)
    else:
        await workers.release()  # nothing to send
    requester = workers.requester() if translating else None
    async with trio.open_nursery() as nursery:

        def translate(target: _TargetTranslation, part: int) -> None:
            if translating:
                nursery.start_soon(target.translate, part, requester, workers.recorder)

        for target in targets:
            translate(target, 0)
        for level in range(1, max((len(target.parts) for target in targets), default=1)):
            for target in targets:
                if level < len(target.parts):
                    translate(target, await prepare(target, level))
        emit(
            ProgressEvent(
                type=EVENT,
                phase="plan",
                targets=[target.run.target.code for target in targets],
                total=sum(target.run.leaf_count for target in targets),
                cached=sum(
                    len(translator.cached)
                    for target in targets
                    for translator in target.translators
                ),
            )
        )
        for target in targets:
            target.announced()


async def _write(
    project: Project,
    runs: list[TargetRun],
    reports: list[TranslationReport | None],
    options: GenerateOptions,
    emit: EventSink,
    let_go: Callable[[], None],
) -> tuple[list[TargetResult], bool, list[Issue]]:
    """Write every translated target, then the lock file (a dry run writes nothing and
    reports its plan); meanwhile, in another thread, `let_go` (the translation cache closes
    and the translators are freed: neither touches the files). Returns once both are done,
    with whether the lock file was written.

    Shielded: once writing starts it finishes, so no file is left out of a finished run; the
    writes themselves contain no checkpoint.
    """
    if options.dry_run:
        await _shielded(let_go)
        return [target_run.result("dry_run") for target_run in runs], False, []

    def write_all() -> tuple[list[tuple[TargetResult, list[Issue]]], tuple[bool, list[Issue]]]:
        written = []
        for target_run, report in zip(runs, reports, strict=True):
            assert report is not None  # every translation finished
            written.append(_write_target(target_run, report, options))
        wrote = [result.status != "failed" or not found for result, found in written]
        return written, _write_lock(project, runs, wrote)

    with trio.CancelScope(shield=True):
        outcomes, (lock_written, issues) = await trio.to_thread.run_sync(_beside, write_all, let_go)
    results = []
    for result, found in outcomes:
        for path in result.output_paths:
            emit(ProgressEvent(type=EVENT, phase="write", target=result.target, path=path))
        results.append(result)
        issues.extend(found)
    return results, lock_written, issues


def _failure_issue(run: TargetRun, report: TranslationReport) -> Issue:
    texts = run.texts_to_translate()
    failed = [text for text in texts if text in report.failures]
    reason = report.failures[failed[0]]
    written = "the others were written" if len(failed) < len(texts) else "none was translated"
    retry = run.project.command(f"generate --target {run.target.name} --resume")
    return error(
        Code.GENERATE_PARTIAL,
        f"{len(failed)} leaf(s) of `{run.target.name}` could not be translated ({reason}); "
        f"{written} — run `{retry}` to retry",
    )


def _write_target(
    run: TargetRun,
    report: TranslationReport,
    options: GenerateOptions,
) -> tuple[TargetResult, list[Issue]]:
    """Write one translated target; a file that cannot be written fails only this target."""
    marks = options.metadata and run.kept_stale_count > 0
    if not run.leaf_count and not marks:
        return run.result("skipped"), []
    issues: list[Issue] = []
    if report.failures:
        issues.append(_failure_issue(run, report))
    try:
        written, count, retranslated = run.write(report)
    except ProblemError as exc:  # unreadable, unwritable (disk full, permissions), outside root
        return run.result("failed", report), [*issues, exc.issue]
    assert run.writer is not None  # `run.write` used it
    if run.writer.held_back:
        command = run.project.command(f"generate --target {run.target.name} --resume")
        advice = f"`{command}` retries the failed ones; add any other to the target file"
        issues.append(array_gap_warning(run.target.name, run.writer.held_back, advice))
    status: TargetStatus = "written" if count else "failed"
    if not run.leaf_count:  # only marks to set
        status = "written" if written else "skipped"
    return run.result(status, report, written, count, retranslated), issues


def _write_lock(
    project: Project, runs: list[TargetRun], wrote: list[bool]
) -> tuple[bool, list[Issue]]:
    """Record each target's entries in the lock file: the entries of the targets this run
    wrote replace theirs, every other target's stay as they are on disk (a target whose
    write failed keeps its old ones). A read-only session writes none. Returns whether the
    file was written (an unchanged lock is not), and what went wrong."""
    if project.read_only:
        return False, []
    done = [run for run, ok in zip(runs, wrote, strict=True) if ok]
    codes = {run.target.code for run in done}

    def change(lock: Lock) -> Lock:
        updated = {
            key: entries for key, entries in lock.items() if split_lock_key(key)[0] not in codes
        }
        for target_run in done:
            for part in target_run.parts:
                updated[lock_key(target_run.target.code, part.namespace)] = part.entries
        return updated

    try:
        changed = update_lock(project.root, change)
    except LockFileError as exc:  # spoiled since this run read it
        return False, exc.issues
    except OSError as exc:
        reason = exc.strerror or str(exc)
        return False, [
            error(
                Code.LOCK_UNWRITABLE,
                f"{LOCK_FILE}: cannot be written ({reason}); the locale files were written — "
                "the next run adopts their leaves as a person's, so nothing is lost, but "
                "stale ones written now will not be re-translated automatically",
                LOCK_FILE,
            )
        ]
    settled = {lock_key(run.target.code, part.namespace) for run in done for part in run.parts}
    with contextlib.suppress(OSError):  # what is left agrees with the lock: harmless
        settle_pending(project.root, settled)
    return changed, []
