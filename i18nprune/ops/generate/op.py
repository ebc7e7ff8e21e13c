"""The `generate` op: `run`, which reads as the run's steps (plan, cache, pool, verify,
write), and the answer it gives."""

from __future__ import annotations

import time

import msgspec

from i18nprune.envelope import Envelope, Issue, has_errors, make_envelope
from i18nprune.ops.engine.events import EventSink, ProgressEvent
from i18nprune.ops.generate.model import EVENT, KIND, GenerateData, GenerateOptions
from i18nprune.ops.generate.parts import translate
from i18nprune.ops.generate.plan import RunPlan, choose_targets, plan_run
from i18nprune.ops.generate.speed import SpeedMechanics
from i18nprune.ops.generate.workers import RunPool
from i18nprune.ops.generate.write import Written, closing_issues, write
from i18nprune.pool.statistics import RunPoolStatistics
from i18nprune.project import ProjectHandle
from i18nprune.translate.lock import LOCK_FILE


async def run(handle: ProjectHandle, options: GenerateOptions, emit: EventSink) -> Envelope:
    """Translate what each target lacks, verify it, and write it atomically per file (with
    `check`, plan only and fail when anything would be translated)."""
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
        async with RunPool(project, options, choice.chain) as workers:
            # Plan: the locales read, the pool leased, the code scanned, each target planned.
            plan = await plan_run(project, options, choice, workers, speed, emit)
            issues.extend(plan.issues)
            if plan.refused:
                return _refused(options, issues, started)
            # Cache, pool, verify: each text looked up, the rest sent, each answer verified
            # and placed as it settles; the pool is given back before this returns.
            translation = await translate(plan, workers, speed, emit)
            issues.extend(translation.issues)
        # Write. No checkpoint since `translate` returned (leaving the block awaits nothing):
        # `write` is sure to run, and it releases the translation.
        written = await write(plan, translation, speed, emit)
        issues.extend([*written.issues, *closing_issues(plan)])
        data = _data(plan, written, translation.pool)
        emit(ProgressEvent(type=EVENT, phase="done", done=len(plan.runs), total=len(plan.runs)))
        envelope = make_envelope(KIND, data, issues, started=started)
        held: list[object] = [plan, translation]  # every leaf of every target: freed apart
        del plan, translation
        await speed.free(held)
        return envelope


def _refused(options: GenerateOptions, issues: list[Issue], started: float) -> Envelope:
    """The answer of a run stopped before translating (`issues` has errors)."""
    data = GenerateData(None, options.dry_run, [], 0, False, [])
    return make_envelope(KIND, data, issues, started=started)


def _data(plan: RunPlan, written: Written, pool: RunPoolStatistics | None) -> GenerateData:
    """What a run that planned its targets answers with."""
    targets, results = plan.choice.targets, written.results
    return GenerateData(
        provider_id=plan.choice.chain[0].id,
        dry_run=plan.options.dry_run,
        targets=[target.code for target in targets],
        leaves_processed=sum(target_run.leaf_count for target_run in plan.runs),
        partial=any(result.partial or result.status == "failed" for result in results),
        target_results=results,
        pool=pool,
        locale_names={target.code: target.name for target in targets},
        lock_file=LOCK_FILE if written.lock_written else None,
    )
