"""Writing a run's targets: each target's files (a file that cannot be written fails only its
target), then the lock file; and the issues a run reports of what it wrote, kept or lacks."""

from __future__ import annotations

import contextlib
import shlex
from dataclasses import dataclass

import trio

from i18nprune.envelope import Code, Issue, ProblemError, error, warning
from i18nprune.ops.engine.events import EventSink, ProgressEvent
from i18nprune.ops.generate.model import EVENT, GenerateOptions, TargetResult, TargetStatus
from i18nprune.ops.generate.parts import Translation
from i18nprune.ops.generate.plan import RunPlan, TargetRun
from i18nprune.ops.generate.speed import SpeedMechanics
from i18nprune.ops.sync import array_gap_warning
from i18nprune.project import Project
from i18nprune.translate.lock import (
    LOCK_FILE,
    Lock,
    LockFileError,
    lock_key,
    settle_pending,
    split_lock_key,
    update_lock,
)
from i18nprune.translate.translator import TranslationReport


@dataclass(frozen=True)
class Written:
    """What writing a run's targets did."""

    results: list[TargetResult]
    """Each target's result, in the plan's order."""
    lock_written: bool
    """Whether the lock file was written (an unchanged lock is not)."""
    issues: list[Issue]


async def write(
    plan: RunPlan,
    translation: Translation,
    speed: SpeedMechanics,
    emit: EventSink,
    *,
    sharded: bool = False,
) -> Written:
    """Write every translated target, then the lock file (a dry run writes nothing and
    reports its plan; a shard writes nothing and reports what it translated into the shared
    memory); meanwhile the translation is released (`Translation.release`: the cache closes
    and the translators are freed, touching no file). Returns once both are done.

    Shielded: once writing starts it finishes, so no file is left out of a finished run; the
    writes themselves contain no checkpoint.
    """
    project, runs, options = plan.project, plan.runs, plan.options
    if options.dry_run:
        await speed.let_go(translation.release)
        return Written([target_run.result("dry_run") for target_run in runs], False, [])
    if sharded:
        await speed.let_go(translation.release)
        return _sharded(plan, translation)

    def write_all() -> tuple[list[tuple[TargetResult, list[Issue]]], tuple[bool, list[Issue]]]:
        written = []
        for target_run, report in zip(runs, translation.reports, strict=True):
            assert report is not None  # every translation finished
            written.append(_write_target(target_run, report, options))
        wrote = [result.status != "failed" or not found for result, found in written]
        return written, _write_lock(project, runs, wrote)

    with trio.CancelScope(shield=True):
        outcomes, (lock_written, issues) = await trio.to_thread.run_sync(
            speed.write_beside, write_all, translation.release
        )
    results = []
    for result, found in outcomes:
        for path in result.output_paths:
            emit(ProgressEvent(type=EVENT, phase="write", target=result.target, path=path))
        results.append(result)
        issues.extend(found)
    return Written(results, lock_written, issues)


def closing_issues(plan: RunPlan) -> list[Issue]:
    """A warning for each target that keeps stale translations, and with `--check` the error
    naming the targets that lack translations or keep stale ones."""
    project, runs, options = plan.project, plan.runs, plan.options
    issues = [
        _stale_warning(project, target_run, options)
        for target_run in runs
        if target_run.kept_stale_count
    ]
    if options.check:
        issues.extend(_check_failures(project, runs))
    return issues


def _sharded(plan: RunPlan, translation: Translation) -> Written:
    """What a shard did: each target's texts translated (sent, or found in the memory) and
    failed; an error for the failed ones (a rerun of the shard sends only them)."""
    results: list[TargetResult] = []
    issues: list[Issue] = []
    for run, report in zip(plan.runs, translation.reports, strict=True):
        assert report is not None  # not a dry run
        texts = run.texts_to_translate()
        translated = sum(1 for text in texts if text in report.translations)
        results.append(run.result("sharded", report, translated=translated))
        failed = [text for text in texts if text in report.failures]
        if failed:
            issues.append(
                error(
                    Code.GENERATE_PARTIAL,
                    f"{len(failed)} leaf(s) of `{run.target.name}` in this shard could not be "
                    f"translated ({report.failures[failed[0]]}); run the shard again to retry",
                )
            )
    return Written(results, False, issues)


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
    issues.extend(run.writer.refusals)
    status: TargetStatus = "written" if count else "failed"
    if not run.leaf_count:  # only marks to set
        status = "written" if written else "skipped"
    refused = run.writer.refused
    return run.result(status, report, written, count, retranslated, refused), issues


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
