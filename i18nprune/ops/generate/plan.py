"""Planning a `generate` run: the targets it translates, the locales and lock it reads, and each
target's plan per namespace (what to translate, copy or keep), made while the code is scanned."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

import trio

from i18nprune.envelope import Code, Issue, error, has_errors
from i18nprune.locales.view import LocaleView
from i18nprune.ops.engine.events import EventSink
from i18nprune.ops.engine.scanning import scan_code
from i18nprune.ops.generate.model import KIND, GenerateOptions, TargetResult, TargetStatus
from i18nprune.ops.generate.speed import SpeedMechanics
from i18nprune.ops.generate.workers import RunPool
from i18nprune.ops.shared.targets import Target, select_targets
from i18nprune.placeholders import ProtectedText, protect_placeholders
from i18nprune.pool.messages import ProviderSettings
from i18nprune.project import Project
from i18nprune.reference import Evidence, source_gate
from i18nprune.template import build_templates
from i18nprune.translate.descriptions import Descriptions, key_descriptions
from i18nprune.translate.glossary import Glossary, load_glossary
from i18nprune.translate.local import providers_in_use
from i18nprune.translate.lock import (
    Lock,
    LockFileError,
    TargetEntries,
    lock_key,
    read_lock,
    read_pending,
    recover_entries,
    review_accepted,
    split_lock_key,
)
from i18nprune.translate.plan import TargetPlan, plan_target
from i18nprune.translate.providers import provider_chain
from i18nprune.translate.translator import TranslationReport

if TYPE_CHECKING:
    from i18nprune.ops.generate.place import TargetWriter


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
        refused: int = 0,
    ) -> TargetResult:
        """`refused`: leaves translated but left out because their document refused the edit
        (counted failed)."""
        failed = refused
        cached = 0
        if report is not None:
            texts = self.texts_to_translate()
            failed += sum(1 for text in texts if text in report.failures)
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


@dataclass(frozen=True)
class TargetChoice:
    """The targets a run translates, the project's glossary and the provider chain it
    reaches, with the project's readiness problems and those of the choice."""

    targets: list[Target]
    glossary: Glossary
    chain: list[ProviderSettings]
    """Empty when `issues` has errors (the run stops there)."""
    issues: list[Issue]


@dataclass(frozen=True)
class RunPlan:
    """What a run plans before it translates: its choice, its targets' plans (`runs`), and
    what it read to make them. `refused` (nothing planned, `runs` empty) when the locales or
    the scan have errors: `issues` (those of the reading, the scan and the planning) says
    which."""

    project: Project
    options: GenerateOptions
    choice: TargetChoice
    loaded: LoadedLocales
    evidence: Evidence
    masks: dict[str, ProtectedText]
    """Texts masked already as targets without glossary terms mask them (filled further)."""
    runs: list[TargetRun]
    descriptions: Descriptions | None
    issues: list[Issue]
    refused: bool


async def choose_targets(project: Project, options: GenerateOptions) -> TargetChoice:
    """The targets the options name, the glossary and the provider chain (not built when the
    project is not ready or no target can be translated: `issues` has errors then)."""
    issues: list[Issue] = project.readiness()
    targets, found = await trio.to_thread.run_sync(_select, project, options)
    issues.extend(found)
    glossary = await trio.to_thread.run_sync(load_glossary, project.config.translate, project.root)
    if has_errors(issues):
        return TargetChoice(targets, glossary, [], issues)
    return TargetChoice(targets, glossary, providers_in_use(_chain(project, options)), issues)


async def plan_run(
    project: Project,
    options: GenerateOptions,
    choice: TargetChoice,
    workers: RunPool,
    speed: SpeedMechanics,
    emit: EventSink,
) -> RunPlan:
    """Read the locales, lease the pool when the run will likely send texts (its workers start
    while the code is scanned), scan the code while the texts are masked beside it, and plan
    each target. Reading and planning are pure and abandoned on a cancel."""
    targets = choice.targets
    loaded = await trio.to_thread.run_sync(_load, project, targets, options, abandon_on_cancel=True)
    readable = not has_errors(loaded.issues)
    if readable:
        await workers.lease(loaded.likely_texts)
    # Texts mask the same for every target without glossary terms: once per run, and mostly
    # while the code is scanned.
    masks: dict[str, ProtectedText] = {}
    premask = readable and any(
        choice.glossary.for_target(target.code) is None for target in targets
    )
    masking = partial(_premask, loaded.likely, masks)
    async with speed.beside(masking, enabled=premask, name="generate-premask"):
        evidence = await scan_code(project, KIND, emit)
    issues = [*evidence.scan.issues, *loaded.issues]
    plan = partial(RunPlan, project, options, choice, loaded, evidence, masks)
    if has_errors(issues):
        return plan([], None, issues, refused=True)
    runs = await trio.to_thread.run_sync(
        _plan_targets, project, evidence, loaded, targets, options, abandon_on_cancel=True
    )
    descriptions, found = await trio.to_thread.run_sync(
        _descriptions, loaded, evidence, choice.chain, abandon_on_cancel=True
    )
    return plan(runs, descriptions, [*issues, *found], refused=False)


@dataclass(frozen=True)
class LoadedLocales:
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


def _load(project: Project, targets: list[Target], options: GenerateOptions) -> LoadedLocales:
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
    return LoadedLocales(sources, views, issues, count, likely, lock)


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


def _premask(
    texts: list[str], masks: dict[str, ProtectedText], stopped: Callable[[], bool]
) -> None:
    """Mask `texts` (as targets without glossary terms mask them) into `masks` until
    `stopped()`: the run does this while the code is scanned, when the front waits on the
    scan's workers, so that preparing the targets later finds most texts masked."""
    for text in texts:
        if stopped():
            return
        if text not in masks:
            masks[text] = protect_placeholders(text)


def _plan_targets(
    project: Project,
    evidence: Evidence,
    loaded: LoadedLocales,
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


def _descriptions(
    loaded: LoadedLocales, evidence: Evidence, chain: list[ProviderSettings]
) -> tuple[Descriptions | None, list[Issue]]:
    """The key descriptions and the meta files' problems when a provider of `chain` reads
    notes; else None (nothing is read)."""
    if not any(settings.reads_notes for settings in chain):
        return None, []
    return key_descriptions(loaded.sources, evidence)
