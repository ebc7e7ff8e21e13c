"""`validate`: the keys the code uses against the source locale."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import partial

import msgspec

from i18nprune.envelope import Code, Envelope, Issue, error, make_envelope, warning
from i18nprune.locales.view import LocaleView
from i18nprune.ops.events import EventSink, ProgressEvent
from i18nprune.ops.evidence_report import excluded_folders_note
from i18nprune.ops.near_twins import NearTwinPair, SourceRange, finding, pairs, source_twins
from i18nprune.ops.offload import run_blocking
from i18nprune.ops.scanning import remembered_run, scan_code
from i18nprune.ops.suggestions import Suggestion, source_evidence, suggest
from i18nprune.project import Project, ProjectHandle
from i18nprune.reference import Evidence, MissingKey, literal_candidates
from i18nprune.scan import KeyObservation, ScanResult
from i18nprune.translate.descriptions import Descriptions, key_descriptions
from i18nprune.translate.lock import LockFileError, read_lock, stale_counts

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
    missing_sites: dict[str, list[SourceRange]] = {}
    """Each missing key → its call sites, in file order."""
    stale_translations: dict[str, int] = {}
    """Each target `i18nprune.lock.json` tracks → its stale leaves (source text changed since
    they were translated); empty without a lock file."""
    descriptions: dict[str, str] = {}
    """Each key that has a description → it (`<segment>.meta.json` over an `// i18n:` comment
    above a call site), sorted by key."""
    near_twins: list[NearTwinPair] = []
    """Each missing key that has a near twin in the source (`missing` lists it too), by key."""


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
    literal_texts: dict[int, str]
    issues: list[Issue]
    stale: dict[str, int] = field(default_factory=dict)


def _load(handle: ProjectHandle) -> _Loaded:
    project = handle.open()
    views = source_views(project)
    texts = literal_candidates(views.values(), project.key_syntax())
    issues = project.readiness()
    return _Loaded(project, views, texts, issues, _stale_counts(project, views, issues))


def _stale_counts(
    project: Project, views: dict[str | None, LocaleView], issues: list[Issue]
) -> dict[str, int]:
    """Stale leaves per target from the lock file; without one, nothing more is read. A lock
    that cannot be used is a warning here (`generate` refuses it)."""
    try:
        lock = read_lock(project.root)
    except LockFileError as exc:
        issues.extend(msgspec.structs.replace(issue, severity="warning") for issue in exc.issues)
        return {}
    if lock is None:
        return {}
    return stale_counts(lock, views, project.load, project.editor)


async def run(handle: ProjectHandle, options: ValidateOptions, emit: EventSink) -> Envelope:
    """Compare code keys with the source locale; `ok` is false when keys are missing. Opening
    the project, reading the locales and comparing run off the event loop; a host that keeps
    snapshots answers from the last run while no file changed (`remembered_run`)."""
    return await remembered_run(handle, KIND, options, emit, partial(_run, handle, emit))


async def _run(handle: ProjectHandle, emit: EventSink) -> tuple[Envelope, Project]:
    started = time.perf_counter()
    loaded = await run_blocking(_load, handle, abandon_on_cancel=True)
    evidence = await scan_code(loaded.project, KIND, emit, loaded.literal_texts)
    emit(ProgressEvent(type=f"run.progress.{KIND}", phase="compare"))
    envelope = await run_blocking(_compare, loaded, evidence, started)
    emit(ProgressEvent(type=f"run.progress.{KIND}", phase="done"))
    return envelope, loaded.project


def sites_by_key(evidence: Evidence, lacking: list[KeyObservation]) -> dict[str, list[SourceRange]]:
    """Each missing key (as `validate` names it) → the call sites that use it, from the sites
    `Evidence.missing_sites` found."""
    syntax = evidence.syntax
    sites: dict[str, list[SourceRange]] = {}
    for observation in lacking:
        namespace = observation.namespace if syntax.uses_namespaces else None
        sites.setdefault(syntax.display(namespace, observation.key), []).append(
            SourceRange.of(observation)
        )
    return sites


def _shown(evidence: Evidence, described: Descriptions) -> dict[str, str]:
    """Descriptions by key as the project writes keys (`ns:key` with namespaces), sorted."""
    shown = {evidence.syntax.display(space, key): text for (space, key), text in described.items()}
    return dict(sorted(shown.items()))


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
    described, found = key_descriptions(views, evidence)
    issues.extend(found)
    twins = pairs(source_twins(project, evidence, views, lacking), evidence.syntax)
    paired = {pair.key for pair in twins}
    alone = [key for key in missing if key not in paired]
    if alone:
        shown = ", ".join(alone[:5]) + (", …" if len(alone) > 5 else "")
        issues.append(
            error(
                Code.VALIDATE_MISSING,
                f"{len(alone)} key(s) used in code are missing from the source locale "
                f"`{project.source_locale()}`: {shown}",
            )
        )
    issues.extend(finding(pair, project.source_locale()) for pair in twins)
    stale = {code: count for code, count in loaded.stale.items() if count}
    if stale:
        listed = ", ".join(f"{code} ({count})" for code, count in stale.items())
        fix = project.command(f"generate --target {','.join(stale)}")
        issues.append(
            warning(
                Code.GENERATE_STALE,
                f"{sum(stale.values())} translation(s) are stale — the source text changed "
                f"since they were translated: {listed}; run `{fix}` to re-translate those "
                "generate wrote and list those a person edited",
            )
        )
    unused = source_evidence(project, evidence, views)
    if unused.too_thin:
        issues.append(
            warning(
                Code.VALIDATE_THIN_EVIDENCE,
                f"the code proves too little: {unused.describe()}; `cleanup` would refuse to "
                "remove them. Check that `src` and `functions` cover the code that uses keys "
                f"(`{project.command('config')}`)",
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
        suggestions=suggest(project, views, len(missing), unused, twins),
        missing_sites=sites_by_key(evidence, lacking),
        stale_translations=loaded.stale,
        descriptions=_shown(evidence, described),
        near_twins=twins,
    )
    return make_envelope(KIND, data, issues, started=started)
