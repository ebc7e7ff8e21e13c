"""The `generate` op: `run`, which reads as the run's steps (plan, cache, pool, verify,
write), and the answer it gives."""

from __future__ import annotations

import time

import msgspec
import trio

from i18nprune.envelope import Code, Envelope, Issue, error, has_errors, make_envelope
from i18nprune.ops.engine.events import EventSink, ProgressEvent
from i18nprune.ops.generate.memory import RunMemory, open_memory
from i18nprune.ops.generate.model import (
    EVENT,
    KIND,
    FleetStatistics,
    GenerateData,
    GenerateOptions,
)
from i18nprune.ops.generate.parts import Translation, translate
from i18nprune.ops.generate.plan import RunPlan, choose_targets, plan_run
from i18nprune.ops.generate.speed import SpeedMechanics
from i18nprune.ops.generate.workers import RunPool
from i18nprune.ops.generate.write import Written, closing_issues, write
from i18nprune.project import ProjectHandle
from i18nprune.translate.lock import LOCK_FILE


async def run(handle: ProjectHandle, options: GenerateOptions, emit: EventSink) -> Envelope:
    """Translate what each target lacks, verify it, and write it atomically per file (with
    `check`, plan only and fail when anything would be translated; on a shard, send its share
    into the shared memory and write nothing)."""
    started = time.perf_counter()
    if options.check:
        options = msgspec.structs.replace(options, dry_run=True)
    speed = SpeedMechanics(long_lived=handle.long_lived)
    with speed.responsive_loop():
        project = handle.open()
        choice = await choose_targets(project, options)
        issues = [*choice.issues]
        if has_errors(issues):
            return _refused(options, issues, started)
        # The memory first: a server that cannot be reached stops the run before any worker.
        memory = await trio.to_thread.run_sync(open_memory, project, options)
        issues.extend(memory.issues)
        translation: Translation | Issue | None = None
        try:
            if has_errors(issues):
                return _refused(options, issues, started)
            async with RunPool(project, options, choice.chain) as workers:
                # Plan: the locales read, the pool leased, the code scanned, each target planned.
                plan = await plan_run(project, options, choice, workers, speed, emit)
                issues.extend(plan.issues)
                if plan.refused:
                    return _refused(options, issues, started)
                # Memory, pool, verify: each text looked up, the rest sent, each answer
                # verified and placed as it settles; the pool is given back before this returns.
                translation = await _translate(plan, memory, workers, speed, emit)
                if isinstance(translation, Issue):  # the shared memory was lost
                    return _refused(options, [*issues, translation], started)
                issues.extend(translation.issues)
        finally:
            if not isinstance(translation, Translation):  # else the write closes it
                await speed.let_go(memory.close)
        # Write. No checkpoint since `translate` returned (leaving the block awaits nothing):
        # `write` is sure to run, and it releases the translation (closing the memory).
        written = await write(plan, translation, speed, emit, sharded=memory.shard is not None)
        issues.extend([*written.issues, *closing_issues(plan)])
        data = _data(plan, written, translation, memory)
        emit(ProgressEvent(type=EVENT, phase="done", done=len(plan.runs), total=len(plan.runs)))
        envelope = make_envelope(KIND, data, issues, started=started)
        held: list[object] = [plan, translation]  # every leaf of every target: freed apart
        del plan, translation
        await speed.free(held)
        return envelope


async def _translate(
    plan: RunPlan, memory: RunMemory, workers: RunPool, speed: SpeedMechanics, emit: EventSink
) -> Translation | Issue:
    """`translate`, or the error that stops the run when the shared memory was lost meanwhile
    (nothing is written then; what arrived is in the local cache, so a rerun sends only the
    rest)."""
    translation = await translate(plan, memory, workers, speed, emit)
    lost = memory.lost
    if lost is None:
        return translation
    await speed.let_go(translation.release)
    return error(Code.SHARED_MEMORY_UNAVAILABLE, str(lost), memory.location)


def _refused(options: GenerateOptions, issues: list[Issue], started: float) -> Envelope:
    """The answer of a run stopped before translating (`issues` has errors)."""
    data = GenerateData(None, options.dry_run, [], 0, False, [])
    return make_envelope(KIND, data, issues, started=started)


def _data(
    plan: RunPlan, written: Written, translation: Translation, memory: RunMemory
) -> GenerateData:
    """What a run that planned its targets answers with."""
    targets, results = plan.choice.targets, written.results
    return GenerateData(
        provider_id=plan.choice.chain[0].id,
        dry_run=plan.options.dry_run,
        targets=[target.code for target in targets],
        leaves_processed=sum(target_run.leaf_count for target_run in plan.runs),
        partial=any(result.partial or result.status == "failed" for result in results),
        target_results=results,
        pool=translation.pool,
        locale_names={target.code: target.name for target in targets},
        lock_file=LOCK_FILE if written.lock_written else None,
        fleet=_fleet(translation, memory),
    )


def _fleet(translation: Translation, memory: RunMemory) -> FleetStatistics | None:
    """What the run did as a member of a fleet, when it had a shared memory."""
    shared = memory.shared
    if shared is None:
        return None
    claims = translation.claims
    return FleetStatistics(
        memory=shared.location,
        shard=None if memory.shard is None else str(memory.shard),
        shared_hits=shared.shared_hits,
        sent=claims.sent if claims is not None else 0,
        received=claims.received if claims is not None else 0,
    )
