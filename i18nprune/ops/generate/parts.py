"""Translating a run's targets: each target's texts cut into parts (`text_parts`), each part
masked and looked up in the translation cache in a thread, then sent to the pool while the next
part is prepared; progress counted per target over its parts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import trio

from i18nprune.envelope import Code, Issue, warning
from i18nprune.ops.engine.events import EventSink, ProgressEvent
from i18nprune.ops.generate.memory import RunMemory, Shard
from i18nprune.ops.generate.model import EVENT, GenerateOptions
from i18nprune.ops.generate.place import TargetWriter
from i18nprune.ops.generate.plan import RunPlan, TargetRun
from i18nprune.ops.generate.speed import SpeedMechanics
from i18nprune.ops.generate.workers import RunPool
from i18nprune.placeholders import ProtectedText
from i18nprune.pool.job import Requester
from i18nprune.pool.messages import ProviderSettings, TextNote
from i18nprune.pool.statistics import PoolRecorder, RunPoolStatistics
from i18nprune.project import Project
from i18nprune.translate.cache import TranslationMemory
from i18nprune.translate.claims import ClaimingRequester
from i18nprune.translate.descriptions import Descriptions
from i18nprune.translate.glossary import Glossary
from i18nprune.translate.notes import text_notes
from i18nprune.translate.translator import TranslationReport, Translator, joined_reports

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


@dataclass(frozen=True)
class Translation:
    """What translating a run's targets gave."""

    reports: list[TranslationReport | None]
    """Each target's report, in the plan's order (None on a dry run)."""
    issues: list[Issue]
    """The translation cache's problems."""
    pool: RunPoolStatistics | None
    """What the worker pool did for the run (see `RunPool.statistics`)."""
    release: Callable[[], None]
    """Lets the run's translators go and closes the cache: work, to run in a thread (the
    write runs it beside the files). Idempotent."""
    claims: ClaimingRequester | None = None
    """What this fleet member sent and received (a run with a shared memory that sent)."""


async def translate(
    plan: RunPlan, memory: RunMemory, workers: RunPool, speed: SpeedMechanics, emit: EventSink
) -> Translation:
    """Prepare every target against the run's translation memory and translate what it lacks
    (nothing on a dry run; only its share on a shard), sending each part of a target's texts
    while the next is prepared (`text_parts`); each translation is verified, and its leaves
    placed (in memory), as it settles. The pool is given back before this returns; when this
    raises, it has let the translators and the memory go already.

    With a shared memory, texts are claimed across the fleet before they are sent
    (`ClaimingRequester`); once its server is lost, nothing more is sent (see
    `SharedMemory.lost`).
    """
    project, options, chain = plan.project, plan.options, plan.choice.chain
    cache, issues = memory.memory, list[Issue]()
    targets: list[_TargetTranslation] = []
    release = partial(_let_go, targets, cache)
    if not options.dry_run:
        # Leaves are placed (in memory) as their texts settle, one target's writer at a time.
        for target_run in plan.runs:
            target_run.writer = TargetWriter(target_run, options.metadata, speed.writers_turn)
    try:
        targets[:] = await trio.to_thread.run_sync(
            lambda: [
                _TargetTranslation(
                    target_run,
                    plan.descriptions,
                    chain[0].batch_size,
                    memory.shard,
                    memory.start,
                    emit,
                )
                for target_run in plan.runs
            ]
        )
        factory = _TranslatorFactory(project, chain, cache, plan.choice.glossary, plan.masks)
        claims = await _translate_in_parts(factory, targets, workers, memory, options, emit)
        await workers.release()
    except BaseException:
        await speed.let_go(release)
        raise
    # Every write to the cache is over (each job flushes its writer before it returns).
    if cache is not None and cache.problem and not issues:
        # It opened, then a read or write failed (a file another user owns, a full disk).
        issues.append(warning(Code.TRANSLATION_CACHE_UNAVAILABLE, cache.problem, cache.location))
    reports = [None if options.dry_run else target.report() for target in targets]
    return Translation(reports, issues, workers.statistics(), release, claims)


async def _translate_in_parts(
    factory: _TranslatorFactory,
    targets: list[_TargetTranslation],
    workers: RunPool,
    memory: RunMemory,
    options: GenerateOptions,
    emit: EventSink,
) -> ClaimingRequester | None:
    """Prepare each part of every target's texts in a thread, part after part (the first part
    of every target, then the second, …); unless on a dry run, translate each part as soon as
    it is prepared, while the next is prepared (each target keeps its parts' translators):
    with a shared memory, claimed across the fleet first and sent under the fleet's rate limit
    (the claiming requester is returned, for its counts), else straight to the pool. Announces
    the plan once every part is prepared.

    Raises Cancelled when cancelled: nothing is written then, and what arrived stays cached.
    """

    async def prepare(target: _TargetTranslation, level: int) -> int:
        # Masking is pure and the memory is only read here (a shared one also copies what it
        # found into the local cache, which closing waits for): a cancel need not wait.
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
    requester: Requester | None = None
    claims: ClaimingRequester | None = None
    if translating:
        # After the lease: the requester is the pool only once it is leased. Claims come
        # first, so a text another member holds never takes a slot of the fleet's limit.
        shared = memory.shared
        requester = workers.requester(memory.limits)
        if shared is not None:
            requester = claims = ClaimingRequester(requester, shared.store)
    async with trio.open_nursery() as nursery:

        def send(target: _TargetTranslation, part: int) -> None:
            if translating:
                nursery.start_soon(target.translate, part, requester, workers.recorder)

        for target in targets:
            send(target, 0)
        for level in range(1, max((len(target.parts) for target in targets), default=1)):
            for target in targets:
                if level < len(target.parts):
                    send(target, await prepare(target, level))
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
    return claims


class _TargetTranslation:
    """The translation of one target, part after part (`text_parts`): each part's translator
    and report, and one progress count for the target summed over its parts, reported once the
    run has announced its plan."""

    def __init__(
        self,
        run: TargetRun,
        descriptions: Descriptions | None,
        batch_size: int,
        shard: Shard | None,
        start: float,
        emit: EventSink,
    ) -> None:
        """Costs time in proportion to the target's leaves: hosts build it in a thread.
        `start`: where in the texts sending starts, as a fraction (`RunMemory.start`)."""
        self.run = run
        texts = dict.fromkeys(run.texts_to_translate())
        code = run.target.code
        mine = [text for text in texts if shard is None or shard.owns(code, text)]
        cut = int(start * len(mine))
        self.texts = mine[cut:] + mine[:cut]
        """The target's distinct texts to translate (its shard's share), in plan order from
        `start` round to the beginning."""
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


@dataclass(frozen=True)
class _TranslatorFactory:
    """Builds the translator of a part of a target's texts."""

    project: Project
    chain: list[ProviderSettings]
    cache: TranslationMemory | None
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


def _let_go(targets: list[_TargetTranslation], cache: TranslationMemory | None) -> None:
    """Drop the targets' translations, translators and texts (in a thread: freeing them is
    work) and close the cache (checkpointing its log, which waits on the disk). Idempotent."""
    targets.clear()
    if cache is not None:
        cache.close()


def _notes(run: TargetRun, descriptions: Descriptions | None) -> dict[str, TextNote] | None:
    """What providers that read notes are told of each text of `run`."""
    if descriptions is None:
        return None
    return text_notes(((part.namespace, part.plan.leaves) for part in run.parts), descriptions)
