"""`validate`: the keys the code uses against the source locale."""

from __future__ import annotations

import time
from dataclasses import dataclass

import msgspec
import trio

from i18nprune.envelope import Code, Envelope, Issue, error, make_envelope, warning
from i18nprune.locales.view import LocaleView
from i18nprune.ops.events import EventSink, ProgressEvent
from i18nprune.ops.evidence_report import excluded_folders_note
from i18nprune.ops.scanning import scan_code
from i18nprune.ops.suggestions import Suggestion, suggest
from i18nprune.project import Project, ProjectHandle
from i18nprune.reference import Evidence, MissingKey, literal_candidates
from i18nprune.scan import KeyObservation, ScanResult

KIND = "validate"


class ValidateOptions(msgspec.Struct, frozen=True, kw_only=True):
    """`validate` has no options of its own; the global flags shape the project."""


class Count(msgspec.Struct, frozen=True):
    count: int


class DynamicCounts(msgspec.Struct, frozen=True):
    count: int
    active: int
    commented: int


class SourceRange(msgspec.Struct, frozen=True, rename="camel"):
    """A call site: 1-based lines and columns (characters), the end exclusive."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int


class ValidateData(msgspec.Struct, frozen=True, rename="camel"):
    source_locale: str
    files_scanned: int
    missing: list[str]
    count: int
    key_observations: Count
    dynamic: DynamicCounts
    suggestions: list[Suggestion]
    missing_sites: dict[str, list[SourceRange]] = {}
    """Each missing key → its call sites, in file order."""


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


@dataclass(frozen=True)
class _Loaded:
    project: Project
    views: dict[str | None, LocaleView]
    literal_texts: frozenset[str]
    issues: list[Issue]


def _load(handle: ProjectHandle) -> _Loaded:
    project = handle.open()
    views = source_views(project)
    texts = literal_candidates(views.values(), project.key_syntax())
    return _Loaded(project, views, texts, project.readiness())


async def run(handle: ProjectHandle, options: ValidateOptions, emit: EventSink) -> Envelope:
    """Compare code keys with the source locale; `ok` is false when keys are missing. Opening
    the project, reading the locales and comparing run off the event loop."""
    started = time.perf_counter()
    loaded = await trio.to_thread.run_sync(_load, handle, abandon_on_cancel=True)
    evidence = await scan_code(loaded.project, KIND, emit, loaded.literal_texts)
    emit(ProgressEvent(type=f"run.progress.{KIND}", phase="compare"))
    envelope = await trio.to_thread.run_sync(_compare, loaded, evidence, started)
    emit(ProgressEvent(type=f"run.progress.{KIND}", phase="done"))
    return envelope


def sites_by_key(evidence: Evidence, lacking: list[KeyObservation]) -> dict[str, list[SourceRange]]:
    """Each missing key (as `validate` names it) → the call sites that use it, from the sites
    `Evidence.missing_sites` found."""
    syntax = evidence.syntax
    sites: dict[str, list[SourceRange]] = {}
    for observation in lacking:
        namespace = observation.namespace if syntax.uses_namespaces else None
        sites.setdefault(syntax.display(namespace, observation.key), []).append(
            SourceRange(
                observation.file,
                observation.line,
                observation.column,
                observation.end_line,
                observation.end_column,
            )
        )
    return sites


def _compare(loaded: _Loaded, evidence: Evidence, started: float) -> Envelope:
    project, views = loaded.project, loaded.views
    issues = list(loaded.issues)
    scan = evidence.scan
    issues.extend(scan.issues)
    for view in views.values():
        issues.extend(view.issues)
    lacking = evidence.missing_sites({namespace: view.leaves for namespace, view in views.items()})
    missing = [evidence.syntax.display(m.namespace, m.key) for m in evidence.missing_keys(lacking)]
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
    data = ValidateData(
        source_locale=project.source_locale(),
        files_scanned=scan.files,
        missing=missing,
        count=len(missing),
        key_observations=Count(len(scan.observations)),
        dynamic=counts,
        suggestions=suggest(project, evidence, views, len(missing)),
        missing_sites=sites_by_key(evidence, lacking),
    )
    return make_envelope(KIND, data, issues, started=started)
