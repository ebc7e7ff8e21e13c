"""`generate`: machine-translate the template into target locales (PRODUCT §6)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from contextlib import AsyncExitStack
from typing import Annotated, Literal

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
from i18nprune.locales.leaves import is_message_object
from i18nprune.locales.view import LocaleView
from i18nprune.ops.events import EventSink, ProgressEvent
from i18nprune.ops.scanning import scan_code
from i18nprune.ops.sync import SourceFiles
from i18nprune.ops.targets import Target, select_targets
from i18nprune.pool import ProviderAttempt, WorkerPool
from i18nprune.project import Project, ProjectHandle
from i18nprune.reference import Evidence, source_gate
from i18nprune.template import build_template
from i18nprune.translate.cache import TranslationCache
from i18nprune.translate.plan import TargetPlan, plan_target
from i18nprune.translate.providers import ProviderSettings, provider_chain
from i18nprune.translate.translator import TranslationReport, Translator

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


class TargetResult(msgspec.Struct, frozen=True, rename="camel"):
    target: str
    status: TargetStatus
    partial: bool
    source_leaf_count: int
    translated_leaf_count: int
    cached_leaf_count: int
    failed_leaf_count: int
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


def machine_leaf(translation: str, existing: object) -> dict[str, object]:
    """A structured leaf holding a machine translation; an existing structured leaf keeps its
    other fields."""
    leaf: dict[str, object] = dict(existing) if isinstance(existing, dict) else {}
    leaf.update(value=translation, status="machine", needsReview=True)
    leaf.pop("needsTranslationAgain", None)
    return leaf


class TargetPart:
    """One namespace of a target: the source's and the target's views of it, and its plan."""

    def __init__(self, source: LocaleView, view: LocaleView, plan: TargetPlan) -> None:
        self.source = source
        self.view = view
        self.plan = plan


class TargetRun:
    """One target of a `generate` run: its plan (per namespace), translation and write."""

    def __init__(self, project: Project, target: Target, parts: list[TargetPart]) -> None:
        self.project = project
        self.target = target
        self.parts = parts
        self.started = time.perf_counter()

    @property
    def leaf_count(self) -> int:
        return sum(len(part.plan.leaves) for part in self.parts)

    def texts_to_translate(self) -> list[str]:
        return [text for part in self.parts for text in part.plan.texts_to_translate()]

    def result(
        self,
        status: TargetStatus,
        report: TranslationReport | None = None,
        written: list[str] | None = None,
        translated: int = 0,
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
            output_paths=written or [],
            provider_attempts=report.attempts if report else [],
            fallback_count=report.fallback_count if report else 0,
            duration_ms=round((time.perf_counter() - self.started) * 1000),
        )

    def write(self, report: TranslationReport, metadata: bool) -> tuple[list[str], int]:
        """Write every planned leaf that has a text; returns (files written, leaves written)."""
        structured = metadata or self.project.config.locale_leaves.mode == "structured"
        written: list[str] = []
        count = 0
        for part in self.parts:
            files = SourceFiles(self.project, part.source)
            editor = self.project.editor(part.view)
            for leaf in part.plan.leaves:
                text = leaf.text if leaf.action == "copy" else report.translations.get(leaf.text)
                if text is None:
                    continue
                file, style = files.target_file(leaf.source_path, self.target)
                holder = editor.segment_of(leaf.target_path)
                existing = editor.document(holder).get(leaf.target_path) if holder else None
                value: object = text
                # A structured-JSON message takes the bare text (the writer keeps its fields).
                wants_leaf = structured or isinstance(existing, dict)
                if leaf.action == "translate" and wants_leaf and not is_message_object(existing):
                    value = machine_leaf(text, existing)
                editor.set(leaf.target_path, value, file, order=part.plan.order, style=style)
                count += 1
            written.extend(editor.save())
        return sorted(written), count


def _chain(project: Project, options: GenerateOptions) -> list[ProviderSettings]:
    translate = project.config.translate
    return provider_chain(options.provider or translate.primary, translate, project.env)


def _pool_size(options: GenerateOptions, project: Project, texts: int, batch: int) -> int:
    wanted = options.workers or project.config.translate.workers
    return max(1, min(wanted, math.ceil(texts / max(batch, 1))))


def _open_cache(project: Project) -> tuple[TranslationCache | None, list[Issue]]:
    if not project.cache_enabled:
        return None, []
    path = project.home / CACHE_FILE
    cache = TranslationCache.open(path, writable=not project.read_only)
    if cache.problem:
        return cache, [warning(Code.TRANSLATION_CACHE_UNAVAILABLE, cache.problem, str(path))]
    return cache, []


def _plan_targets(
    project: Project,
    evidence: Evidence,
    targets: list[Target],
    options: GenerateOptions,
) -> tuple[dict[str | None, LocaleView], list[TargetRun]]:
    """The source's view of each namespace, and every target's plan."""
    policy = project.config.reference.policy_for("generate")
    sources = project.load_namespaces(project.source_locale())
    templates = {
        namespace: build_template(view, evidence.reference(namespace), policy, project.config)
        for namespace, view in sources.items()
    }
    runs = []
    for target in targets:
        parts = []
        views = project.load_namespaces(target.code)
        for namespace, source in sources.items():
            view = views[namespace]
            plan = plan_target(
                source, view, templates[namespace], resume=options.resume, force=options.force
            )
            parts.append(TargetPart(source, view, plan))
        runs.append(TargetRun(project, target, parts))
    return sources, runs


def _failure_issue(run: TargetRun, report: TranslationReport) -> Issue:
    texts = run.texts_to_translate()
    failed = [text for text in texts if text in report.failures]
    reason = report.failures[failed[0]]
    written = "the others were written" if len(failed) < len(texts) else "none was translated"
    retry = run.project.command(f"generate --target {run.target.code} --resume")
    return error(
        Code.GENERATE_PARTIAL,
        f"{len(failed)} leaf(s) of `{run.target.code}` could not be translated ({reason}); "
        f"{written} — run `{retry}` to retry",
    )


def _progress_sink(run: TargetRun, total: int, emit: EventSink) -> Callable[[int, int], None]:
    def progress(done: int, failed: int) -> None:
        emit(
            ProgressEvent(
                type=EVENT,
                phase="translate",
                target=run.target.code,
                done=done,
                total=total,
                failed=failed,
            )
        )

    return progress


def _write_target(
    run: TargetRun,
    report: TranslationReport,
    options: GenerateOptions,
) -> tuple[TargetResult, list[Issue]]:
    """Write one translated target; a file that cannot be written fails only this target."""
    if not run.leaf_count:
        return run.result("skipped"), []
    issues: list[Issue] = []
    if report.failures:
        issues.append(_failure_issue(run, report))
    try:
        written, count = run.write(report, options.metadata)
    except ProblemError as exc:  # unreadable, unwritable (disk full, permissions), outside root
        return run.result("failed", report), [*issues, exc.issue]
    status: TargetStatus = "written" if count else "failed"
    return run.result(status, report, written, count), issues


async def run(handle: ProjectHandle, options: GenerateOptions, emit: EventSink) -> Envelope:
    """Translate what each target lacks, verify it, and write it atomically per file."""
    started = time.perf_counter()
    project = handle.open()
    issues: list[Issue] = project.readiness()
    # `--resume` alone picks up every existing target (what a failed run tells you to run).
    requested = (
        ["all"] if options.all or (options.resume and not options.target) else options.target
    )
    data = GenerateData(None, options.dry_run, [], 0, False, [])
    if not requested:
        issues.append(
            error(
                Code.TARGET_REQUIRED,
                "choose the locales to translate: --target <codes> (comma list) or --all",
            )
        )
        return make_envelope(KIND, data, issues, started=started)
    targets, target_issues = select_targets(project, requested, allow_new=True)
    issues.extend(target_issues)
    if has_errors(issues):
        return make_envelope(KIND, data, issues, started=started)
    chain = _chain(project, options)
    evidence = await scan_code(project, KIND, emit)
    issues.extend(evidence.scan.issues)
    # Reading and planning are pure and can take a while: off the loop, abandoned on cancel.
    sources, runs = await trio.to_thread.run_sync(
        _plan_targets, project, evidence, targets, options, abandon_on_cancel=True
    )
    for source in sources.values():
        issues.extend(source.issues)
        refusal = source_gate(KIND, source)
        if refusal is not None:
            issues.append(refusal)
    if has_errors(issues):
        return make_envelope(KIND, data, issues, started=started)
    for target_run in runs:
        for part in target_run.parts:
            issues.extend(part.view.issues)
    if has_errors(issues):
        return make_envelope(KIND, data, issues, started=started)
    cache, cache_issues = _open_cache(project)
    issues.extend(cache_issues)
    try:
        results = await _generate(handle, project, runs, chain, cache, options, emit, issues)
    finally:
        if cache is not None:
            cache.close()
    if cache is not None and cache.problem and not cache_issues:
        # It opened, then a read or write failed (a file another user owns, a full disk).
        issues.append(warning(Code.TRANSLATION_CACHE_UNAVAILABLE, cache.problem, str(cache.path)))
    partial = any(result.partial or result.status == "failed" for result in results)
    data = GenerateData(
        provider_id=chain[0].id,
        dry_run=options.dry_run,
        targets=[target.code for target in targets],
        leaves_processed=sum(target_run.leaf_count for target_run in runs),
        partial=partial,
        target_results=results,
    )
    emit(ProgressEvent(type=EVENT, phase="done", done=len(runs), total=len(runs)))
    return make_envelope(KIND, data, issues, started=started)


async def _generate(
    handle: ProjectHandle,
    project: Project,
    runs: list[TargetRun],
    chain: list[ProviderSettings],
    cache: TranslationCache | None,
    options: GenerateOptions,
    emit: EventSink,
    issues: list[Issue],
) -> list[TargetResult]:
    """Translate every target, then write them all.

    Nothing is written until every translation has settled: a cancel or Ctrl+C while providers
    work leaves every locale file as it was (what arrived stays in the cache), and the writes
    themselves contain no checkpoint, so once they start they finish.
    """

    def prepare() -> list[Translator]:
        return [
            Translator(
                chain,
                project.config.translate.policy,
                cache,
                source=project.source_locale(),
                target=target_run.target.code,
                texts=target_run.texts_to_translate(),
            )
            for target_run in runs
        ]

    # Masking and cache lookups of a large run take a while: keep the event loop free. Masking
    # is pure, so a cancel need not wait for it; a cache lookup is waited for.
    translators = await trio.to_thread.run_sync(prepare, abandon_on_cancel=True)
    for translator in translators:
        await trio.to_thread.run_sync(translator.consult_cache)
    pending = sum(len(translator.pending) for translator in translators)
    emit(
        ProgressEvent(
            type=EVENT,
            phase="plan",
            targets=[target_run.target.code for target_run in runs],
            total=sum(target_run.leaf_count for target_run in runs),
            cached=sum(len(translator.cached) for translator in translators),
        )
    )
    if options.dry_run:
        return [target_run.result("dry_run") for target_run in runs]
    reports: list[TranslationReport | None] = [None] * len(runs)
    async with AsyncExitStack() as stack:
        pool: WorkerPool | None = None
        if pending:
            size = _pool_size(options, project, pending, chain[0].batch_size)
            pool = await stack.enter_async_context(handle.lease_pool(size, project.env))

        async def translate(index: int) -> None:
            translator = translators[index]
            progress = _progress_sink(runs[index], len(translator.protected), emit)
            reports[index] = await translator.translate(pool, progress)

        async with trio.open_nursery() as nursery:
            for index in range(len(runs)):
                nursery.start_soon(translate, index)

    def write_all() -> list[tuple[TargetResult, list[Issue]]]:
        written = []
        for target_run, report in zip(runs, reports, strict=True):
            assert report is not None  # the nursery finished every translation
            written.append(_write_target(target_run, report, options))
        return written

    # Shielded: once writing starts it finishes, so no file is left out of a finished run.
    with trio.CancelScope(shield=True):
        outcomes = await trio.to_thread.run_sync(write_all)
    results = []
    for result, found in outcomes:
        for path in result.output_paths:
            emit(ProgressEvent(type=EVENT, phase="write", target=result.target, path=path))
        results.append(result)
        issues.extend(found)
    return results
