"""`missing`: add the keys the code uses but a locale lacks, as placeholder leaves."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import msgspec

from i18nprune.envelope import Code, Envelope, Issue, error, has_errors, make_envelope
from i18nprune.locales.catalog import plural_categories
from i18nprune.locales.editor import FileChange, LocaleEditor
from i18nprune.locales.jsonfile import LocaleFileError
from i18nprune.locales.view import LocaleView
from i18nprune.ops.events import EventSink
from i18nprune.ops.scanning import scan_code
from i18nprune.ops.targets import source_or_targets
from i18nprune.ops.validate import missing_keys
from i18nprune.project import Project, ProjectHandle
from i18nprune.reference import KeyReference, source_gate
from i18nprune.scan import ScanResult

KIND = "missing"


class MissingOptions(msgspec.Struct, frozen=True, kw_only=True):
    target: Annotated[
        list[str] | None,
        msgspec.Meta(description="fill these target locales instead of the source (or `all`)"),
    ] = None
    dry_run: Annotated[bool, msgspec.Meta(description="report, write nothing")] = False
    yes: Annotated[bool, msgspec.Meta(description="confirm the write")] = False


class MissingData(msgspec.Struct, frozen=True, rename="camel"):
    paths_added: int
    paths: list[str]
    targets: list[str]
    skipped_targets: list[str]
    dry_run: bool
    files: list[FileChange]


def _shared_depth(a: str, b: str) -> int:
    depth = 0
    for left, right in zip(a.split("."), b.split("."), strict=False):
        if left != right:
            break
        depth += 1
    return depth


def home_file(view: LocaleView, path: str) -> Path:
    """The segment a new path belongs in: the one whose keys share its longest prefix."""
    segments = {segment.rel: segment.path for segment in view.segments}
    best_rel, best_depth = view.segments[0].rel, 0
    for existing, rel in view.leaf_segment.items():
        depth = _shared_depth(existing, path)
        if depth > best_depth:
            best_rel, best_depth = rel, depth
    return segments[best_rel]


def paths_to_add(scan: ScanResult, reference: KeyReference, view: LocaleView) -> list[str]:
    """Missing code keys for this locale; plural keys get the locale's CLDR plural forms."""
    plural = {o.key for o in scan.observations if o.plural}
    paths: list[str] = []
    for key in missing_keys(scan, reference, set(view.leaves)):
        if key in plural:
            paths.extend(f"{key}_{category}" for category in plural_categories(view.locale))
        else:
            paths.append(key)
    return paths


def _placeholder(project: Project) -> object:
    sentinel = project.config.missing.placeholder
    if project.config.locale_leaves.mode == "structured":
        return {"value": sentinel, "needsTranslationAgain": True}
    return sentinel


async def run(handle: ProjectHandle, options: MissingOptions, emit: EventSink) -> Envelope:
    """Add missing code keys as placeholders to the source (or `--target` locales)."""
    started = time.perf_counter()
    project = handle.open()
    issues: list[Issue] = project.readiness()
    locales, target_issues = source_or_targets(project, options.target)
    issues.extend(target_issues)
    if has_errors(issues):
        empty = MissingData(0, [], locales, [], options.dry_run, [])
        return make_envelope(KIND, empty, issues, started=started)
    scan, reference = await scan_code(project, KIND, emit)
    issues.extend(scan.issues)
    source = project.load(project.source_locale())
    if source.locale not in locales:
        issues.extend(source.issues)
    refusal = source_gate(KIND, source)
    if refusal is not None:
        issues.append(refusal)
    added: set[str] = set()
    count = 0
    skipped: list[str] = []
    editors: list[LocaleEditor] = []
    for locale in locales:
        view = source if locale == source.locale else project.load(locale)
        issues.extend(view.issues)
        if has_errors(view.issues):
            skipped.append(locale)
            continue
        editor = LocaleEditor(project.root, view)
        try:
            for path in paths_to_add(scan, reference, view):
                editor.set(path, _placeholder(project), home_file(view, path))
                added.add(path)
                count += 1
        except LocaleFileError as exc:
            issues.append(exc.issue)
            skipped.append(locale)
            continue
        editors.append(editor)
    if count and not options.dry_run and not options.yes:
        issues.append(
            error(
                Code.CONFIRMATION_REQUIRED,
                f"adding {count} placeholder(s) needs confirmation: pass --yes (or --dry-run)",
            )
        )
    may_write = not options.dry_run and not has_errors(issues)
    changes = [change for editor in editors for change in editor.changes()]
    for editor in editors if may_write else []:
        editor.save()
    data = MissingData(
        paths_added=count if may_write else 0,
        paths=sorted(added),
        targets=[locale for locale in locales if locale not in skipped],
        skipped_targets=skipped,
        dry_run=options.dry_run,
        files=changes,
    )
    return make_envelope(KIND, data, issues, started=started)
