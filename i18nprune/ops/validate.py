"""`validate`: the keys the code uses against the source locale."""

from __future__ import annotations

import time

import msgspec

from i18nprune.envelope import Code, Envelope, Issue, error, make_envelope, warning
from i18nprune.locales.view import LocaleView
from i18nprune.ops.events import EventSink, ProgressEvent
from i18nprune.ops.evidence_report import excluded_folders_note
from i18nprune.ops.scanning import scan_code
from i18nprune.ops.suggestions import Suggestion, suggest
from i18nprune.project import Project, ProjectHandle
from i18nprune.reference import Evidence, MissingKey, literal_candidates
from i18nprune.scan import ScanResult

KIND = "validate"


class ValidateOptions(msgspec.Struct, frozen=True, kw_only=True):
    """`validate` has no options of its own; the global flags shape the project."""


class Count(msgspec.Struct, frozen=True):
    count: int


class DynamicCounts(msgspec.Struct, frozen=True):
    count: int
    active: int
    commented: int


class ValidateData(msgspec.Struct, frozen=True, rename="camel"):
    source_locale: str
    files_scanned: int
    missing: list[str]
    count: int
    key_observations: Count
    dynamic: DynamicCounts
    suggestions: list[Suggestion]


def source_views(project: Project) -> dict[str | None, LocaleView]:
    """The source locale's view of each namespace (one view, `None`, with namespaces off)."""
    return project.load_namespaces(project.source_locale())


def missing_in(evidence: Evidence, views: dict[str | None, LocaleView]) -> list[MissingKey]:
    """The code keys the locale whose namespaces `views` are lacks."""
    return evidence.missing({namespace: view.leaves for namespace, view in views.items()})


def dynamic_counts(scan: ScanResult) -> DynamicCounts:
    commented = sum(1 for site in scan.dynamic if site.kind == "commented")
    return DynamicCounts(
        count=len(scan.dynamic), active=len(scan.dynamic) - commented, commented=commented
    )


async def run(handle: ProjectHandle, options: ValidateOptions, emit: EventSink) -> Envelope:
    """Compare code keys with the source locale; `ok` is false when keys are missing."""
    started = time.perf_counter()
    project = handle.open()
    issues: list[Issue] = project.readiness()
    views = source_views(project)
    evidence = await scan_code(
        project, KIND, emit, literal_candidates(views.values(), project.key_syntax())
    )
    scan = evidence.scan
    issues.extend(scan.issues)
    emit(ProgressEvent(type=f"run.progress.{KIND}", phase="compare"))
    for view in views.values():
        issues.extend(view.issues)
    missing = [evidence.syntax.display(m.namespace, m.key) for m in missing_in(evidence, views)]
    counts = dynamic_counts(scan)
    if missing:
        shown = ", ".join(missing[:5]) + (", …" if len(missing) > 5 else "")
        issues.append(
            error(
                Code.VALIDATE_MISSING,
                f"{len(missing)} key(s) used in code are missing from the source locale "
                f"`{project.source_locale()}`: {shown}",
            )
        )
    excluded = excluded_folders_note(scan)
    if excluded is not None:
        issues.append(excluded)
    if counts.active:
        issues.append(
            warning(
                Code.VALIDATE_DYNAMIC,
                f"{counts.active} dynamic key site(s) cannot be checked statically; their "
                "prefixes are protected (see `i18nprune locales dynamic`)",
            )
        )
    emit(ProgressEvent(type=f"run.progress.{KIND}", phase="done"))
    data = ValidateData(
        source_locale=project.source_locale(),
        files_scanned=scan.files,
        missing=missing,
        count=len(missing),
        key_observations=Count(len(scan.observations)),
        dynamic=counts,
        suggestions=suggest(project, evidence, views, len(missing)),
    )
    return make_envelope(KIND, data, issues, started=started)
