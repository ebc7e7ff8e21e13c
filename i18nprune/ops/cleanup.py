"""`cleanup`: remove locale keys the code does not use, keeping what dynamic sites may need."""

from __future__ import annotations

import time
from typing import Annotated

import msgspec

from i18nprune.envelope import (
    Code,
    Envelope,
    Issue,
    error,
    has_errors,
    info,
    make_envelope,
    warning,
)
from i18nprune.locales.editor import FileChange, LocaleEditor
from i18nprune.locales.jsonfile import LocaleFileError
from i18nprune.locales.view import translatable_paths
from i18nprune.ops.events import EventSink
from i18nprune.ops.scanning import scan_code
from i18nprune.ops.targets import source_or_targets
from i18nprune.project import ProjectHandle
from i18nprune.reference import removal_gate, source_gate, unused_paths

KIND = "cleanup"


class CleanupOptions(msgspec.Struct, frozen=True, kw_only=True):
    target: Annotated[
        list[str] | None,
        msgspec.Meta(description="clean these target locales instead of the source (or `all`)"),
    ] = None
    dry_run: Annotated[bool, msgspec.Meta(description="report, write nothing")] = False
    ask: Annotated[bool, msgspec.Meta(description="confirm each key (interactive only)")] = False
    keys: Annotated[
        list[str] | None, msgspec.Meta(description="remove only these of the unused keys")
    ] = None
    yes: Annotated[bool, msgspec.Meta(description="confirm the removal")] = False
    force: Annotated[
        bool,
        msgspec.Meta(
            description="remove even when some source files could not be scanned (keys used "
            "only there may be removed)"
        ),
    ] = False


class CleanupData(msgspec.Struct, frozen=True, rename="camel"):
    would_remove: int
    keys: list[str]
    uncertain_prefixes: list[str]
    removed: int
    targets: list[str]
    dry_run: bool
    files: list[FileChange]


def _gate(options: CleanupOptions, count: int) -> Issue | None:
    """Why this run must not write, when it must not."""
    if options.dry_run or count == 0 or options.yes:
        return None
    if options.ask:
        return error(
            Code.CONFIRMATION_REQUIRED,
            "--ask needs an interactive terminal; pass --yes to remove the listed keys, or "
            "--keys to choose them",
        )
    return error(
        Code.CONFIRMATION_REQUIRED,
        f"removing {count} key(s) needs confirmation: pass --yes (or --dry-run to preview)",
    )


async def run(handle: ProjectHandle, options: CleanupOptions, emit: EventSink) -> Envelope:
    """Remove unused paths from the source (or `--target` locales); `--yes` to write."""
    started = time.perf_counter()
    project = handle.open()
    issues: list[Issue] = project.readiness()
    locales, target_issues = source_or_targets(project, options.target)
    issues.extend(target_issues)
    empty = CleanupData(0, [], [], 0, locales, options.dry_run, [])
    if has_errors(issues):
        return make_envelope(KIND, empty, issues, started=started)
    scan, reference = await scan_code(project, KIND, emit)
    issues.extend(scan.issues)
    source = project.load(project.source_locale())
    if source.locale not in locales:
        issues.extend(source.issues)
    refusals = [
        gate
        for gate in (source_gate(KIND, source), removal_gate(KIND, scan, force=options.force))
        if gate is not None
    ]
    if reference.proves_nothing:
        issues.append(
            warning(
                Code.CLEANUP_NOTHING_PROVEN,
                "the scan found no key in the code, so nothing is provably unused; check `src` "
                "and `functions`",
            )
        )
    policy = project.config.reference.policy_for("cleanup")
    chosen = set(options.keys) if options.keys is not None else None
    editors: list[LocaleEditor] = []
    removable: dict[str, list[str]] = {}
    prefixes: set[str] = set()
    for locale in locales:
        view = source if locale == source.locale else project.load(locale)
        issues.extend(view.issues)
        unused = unused_paths(
            translatable_paths(view),
            reference,
            project.config.policies.preserve,
            protect_uncertain=False,
        )
        covering = {path: reference.uncertain_prefix(path) for path in unused}
        if policy != "allow":
            prefixes |= {prefix for prefix in covering.values() if prefix}
            unused = [path for path in unused if covering[path] is None]
        removable[locale] = [p for p in unused if chosen is None or p in chosen]
        editors.append(LocaleEditor(project.root, view))
    count = sum(len(paths) for paths in removable.values())
    if prefixes:
        report = warning if policy == "warn_only" else info
        issues.append(
            report(
                Code.CLEANUP_UNCERTAIN,
                f"paths under dynamic prefixes ({', '.join(sorted(prefixes))}) were not removed",
            )
        )
    issues.extend(refusals)
    blocked = next((gate for gate in refusals if gate.severity == "error"), None)
    if blocked is None:
        blocked = _gate(options, count)
        if blocked is not None:
            issues.append(blocked)
    changes: list[FileChange] = []
    removed = 0
    for editor, locale in zip(editors, locales, strict=True):
        try:
            for path in removable[locale]:
                removed += editor.delete(path)
            changes.extend(editor.changes())
            if not options.dry_run and blocked is None:
                editor.save()
        except LocaleFileError as exc:
            issues.append(exc.issue)
    data = CleanupData(
        would_remove=count,
        keys=sorted({path for paths in removable.values() for path in paths}),
        uncertain_prefixes=sorted(prefixes),
        removed=removed if not options.dry_run and blocked is None else 0,
        targets=locales,
        dry_run=options.dry_run,
        files=changes,
    )
    return make_envelope(KIND, data, issues, started=started)
